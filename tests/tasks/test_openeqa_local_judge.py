"""LLM-Match with the local model as judge when no endpoint is configured: its score has its own name
(`llm_match_local`, never averaged with an endpoint judge's `llm_match`), each judged answer records whether
the judge and normalised match agree, and a missing local model is a setup error naming the fix. The judge
here is a scripted chat model (no model runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tango.llm import ChatResponse
from tango.tasks.openeqa_scoring import LOCAL_METRIC, JudgeConfig, LLMMatchJudge, build_judge, score_answer


class ScriptedJudge:
    def __init__(self, reply: str) -> None:
        self.reply = reply

    def complete(self, messages: list[dict[str, Any]]) -> ChatResponse:
        return ChatResponse(self.reply, "scripted")


@pytest.mark.parametrize(
    ("prediction", "reply", "agreement"),
    [
        ("kitchen", "Your mark: 5", 100.0),  # both right (normalised F1 0.67)
        ("bathroom", "Your mark: 1", 100.0),  # both wrong
        ("the cooking room", "Your mark: 5", 0.0),  # the judge accepts a paraphrase normalised match cannot
    ],
)
def test_local_judge_is_named_and_its_agreement_recorded(
    prediction: str, reply: str, agreement: float
) -> None:
    judge = LLMMatchJudge(ScriptedJudge(reply), 1, LOCAL_METRIC)
    metrics, extra = score_answer("Which room is the oven in?", "in the kitchen", prediction, None, judge)
    assert set(metrics) == {"normalised_match", "llm_match_local", "judge_agreement"}
    assert metrics["judge_agreement"] == agreement and extra["judge_mark"] == int(reply[-1])


def test_unparseable_local_judge_reply_leaves_no_score() -> None:
    judge = LLMMatchJudge(ScriptedJudge("I cannot say"), 2, LOCAL_METRIC)
    metrics, extra = score_answer("Where?", "in the kitchen", "kitchen", None, judge)
    assert set(metrics) == {"normalised_match"} and extra["judge_error"].startswith("judge error after 2")


def test_no_endpoint_and_no_local_model_is_a_setup_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("TANGO_CACHE", str(tmp_path))
    with pytest.raises(ValueError, match="no endpoint is configured and the local judge model .* is missing"):
        build_judge(JudgeConfig(enabled=True))
    assert build_judge(JudgeConfig(enabled=False)) is None
