"""OpenEQA end to end with the scene-graph answerer whose model replies with nothing, with a failure, and with
garbage, and the local model as LLM-Match judge: every episode still ends with its answer recorded and scored
(an empty answer scores 0, no crash), and summary.json names the judge's score `llm_match_local` (never
`llm_match`) with its agreement with normalised match. The answerer's model is a local chat server and the
local judge a scripted stand-in for the GGUF model (no model runs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

import tango.llm.local
import tango.llm.models
from tango.harness.run import run_evaluation
from tango.llm import ChatResponse
from tests.agent.synthetic import eval_config, read_jsonl
from tests.support.chat_server import ChatServer, Reply

EPISODES = 3


class ScriptedLocalJudge:
    """Stands in for tango.llm.local.LocalChatModel: marks every answer 1 (wrong) and keeps the prompts."""

    prompts: ClassVar[list[str]] = []

    def __init__(self, path: Path, settings: Any) -> None:
        self.path = path

    def complete(self, messages: list[dict[str, Any]]) -> ChatResponse:
        ScriptedLocalJudge.prompts.append(json.dumps(messages))
        return ChatResponse("Your mark: 1", "scripted-local")


def test_empty_failed_and_garbled_model_replies_are_recorded_answers(
    dataset_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    weights = tmp_path / "judge.gguf"
    weights.write_bytes(b"stand-in")
    monkeypatch.setattr(tango.llm.models, "model_path", lambda name: weights)
    monkeypatch.setattr(tango.llm.local, "LocalChatModel", ScriptedLocalJudge)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with ChatServer() as server:
        server.queue(Reply(""), Reply("boom", status=500), Reply("\x00\n### ???"))
        config = eval_config(
            dataset_root, "openeqa", tmp_path / "run", f"eval.num_episodes={EPISODES}",
            "perception.answerer.kind=scene_graph", "perception.answerer.backend=endpoint",
            f"perception.answerer.llm.base_url={server.base_url}", "perception.answerer.llm.max_retries=0",
            "task.judge.enabled=true",
        )  # fmt: skip
        run_evaluation(config)
        answered = len(server.requests)
    records = read_jsonl(tmp_path / "run" / "episodes.jsonl")
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert len(records) == EPISODES and answered == EPISODES
    predictions = [record["extra"]["prediction"] for record in records]
    assert predictions == ["", "", ""]  # no line of the garbled reply holds a letter or digit
    assert all(record["metrics"]["normalised_match"] == 0.0 for record in records)
    assert "llm_match" not in summary["metrics"] and summary["metrics"]["llm_match_local"] == 0.0
    assert "judge_agreement" in summary["metrics"] and len(ScriptedLocalJudge.prompts) == EPISODES
