"""OpenEQA answer scoring: LLM-Match (a judge LLM marks 1-5, score 100 * (mark - 1) / 4) and an offline score.

The judge reply must contain exactly one mark, the integer 1-5 after "Your mark:" (or be just that integer,
since the prompt ends with "Your mark:"). A reply with no mark or several is a judge error: the request is
retried, and after the last attempt the error is reported with the episode, never averaged in.
The offline `normalised_match` score (exact match after normalisation, else token F1, times 100) is a
different, cruder measure and is always reported under that name, never as LLM-Match.

The judge is the configured OpenAI-compatible endpoint (`judge.base_url` or OPENAI_BASE_URL), scored as
`llm_match`; with no endpoint configured it is the fetched local model (`judge.local_model`, "" = tango.llm's
default), scored as `llm_match_local` so that the two are never averaged together or confused. Either way each
judged episode also gets `judge_agreement`: 100 when the judge and normalised match agree on whether the answer
is right (each at a score of at least RIGHT_SCORE), else 0; its mean is their agreement on the same answers.
"""

from __future__ import annotations

import os
import re
import string
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from tango.config_utils import dataclass_from_dict
from tango.llm import ChatClient, ChatResponse, LLMConfig, LLMError

MARK_PATTERN = re.compile(r"your mark:\s*\**\s*(\d+)", re.IGNORECASE)
BARE_MARK_PATTERN = re.compile(r"^\s*\**\s*(\d+)\s*\**\s*\.?\s*$")
ARTICLES = {"a", "an", "the"}
RIGHT_SCORE = 50.0
"""A score (0-100) at or above which an answer counts as right when judge and normalised match are compared."""
ENDPOINT_METRIC, LOCAL_METRIC = "llm_match", "llm_match_local"

JUDGE_PROMPT = """You are grading an answer to a question about an indoor scene.
Compare the response with the reference answer (any alternative reference counts as equally correct) and
rate how well the response agrees with it on this 1-5 scale:
5: the response says the same thing as the reference.
4: the response agrees with the reference with a small omission or harmless extra detail.
3: the response is partly right: it gets some of what the reference says.
2: the response is mostly wrong but shares a minor point with the reference.
1: the response is wrong, unrelated, or does not answer.
Judge meaning, not wording. Reply with one line of the form "Your mark: N" and nothing else.

Question: {question}
Reference answer: {answer}{extra}
Response: {prediction}
Your mark:"""


class ChatBackend(Protocol):
    """What the judge asks: the OpenAI-compatible client or the in-process local model."""

    def complete(self, messages: list[dict[str, Any]]) -> ChatResponse: ...


class JudgeError(ValueError):
    """The judge's reply did not hold exactly one mark from 1 to 5."""


@dataclass
class JudgeConfig:
    """configs/task/openeqa.yaml `judge`: whether to call the judge, which model, and how often to retry."""

    enabled: bool = False
    model: str = "gpt-4o-mini"
    base_url: str = ""
    local_model: str = ""
    max_attempts: int = 3
    max_tokens: int = 64

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> JudgeConfig:
        """From the `task.judge` node; unknown keys are an error naming them."""
        return dataclass_from_dict(cls, values, "task.judge")


@dataclass
class JudgeResult:
    """A mark (and its LLM-Match score) or the error of the last attempt; `replies` are the raw judge texts."""

    mark: int | None
    score: float | None
    attempts: int
    error: str | None = None
    replies: list[str] = field(default_factory=list)


def parse_mark(reply: str) -> int:
    """The single mark in a judge reply; JudgeError when there is none, several, or one outside 1-5."""
    marks = MARK_PATTERN.findall(reply)
    if not marks:
        bare = BARE_MARK_PATTERN.match(reply)
        marks = [bare.group(1)] if bare else []
    if len(marks) != 1:
        raise JudgeError(
            f"expected exactly one mark after 'Your mark:', found {len(marks)} in {reply[:200]!r}"
        )
    mark = int(marks[0])
    if not 1 <= mark <= 5:
        raise JudgeError(f"mark {mark} is outside 1-5 in {reply[:200]!r}")
    return mark


def llm_match_score(mark: int) -> float:
    """LLM-Match score of one mark: 100 * (mark - 1) / 4."""
    return 100.0 * (mark - 1) / 4.0


def judge_prompt(question: str, answer: str, prediction: str, extra_answers: list[str] | None = None) -> str:
    """The judge prompt for one answer."""
    extra = f"\nAlternative reference answers: {'; '.join(extra_answers)}" if extra_answers else ""
    return JUDGE_PROMPT.format(question=question, answer=answer, extra=extra, prediction=prediction)


