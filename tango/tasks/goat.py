"""GOAT-Bench's episode flow: subtasks in sequence on one agent, each scored at its first stop.

The episodes are read by tango.formats.goat; the programs an episode runs (one per episode or one per subtask)
and how their stop() calls map to subtasks are tango.tasks.goat_program's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tango.formats.fields import Loaded
from tango.formats.goat import GoatEpisode, GoatSubtask, read_episodes
from tango.harness.episode import EpisodeResult, EpisodeSpec
from tango.harness.registry import register_task
from tango.harness.scoring import pool_by_goal_type
from tango.programs.generators.record import GenerationRecord
from tango.programs.interpreter import RunResult
from tango.tasks.flow import EpisodeRun, HabitatFlow, NavTaskConfig, episode_result, run_failure
from tango.tasks.goat_program import (
    PROGRAM_MODES,
    SubtaskScores,
    episode_inputs,
    goal_phrases,
    joined_instruction,
    run_episode_program,
    subtask_instruction,
)
from tango.tasks.habitat.plugin import HabitatTask
from tango.types.goals import GoalImage

POOLED_METRICS = ("success", "spl", "soft_spl", "distance_to_goal", "lenient_success", "lenient_spl")


@dataclass
class GoatTaskConfig(NavTaskConfig):
    """configs/task/goat.yaml; `max_steps` is the episode's step budget, shared by its subtasks (GOAT-Bench's
    `environment.max_episode_steps`, 5000); `program` is `episode` (one program for the whole multi-goal
    episode, the paper's way) or `subtask` (one program per subtask from its own instruction)."""

    name: str = "goat"
    plugin: str = "tango.tasks.goat:GoatTask"
    max_steps: int = 5000
    success_distance: float = 0.25
    program: str = "episode"

    def __post_init__(self) -> None:
        if self.program not in PROGRAM_MODES:
            raise ValueError(f"task.program must be one of {PROGRAM_MODES}, got {self.program!r}")


class GoatFlow(HabitatFlow):
    """Subtasks in sequence from where the previous one ended, with the agent's maps and memory kept and one
    step budget for the episode; each subtask is scored at its first stop and its SPL restarts; subtasks left
    when the budget is spent score 0, never attempted. Programs: tango.tasks.goat_program."""

    schema = GoatTaskConfig
    data_file = "goat/{split}/{split}.json.gz"
    task: GoatTaskConfig

    def read(self, path: Path) -> Loaded[GoatEpisode]:
        return read_episodes(path)

    def spec(self, episode: GoatEpisode) -> EpisodeSpec:
        instruction = joined_instruction(goal_phrases(episode.tasks, self.task.program == "episode"))
        types = tuple(s.goal_type for s in episode.tasks)
        return EpisodeSpec(str(episode.episode_id), episode.scene_id, instruction, episode, types)

    def goal_inputs(self, subtask: GoatSubtask, run: EpisodeRun) -> dict[str, Any]:
        """`goal_image` / `goal_description` as GOAT gives them: a render from the stored pose, the lang_desc."""
        inputs: dict[str, Any] = {"goal_image": None, "goal_description": None}
        if subtask.goal_type == "description":
            inputs["goal_description"] = subtask.lang_desc or ""
        elif subtask.goal_type == "image":
            inputs["goal_image"] = self.render_goal(subtask, run)
        return inputs

    @staticmethod
    def render_goal(subtask: GoatSubtask, run: EpisodeRun) -> GoalImage:
        """The goal picture of an image subtask: a render by its stored camera (pose, hfov, size), as GOAT-Bench's."""
        camera = subtask.image_goal
        assert camera is not None, "an image subtask names its goal instance and picture"
        height, width = camera.image_dimensions
        return run.render_goal(camera.position, camera.rotation, (width, height), camera.hfov)

    def run(self, spec: EpisodeSpec, run: EpisodeRun) -> EpisodeResult:
        episode: GoatEpisode = spec.payload
        run.start(episode.scene_id, episode.start_position, episode.start_rotation)
        indexed = self.task.program == "episode"
        scores = SubtaskScores(episode.tasks, goal_phrases(episode.tasks, indexed), run, self.task)
        if indexed:
            pictures = {
                i: self.render_goal(subtask, run) for i, subtask in enumerate(episode.tasks)
                if subtask.goal_type == "image"
            }  # fmt: skip
            scores.pictures.update(pictures)
            inputs = episode_inputs(episode.tasks, list(pictures.values()))
            record, result = run_episode_program(scores, spec.instruction, inputs)
            records, runs = [record], [result]
        else:
            records, runs = [], []
            for index, (subtask, phrase) in enumerate(zip(episode.tasks, scores.phrases)):
                if scores.budget_spent:
                    break
                inputs = self.goal_inputs(subtask, run)
                scores.pictures[index] = inputs["goal_image"]
                scores.begin(inputs)
                records.append(run.program(phrase))
                runs.append(run.execute(records[-1], stop_when_done=True))
                scores.score()
            scores.unreached()
        run.finish([goal.position for subtask in episode.tasks for goal in subtask.goals])
        return self._result(spec, episode, scores.rows, records, runs)

    def _result(
        self,
        spec: EpisodeSpec,
        episode: GoatEpisode,
        subtasks: list[dict[str, Any]],
        records: list[GenerationRecord],
        runs: list[RunResult | None],
    ) -> EpisodeResult:
        """Metrics pooled over subtasks; every program and generation record (LLM calls and tokens summed)."""
        pooled = pool_by_goal_type(subtasks)["metrics"]
        metrics = {key: pooled[key] for key in POOLED_METRICS if key in pooled}
        total_steps = sum(int(row["num_steps"]) for row in subtasks)
        result = episode_result(spec.instruction, records[0], runs, metrics, total_steps, records)
        result.subtasks = subtasks
        failures = [r.failure_reason for r in records if r.failure_reason]
        result.failure_reason = failures[0] if failures else run_failure(runs)
        if self.task.program == "episode":
            return result
        result.program = "\n".join(
            f"# subtask {i} ({s.goal_type}): {subtask_instruction(s)}\n{r.program or ''}"
            for i, (s, r) in enumerate(zip(episode.tasks, records))
        )
        result.generation = {"subtasks": [r.to_dict() for r in records]}
        return result


class GoatTask(HabitatTask):
    """The GOAT-Bench harness plugin."""

    flow = GoatFlow

    def aggregate(self, subtasks: list[dict[str, Any]]) -> dict[str, Any] | None:
        """GOAT-Bench reports SR and SPL over subtasks, overall and per goal type (object, description, image)."""
        return pool_by_goal_type(subtasks)


register_task("goat", GoatTaskConfig)
