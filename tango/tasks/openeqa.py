"""OpenEQA (A-EQA, active embodied question answering): question loading and the episode flow.

`open-eqa-v0.json` is a list of `{question, answer, category, question_id, episode_history, extra_answers?}`.
`episode_history` ("hm3d-v0/000-hm3d-BFRyYbPCCPE") names the scene: the part after the second "-" of its last
path component. The published file has no start pose (A-EQA takes it from the first frame of the history);
tango reads it from an optional `episode_starts.json` beside the questions, mapping episode_history to
`{scene_id, start_position, start_rotation}` (the synthetic generator writes one), and what each question
asks from an optional `question_facts.json` (question_id -> `{facts, evidence}`: the structured query and the
ids of the objects its answer rests on), for evaluation code and named oracles, never the agent. `read_episodes` returns the
good questions with a named problem per malformed one; `load_episodes` refuses the file at the first.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tango.harness.episode import EpisodeResult, EpisodeSpec
from tango.harness.registry import register_task
from tango.harness.scoring import is_number
from tango.programs.values import bounded_text
from tango.tasks.fields import (
    DatasetError,
    FieldError,
    Loaded,
    Quat,
    Vec3,
    episode_label,
    parse_each,
    quat,
    read_json,
    require,
    text,
    vec3,
)
from tango.tasks.flow import EpisodeRun, HabitatFlow, HabitatTaskConfig, episode_result
from tango.tasks.habitat_runner import HabitatTask
from tango.tasks.openeqa_scoring import JudgeConfig, LLMMatchJudge, build_judge, score_answer

CATEGORIES = (
    "object recognition",
    "attribute recognition",
    "object state recognition",
    "object localization",
    "spatial understanding",
    "functional reasoning",
    "world knowledge",
)
MAX_PREDICTION_CHARS = 1000
"""A program's answer is scored and recorded cut to this length (`prediction_cut: true` in `extra`, failure
reason `answer_cut`)."""
PERCENT_SCORES = ("llm_match", "normalised_match")
"""The answer scores (0-100) an outcome reads, best first: the judge's LLM-Match, then the normalised match."""
STARTS_FILE = "episode_starts.json"
FACTS_FILE = "question_facts.json"


@dataclass(frozen=True)
class EpisodeStart:
    """Where an episode history starts: the scene file and the agent's pose."""

    scene_id: str
    start_position: Vec3
    start_rotation: Quat


@dataclass(frozen=True)
class EQAQuestion:
    """One OpenEQA question with its reference answer(s) and, when known, the start pose."""

    question: str
    answer: str
    category: str
    question_id: str
    episode_history: str
    extra_answers: tuple[str, ...] | None = None
    start: EpisodeStart | None = None
    facts: dict[str, Any] | None = None
    evidence: tuple[int, ...] = ()
    source_file: str = field(default="", compare=False)

    @property
    def scene(self) -> str:
        """The scene name inside episode_history ("BFRyYbPCCPE" from "hm3d-v0/000-hm3d-BFRyYbPCCPE")."""
        return scene_from_history(self.episode_history)


def scene_from_history(episode_history: str) -> str:
    """The scene name of an episode history: its last path component after "{index}-{dataset}-"."""
    last = episode_history.rstrip("/").split("/")[-1]
    parts = last.split("-", 2)
    return parts[2] if len(parts) == 3 else last


def read_episodes(path: str | os.PathLike[str]) -> Loaded[EQAQuestion]:
    """The questions of an OpenEQA file, with start poses from `episode_starts.json` beside it when present,
    and a named problem per malformed question."""
    file = Path(path)
    data = read_json(file)
    if not isinstance(data, list):
        raise DatasetError(file, "top level must be a JSON list of questions")
    starts_file = file.parent / STARTS_FILE
    starts = _load_starts(starts_file) if starts_file.exists() else None
    facts = _load_facts(file.parent / FACTS_FILE)
    return parse_each(
        file,
        data,
        lambda raw, _: _question(raw, file, starts, facts),
        lambda raw, index: episode_label(raw, index, "question", "question_id"),
    )


def load_episodes(path: str | os.PathLike[str]) -> list[EQAQuestion]:
    """The questions of an OpenEQA file; a malformed question refuses the file (EpisodeError)."""
    return read_episodes(path).strict()


def _load_starts(file: Path) -> dict[str, EpisodeStart | FieldError]:
    """episode_history -> its start pose, or the problem with its entry (reported by the questions using it)."""
    data = read_json(file)
    if not isinstance(data, dict):
        raise DatasetError(file, "top level must be a JSON object keyed by episode_history")
    return {history: _start(raw, f"{file.name}[{history!r}]") for history, raw in data.items()}


def _load_facts(file: Path) -> dict[str, dict[str, Any]]:
    """question_id -> {facts, evidence}, or empty when there is no facts file."""
    if not file.exists():
        return {}
    data = read_json(file)
    valid = isinstance(data, dict) and all(
        isinstance(v, dict) and isinstance(v.get("facts"), dict) and isinstance(v.get("evidence", []), list)
        for v in data.values()
    )
    if not valid:
        raise DatasetError(file, "top level must map question_id to {facts: {...}, evidence: [object ids]}")
    return data


