"""OpenEQA's episode flow: explore, then answer; the answer is scored by normalised match and, when enabled,
an LLM judge (tango.tasks.openeqa_scoring). The questions are read by tango.formats.openeqa.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tango.formats.fields import DatasetError, Loaded
from tango.formats.openeqa import STARTS_FILE, EQAQuestion, read_episodes
from tango.harness.episode import EpisodeResult, EpisodeSpec
from tango.harness.registry import register_task
from tango.harness.scoring import is_number
from tango.programs.values import bounded_text
from tango.tasks.flow import EpisodeRun, HabitatFlow, HabitatTaskConfig, episode_result
from tango.tasks.habitat.plugin import HabitatTask
from tango.tasks.openeqa_scoring import JudgeConfig, LLMMatchJudge, build_judge, score_answer

MAX_PREDICTION_CHARS = 1000
"""A program's answer is scored and recorded cut to this length (`prediction_cut: true` in `extra`, failure
reason `answer_cut`)."""
PERCENT_SCORES = ("llm_match", "normalised_match")
"""The answer scores (0-100) an outcome reads, best first: the judge's LLM-Match, then the normalised match."""


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
