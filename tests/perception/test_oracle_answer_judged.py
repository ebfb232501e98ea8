"""OpenEQA end to end with the ORACLE answerer and an LLM-Match judge (a local chat server): the judge is
sent each question, its reference and the oracle's own answer, and its mark becomes `llm_match` beside the
offline normalised match; the summary names the answerer an oracle component."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tango.harness.run import run_evaluation
from tests.agent.synthetic import eval_config, read_jsonl
from tests.support.chat_server import ChatServer

EPISODES = 1


def test_oracle_answers_are_judged_with_llm_match(
    dataset_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with ChatServer(default_text="Your mark: 4") as server:
        config = eval_config(
            dataset_root, "openeqa", tmp_path, f"eval.num_episodes={EPISODES}",
            "task.judge.enabled=true", f"task.judge.base_url={server.base_url}",
        )  # fmt: skip
        run_evaluation(config)
        requests = list(server.requests)
    records = read_jsonl(tmp_path / "episodes.jsonl")
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert len(records) == EPISODES and len(requests) == EPISODES
    for record, request in zip(records, requests):
        assert record["metrics"]["llm_match"] == 75.0  # mark 4 of 5
        assert 0.0 <= record["metrics"]["normalised_match"] <= 100.0
        prompt = json.dumps(request["messages"])
        prediction = record["extra"]["prediction"]
        assert prediction and prediction in prompt and record["extra"]["reference"] in prompt
        assert record["instruction"] in prompt
    assert summary["metrics"]["llm_match"] == 75.0 and summary["judge_errors"] == 0
    assert "answerer" in summary["oracle_components"]