def _start(raw: Any, name: str) -> EpisodeStart | FieldError:
    try:
        return EpisodeStart(
            scene_id=text(require(raw, "scene_id", name), f"{name}.scene_id"),
            start_position=vec3(require(raw, "start_position", name), f"{name}.start_position"),
            start_rotation=quat(require(raw, "start_rotation", name), f"{name}.start_rotation"),
        )
    except FieldError as exc:
        return exc


def _question(
    raw: Any,
    file: Path,
    starts: dict[str, EpisodeStart | FieldError] | None,
    facts: dict[str, dict[str, Any]],
) -> EQAQuestion:
    history = text(require(raw, "episode_history"), "episode_history")
    extra = raw.get("extra_answers")
    if extra is not None and (not isinstance(extra, list) or not all(isinstance(a, str) for a in extra)):
        raise FieldError("extra_answers", f"must be a list of strings, got {extra!r}")
    start = None
    if starts is not None:
        if history not in starts:
            raise FieldError("episode_history", f"{history!r} has no start pose in {STARTS_FILE}")
        found = starts[history]
        if isinstance(found, FieldError):
            raise found
        start = found
    answer = require(raw, "answer")
    if not isinstance(answer, (str, int, float)) or isinstance(answer, bool):
        raise FieldError("answer", f"must be a string, got {answer!r}")
    question_id = str(require(raw, "question_id"))
    known = facts.get(question_id, {})
    return EQAQuestion(
        question=text(require(raw, "question"), "question"),
        answer=str(answer),
        category=text(require(raw, "category"), "category"),
        question_id=question_id,
        episode_history=history,
        extra_answers=tuple(extra) if extra is not None else None,
        start=start,
        facts=known.get("facts"),
        evidence=tuple(int(i) for i in known.get("evidence", [])),
        source_file=str(file),
    )


# --- the OpenEQA flow -------------------------------------------------------------------------------------------


@dataclass
class OpenEQATaskConfig(HabitatTaskConfig):
    """configs/task/openeqa.yaml; `judge` scores with LLM-Match when enabled (else normalised match only)."""

    name: str = "openeqa"
    plugin: str = "tango.tasks.openeqa:OpenEQATask"
    judge: JudgeConfig = field(default_factory=JudgeConfig)


class OpenEQAFlow(HabitatFlow):
    """Explore, then answer: the question as written is the whole instruction; one program returns the answer."""

    schema = OpenEQATaskConfig
    data_file = "openeqa/{split}/open-eqa-v0.json"
    task: OpenEQATaskConfig

    def __init__(self, task: HabitatTaskConfig) -> None:
        super().__init__(task)
        self._judge: LLMMatchJudge | None = None

    def read(self, path: Path) -> Loaded[EQAQuestion]:
        loaded = read_episodes(path)
        missing = [q.question_id for q in loaded.episodes if q.start is None]
        if missing:
            raise DatasetError(path, f"questions without a start pose ({STARTS_FILE}): {missing[:5]}")
        return loaded

    def spec(self, episode: EQAQuestion) -> EpisodeSpec:
        assert episode.start is not None
        return EpisodeSpec(episode.question_id, episode.start.scene_id, episode.question, episode)

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        if not self.task.judge.enabled:
            return {"normalised_match": 0.0}
        if self._judge is None:
            self._judge = build_judge(self.task.judge)
        assert self._judge is not None
        return {"normalised_match": 0.0, self._judge.metric: 0.0}

    def run(self, spec: EpisodeSpec, run: EpisodeRun) -> EpisodeResult:
        question: EQAQuestion = spec.payload
        assert question.start is not None
        start = question.start
        run.start(start.scene_id, start.start_position, start.start_rotation)
        record = run.program(question.question)
        result = run.execute(record, stop_when_done=False)
        value = None if result is None else result.value
        prediction, cut = ("", False) if value is None else bounded_text(value, MAX_PREDICTION_CHARS)
        run.finish([])
        if self._judge is None and self.task.judge.enabled:
            self._judge = build_judge(self.task.judge)
        metrics, extra = score_answer(
            question.question, question.answer, prediction, list(question.extra_answers or []), self._judge
        )
        episode = episode_result(question.question, record, [result], metrics, run.steps)
        episode.extra = {"category": question.category, "reference": question.answer, **extra}
        if question.extra_answers:
            episode.extra["extra_answers"] = list(question.extra_answers)
        if cut:
            episode.extra["prediction_cut"] = True
            episode.failure_reason = episode.failure_reason or (
                f"answer_cut: the program's answer is longer than {MAX_PREDICTION_CHARS} characters; "
                "it is recorded and scored cut"
            )
        return episode


class OpenEQATask(HabitatTask):
    """The OpenEQA harness plugin."""

    flow = OpenEQAFlow

    def outcome(self, metrics: Mapping[str, Any]) -> float | None:
        """`success` when present, else the LLM-Match score (when judged), else the normalised match; both are
        0-100 and become a fraction; None without any."""
        found = super().outcome(metrics)
        if found is not None:
            return found
        for name in PERCENT_SCORES:
            value = metrics.get(name)
            if is_number(value):
                return float(value) / 100.0
        return None


register_task("openeqa", OpenEQATaskConfig)
