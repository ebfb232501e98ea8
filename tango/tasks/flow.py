"""The per-benchmark half of the Habitat tasks: a `HabitatFlow` turns a benchmark's loaded episodes into what
the agent is told and scores its runs; the shared runner hands each episode an `EpisodeRun` to do it with.

A flow decides the instruction the agent receives (the only text it gets), the goal inputs bound before a
program starts, the program(s) an episode runs and the measures. The runner (tango.tasks.habitat) owns the
simulator, perception, maps, program generation and execution, and everything the flows share.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

import numpy as np

from tango.formats.fields import DatasetError, EpisodeError, Loaded
from tango.formats.nav_episodes import ViewPoint
from tango.formats.synthetic import STAMP_FILE, default_dataset_root, read_stamp
from tango.harness.episode import EpisodeResult, EpisodeSpec
from tango.programs.generators.record import GenerationRecord
from tango.programs.interpreter import RunResult, StopReason
from tango.tasks.measures import DISTANCE_DEFINITIONS
from tango.types.goals import GoalImage

Point = Sequence[float] | np.ndarray


@dataclass
class HabitatTaskConfig:
    """The `task` section every Habitat benchmark shares: where its episodes are and the step budget.

    `data_path` null means the synthetic default dataset (prepared by the entry point), split `split`: `val` (dev:
    tune and design here) or `test` (from other scene seeds: the split reported figures come from); with a
    `data_path` the file names its own split and `split` is not used. `scenes_dir` is the folder the episodes'
    scene_id paths are relative to (null: the dataset's scenes/ beside it); `strict` refuses the whole file
    when one episode is malformed (else that episode alone fails, named).
    """

    name: str = ""
    plugin: str = ""
    data_path: str | None = None
    scenes_dir: str | None = None
    split: str = "val"
    max_steps: int = 500
    strict: bool = False


@dataclass
class NavTaskConfig(HabitatTaskConfig):
    """A navigation benchmark scored by its own rules: success is a stop closer than `success_distance` metres
    to the goal, distance measured as `distance_to` says (habitat-lab's DistanceToGoal: VIEW_POINTS, every view
    point of every goal instance; POINT, the instances' positions). `lenient_success_distance` adds a second,
    separately named figure (lenient_success, lenient_spl) at a looser radius, null for none;
    `scoring_source` names the benchmark file the rules were read from (recorded with the results)."""

    success_distance: float = 0.1
    distance_to: str = "VIEW_POINTS"
    lenient_success_distance: float | None = 1.0
    scoring_source: str = ""

    def __post_init__(self) -> None:
        if self.distance_to not in DISTANCE_DEFINITIONS:
            raise ValueError(
                f"task.distance_to must be one of {tuple(DISTANCE_DEFINITIONS)}, got {self.distance_to!r}"
            )


@dataclass(frozen=True)
class MalformedEpisode:
    """The payload of an episode the loader could not read: running it raises the loader's problem."""

    task: str
    problem: EpisodeError


class GoalInstance(Protocol):
    """What distance-to-goal needs of a goal instance (ObjectNav/OVON and GOAT goals alike)."""

    @property
    def position(self) -> Sequence[float]: ...

    @property
    def view_points(self) -> Sequence[ViewPoint]: ...


def goal_points(goals: Iterable[GoalInstance], distance_to: str) -> list[Point]:
    """The points distance to goal is measured to, as habitat-lab's DistanceToGoal takes them: every view
    point's position (VIEW_POINTS) or every instance's position (POINT)."""
    if distance_to == "POINT":
        return [goal.position for goal in goals]
    return [view.agent_state.position for goal in goals for view in goal.view_points]


class EpisodeRun(Protocol):
    """What the shared runner offers a flow for one episode (one agent, one simulator, one trace)."""

    @property
    def steps(self) -> int:
        """Environment steps taken since the episode started (the episode's one step budget)."""
        ...

    @property
    def path_length(self) -> float:
        """Metres walked since the episode started."""
        ...

    def start(self, scene_id: str, position: Point, rotation: Point) -> None:
        """Load the scene, place the agent and build its perception, maps and budget."""
        ...

    def begin_subtask(self, inputs: dict[str, Any], first: bool) -> None:
        """Goal inputs for the next subtask; the agent keeps its maps, memory and the episode's step budget."""
        ...

    def render_goal(
        self, camera_position: Point, rotation: Point, size: tuple[int, int], hfov: float
    ) -> GoalImage:
        """The picture a camera at this pose takes with its own size (width, height) and horizontal field of view
        (image goals are given as such renders; a simulator that cannot place such a camera uses the agent's)."""
        ...

    def save_picture(self, image: GoalImage, name: str) -> str | None:
        """Save a goal picture beside the run's results (for the report); its path relative to the run dir."""
        ...

    def position(self) -> np.ndarray:
        """Where the agent stands now."""
        ...

    def geodesic_distance(self, start: Point, goals: Sequence[Point]) -> float:
        """Shortest navigable distance from `start` to the nearest goal."""
        ...

    def trace(self, event: str, **fields: Any) -> None:
        """Append an event to the episode's trace."""
        ...

    def program(self, instruction: str) -> GenerationRecord:
        """The program the configured generator writes for `instruction`."""
        ...

    def execute(
        self, record: GenerationRecord, stop_when_done: bool, replan: bool = True
    ) -> RunResult | None:
        """Run a generated program (None when generation failed); with `stop_when_done` a program that ends
        cleanly without calling stop() is stopped where it ended, as the paper's programs simply return;
        `replan=False` runs it once even when the generator could revise it."""
        ...

    def stop(self) -> None:
        """Declare the current goal reached where the agent stands (what a program's stop() does)."""
        ...

    def listen_stops(self, listener: Callable[[], None] | None) -> None:
        """Call `listener` right after each stop() the agent declares (after the stop is recorded)."""
        ...

    def score_stop(
        self, goals: Sequence[Point], start_distance: float, path_offset: float, rules: NavTaskConfig
    ) -> dict[str, float]:
        """Success, SPL and distance to `goals` at the first stop of the (sub)task (or where the agent is if it
        never stopped), by the task's rules (its radius, and the lenient one if set); the path walked counts
        from `path_offset`."""
        ...

    def finish(self, goals: Sequence[Point]) -> None:
        """Record the closing top-down map, with the goals drawn for the reader, and in the trace how often the
        feature memory sent explore_scene() to a remembered place."""
        ...


class HabitatFlow:
    """One benchmark's episode flow; subclasses set `schema` and `data_file` and implement the methods."""

    schema: ClassVar[type[HabitatTaskConfig]] = HabitatTaskConfig
    data_file: ClassVar[str] = ""

    def __init__(self, task: HabitatTaskConfig) -> None:
        self.task = task

    def read(self, path: Path) -> Loaded[Any]:
        """The episodes of a split file, read in the benchmark's published format, with a named problem per
        malformed episode."""
        raise NotImplementedError

    def spec(self, episode: Any) -> EpisodeSpec:
        """The harness view of one episode: id, scene and the instruction the agent receives."""
        raise NotImplementedError

    def run(self, spec: EpisodeSpec, run: EpisodeRun) -> EpisodeResult:
        """Run and score one episode."""
        raise NotImplementedError

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        """What an episode that raised scores (it counts as a failure in every success figure)."""
        metrics = {"success": 0.0, "spl": 0.0, "soft_spl": 0.0}
        if isinstance(self.task, NavTaskConfig) and self.task.lenient_success_distance is not None:
            metrics.update(lenient_success=0.0, lenient_spl=0.0)
        return metrics


def run_failure(runs: Sequence[RunResult | None]) -> str | None:
    """The first program error (budget ends are normal outcomes, not failures)."""
    for run in runs:
        if run is not None and run.error and run.stop_reason != StopReason.STEP_BUDGET:
            return f"{run.stop_reason}: {run.error}"
    return None


def episode_result(
    instruction: str,
    record: GenerationRecord,
    runs: Sequence[RunResult | None],
    metrics: dict[str, float],
    steps: int,
    records: Sequence[GenerationRecord] = (),
) -> EpisodeResult:
    """The record of an episode that ran one generated program, or several (`records`, GOAT's programs per
    subtask, `record` the first): LLM calls and tokens are summed over every generation record."""
    counted = list(records) or [record]
    return EpisodeResult(
        program=record.program or "",
        program_source=record.program_source,
        metrics=metrics,
        num_steps=steps,
        failure_reason=record.failure_reason or run_failure(runs),
        instruction=instruction,
        generation=record.to_dict(),
        prompt_tokens=sum(r.prompt_tokens for r in counted),
        completion_tokens=sum(r.completion_tokens for r in counted),
        llm_calls=sum(r.llm_calls for r in counted),
    )


def dataset_paths(task: HabitatTaskConfig, data_file: str) -> tuple[Path, Path]:
    """(episode file, scenes folder): the configured ones, else the synthetic default dataset's, which the
    entry point prepares (tango.eval; elsewhere `python -m tango.scenes default`)."""
    if task.data_path:
        data = Path(task.data_path)
        if not data.exists():
            raise DatasetError(data, "not found (task.data_path)")
        if task.scenes_dir:
            return data, Path(task.scenes_dir)
        root = next((p for p in data.parents if (p / STAMP_FILE).is_file()), None)
        if root is None:
            raise DatasetError(
                data,
                f"task.data_path is not inside a tango dataset folder (no {STAMP_FILE} above it): "
                "set task.scenes_dir to the folder its scene_id paths are relative to",
            )
        return data, root / "scenes"
    root = default_dataset_root()
    if read_stamp(root) is None:
        raise DatasetError(
            root,
            "the default synthetic dataset is not prepared: `python -m tango.eval` prepares it before the "
            "first episode; elsewhere run `python -m tango.scenes default` (or set task.data_path)",
        )
    data = root / data_file.format(split=task.split)
    if not data.exists():
        splits = (
            sorted(p.name for p in data.parent.parent.iterdir() if p.is_dir())
            if data.parent.parent.is_dir()
            else []
        )
        raise DatasetError(
            data,
            f"task.split={task.split!r} is not a split of the synthetic dataset (it has: {', '.join(splits)})",
        )
    return data, Path(task.scenes_dir or root / "scenes")
