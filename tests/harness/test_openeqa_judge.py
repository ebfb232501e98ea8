"""OpenEQA scoring: LLM-Match judge over a real local chat server, and the offline normalised-match score."""

from __future__ import annotations

import pytest

from tango.llm import ChatClient, LLMConfig
from tango.tasks.openeqa_scoring import (
    JudgeConfig,
    JudgeError,
    LLMMatchJudge,
    build_judge,
    llm_match_score,
    normalised_match_score,
    parse_mark,
    score_answer,
)
from tests.support.chat_server import ChatServer, Reply
from tests.support.presets import preset


def _judge(server: ChatServer, attempts: int = 3) -> LLMMatchJudge:
    client = ChatClient(
        LLMConfig(model="judge", base_url=server.base_url, api_key="x", max_retries=0, timeout_s=5)
    )
    return LLMMatchJudge(client, max_attempts=attempts)


@pytest.mark.parametrize(
    ("reply", "mark"),
    [
        ("Your mark: 4", 4),
        ("your mark:5", 5),
        ("  3 ", 3),
        ("Reasoning: close.\nYour mark: **2**", 2),
        ("1.", 1),
    ],
)
def test_parse_mark_accepts_exactly_one_mark(reply: str, mark: int) -> None:
    assert parse_mark(reply) == mark


@pytest.mark.parametrize(
    "reply",
    [
        "I think it is right",
        "Your mark: 4\nYour mark: 5",
        "Your mark: 3 ... Your mark: 3",
        "Your mark: 7",
        "4 or 5",
    ],
)
def test_parse_mark_rejects_none_several_or_out_of_range(reply: str) -> None:
    with pytest.raises(JudgeError):
        parse_mark(reply)


def test_llm_match_score_maps_marks_to_0_100() -> None:
    assert [llm_match_score(m) for m in (1, 3, 5)] == [0.0, 50.0, 100.0]


def test_judge_scores_a_valid_reply_and_sends_question_answer_and_prediction() -> None:
    with ChatServer() as server:
        server.queue(Reply("Your mark: 5"))
        result = _judge(server).judge("What color is the sofa?", "red", "It is red", ["crimson"])
        prompt = server.requests[0]["messages"][0]["content"]
    assert (result.mark, result.score, result.attempts, result.error) == (5, 100.0, 1, None)
    assert "What color is the sofa?" in prompt and "It is red" in prompt and "crimson" in prompt
    assert prompt.rstrip().endswith("Your mark:")


def test_judge_retries_a_reply_without_a_single_mark() -> None:
    with ChatServer() as server:
        server.queue(Reply("Looks fine to me."), Reply("Your mark: 2\nYour mark: 3"), Reply("Your mark: 3"))
        result = _judge(server).judge("q", "a", "b")
        assert len(server.requests) == 3
    assert (result.mark, result.score, result.attempts) == (3, 50.0, 3)


def test_judge_error_is_reported_after_the_last_attempt() -> None:
    with ChatServer(default_text="no idea") as server:
        metrics, extra = score_answer("q", "red", "red", judge=_judge(server, attempts=2))
        assert len(server.requests) == 2
    assert "llm_match" not in metrics
    assert metrics["normalised_match"] == 100.0
    assert extra["judge_mark"] is None and extra["judge_attempts"] == 2
    assert "judge error after 2 attempts" in extra["judge_error"]


def test_judge_transport_errors_also_retry_then_report() -> None:
    with ChatServer() as server:
        server.queue(Reply(status=500), Reply("Your mark: 4"))
        result = _judge(server).judge("q", "a", "b")
    assert (result.mark, result.attempts) == (4, 2)


def test_normalised_match_is_exact_after_normalising_else_token_f1() -> None:
    assert normalised_match_score("The Red sofa.", ["red sofa"]) == 100.0
    assert normalised_match_score("blue", ["red", "Blue!"]) == 100.0
    assert normalised_match_score("a red chair", ["red sofa"]) == pytest.approx(50.0)
    assert normalised_match_score("", ["red"]) == 0.0


def test_judge_is_built_from_the_openeqa_task_config(monkeypatch: pytest.MonkeyPatch) -> None:
    node = preset("task", "openeqa")["judge"]
    assert isinstance(node, dict)
    assert build_judge(JudgeConfig.from_dict(node)) is None  # off by default: offline score only
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with ChatServer(default_text="Your mark: 4") as server:
        judge = build_judge(JudgeConfig.from_dict({**node, "enabled": True, "base_url": server.base_url}))
        assert judge is not None
        assert judge.judge("q", "a", "b").score == 75.0
        assert server.requests[0]["temperature"] == 0.0
    with pytest.raises(ValueError, match=r"unknown task.judge setting\(s\) \[.enabld.\]"):
        JudgeConfig.from_dict({"enabld": True})