class LLMMatchJudge:
    """Marks answers with a judge LLM through the shared OpenAI-compatible client."""

    def __init__(self, client: ChatBackend, max_attempts: int = 3, metric: str = ENDPOINT_METRIC) -> None:
        if max_attempts < 1:
            raise ValueError(f"judge max_attempts must be >= 1, got {max_attempts}")
        self.client = client
        self.max_attempts = max_attempts
        self.metric = metric

    def judge(
        self, question: str, answer: str, prediction: str, extra_answers: list[str] | None = None
    ) -> JudgeResult:
        """Ask until one valid mark comes back or attempts run out; transport and parse errors both retry."""
        messages = [{"role": "user", "content": judge_prompt(question, answer, prediction, extra_answers)}]
        replies: list[str] = []
        error = ""
        for attempt in range(1, self.max_attempts + 1):
            try:
                reply = self.client.complete(messages).text
            except LLMError as failure:
                error = f"judge request failed: {failure}"
                continue
            replies.append(reply)
            try:
                mark = parse_mark(reply)
            except JudgeError as failure:
                error = str(failure)
                continue
            return JudgeResult(mark, llm_match_score(mark), attempt, None, replies)
        return JudgeResult(
            None, None, self.max_attempts, f"judge error after {self.max_attempts} attempts: {error}", replies
        )


def build_judge(config: JudgeConfig) -> LLMMatchJudge | None:
    """The configured LLM-Match judge, or None when disabled: the endpoint (temperature 0; key from
    OPENAI_API_KEY) when one is configured, else the local model. ValueError when the local model is missing."""
    if not config.enabled:
        return None
    if config.base_url or os.environ.get("OPENAI_BASE_URL"):
        llm = LLMConfig(
            model=config.model, base_url=config.base_url, temperature=0.0, max_tokens=config.max_tokens
        )
        return LLMMatchJudge(ChatClient(llm), config.max_attempts, ENDPOINT_METRIC)
    from tango.llm.local import LocalChatModel, LocalModelConfig
    from tango.llm.models import DEFAULT_MODEL, model_path

    name = config.local_model or DEFAULT_MODEL
    path = model_path(name)
    if not path.is_file():
        raise ValueError(
            f"task.judge: no endpoint is configured and the local judge model {path} is missing "
            "(python -m tango.llm fetch, or set task.judge.base_url)"
        )
    settings = LocalModelConfig(n_ctx=2048, max_tokens=config.max_tokens, stop=("\n",))
    return LLMMatchJudge(LocalChatModel(path, settings), config.max_attempts, LOCAL_METRIC)


def normalise_answer(text: str) -> str:
    """Lower case, no punctuation, no articles, single spaces."""
    lowered = text.lower().translate(str.maketrans("", "", string.punctuation))
    return " ".join(word for word in lowered.split() if word not in ARTICLES)


def _token_f1(prediction: str, reference: str) -> float:
    predicted, expected = prediction.split(), reference.split()
    common = sum((Counter(predicted) & Counter(expected)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


def normalised_match_score(prediction: str, answers: list[str]) -> float:
    """Offline score 0-100: 100 for a normalised exact match with any reference, else the best token F1 x 100."""
    predicted = normalise_answer(prediction)
    references = [normalise_answer(answer) for answer in answers if answer]
    if not predicted or not references:
        return 0.0
    if predicted in references:
        return 100.0
    return 100.0 * max(_token_f1(predicted, reference) for reference in references)


def score_answer(
    question: str,
    answer: str,
    prediction: str,
    extra_answers: list[str] | None = None,
    judge: LLMMatchJudge | None = None,
) -> tuple[dict[str, float], dict[str, Any]]:
    """Metrics (`normalised_match`, and `llm_match` when judged) and extras (mark, attempts, judge_error)."""
    metrics = {"normalised_match": normalised_match_score(prediction, [answer, *(extra_answers or [])])}
    extra: dict[str, Any] = {"prediction": prediction}
    if judge is not None:
        result = judge.judge(question, answer, prediction, extra_answers)
        extra.update(judge_mark=result.mark, judge_attempts=result.attempts, judge_error=result.error)
        if result.score is not None:
            metrics[judge.metric] = result.score
            agree = (result.score >= RIGHT_SCORE) == (metrics["normalised_match"] >= RIGHT_SCORE)
            metrics["judge_agreement"] = 100.0 if agree else 0.0
    return metrics, extra
