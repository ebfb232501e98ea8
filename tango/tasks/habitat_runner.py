"""The Habitat benchmarks as harness tasks: ObjectNav, HM3D-OVON, GOAT-Bench and OpenEQA on one agent.

Each episode: load its scene and start pose, give the agent only the benchmark's instruction (plus the goal
image or description GOAT hands over), generate a program, run it through the interpreter with the Habitat
toolbox wired to `HabitatAgent`, and score it with the task's measures. GOAT runs one program per subtask
from where the previous one ended, keeping the agent's maps and memory; SPL restarts at each subtask.
A navigation program that ends cleanly without calling `stop()` (the paper's programs just return) is
stopped where it ended; one cut off by the step budget never stopped, as in habitat-lab.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tango.agent.api import GoalImage
from tango.agent.context import AgentContext
from tango.agent.habitat_agent import AgentSettings, HabitatAgent, frame_embedder
from tango.agent.sim_session import SimSession
from tango.config_utils import dataclass_from_dict
from tango.harness.episode import EpisodeContext, EpisodeResult, EpisodeSpec
from tango.harness.topdown import render_topdown
from tango.navigation.config import AgentConfig
from tango.navigation.navigator import Navigator
from tango.perception.build import build_perception, describe_config
from tango.perception.config import perception_config
from tango.perception.oracle_scene import OracleScene
from tango.programs.budget import Budget
from tango.programs.generators.config import GeneratorConfig
from tango.programs.generators.factory import make_generator
from tango.programs.generators.record import GenerationRecord
from tango.programs.interpreter import Interpreter, RunResult, StopReason
from tango.programs.trace import Trace
from tango.sim.habitat_env import sim_config_from_dict
from tango.sim.scene import annotation_path_for, load_annotations
from tango.tasks import goat, objectnav, openeqa, ovon
from tango.tasks.episodes import NavEpisode, resolve_scene_path
from tango.tasks.fields import EpisodeError, Loaded
from tango.tasks.measures import aggregate_subtasks, navigation_metrics
from tango.tasks.openeqa_scoring import JudgeConfig, build_judge, score_answer

LOG = logging.getLogger(__name__)

DATA_FILES = {
    "objectnav": "objectnav/{split}/{split}.json.gz",
    "ovon": "ovon/{split}/{split}.json.gz",
    "goat": "goat/{split}/{split}.json.gz",
    "openeqa": "openeqa/open-eqa-v0.json",
}
READERS: dict[str, Callable[[Path], Loaded[Any]]] = {
    "objectnav": objectnav.read_episodes,
    "ovon": ovon.read_episodes,
    "goat": goat.read_episodes,
    "openeqa": openeqa.read_episodes,
}
GOAL_PHRASES = {
    "description": "Find the object described in goal_description.",
    "image": "Find the object shown in goal_image.",
}


@dataclass
class HabitatTaskConfig:
    """configs/task/{objectnav,ovon,goat,openeqa}.yaml."""

    name: str
    plugin: str = ""
    data_path: str | None = None
    scenes_dir: str | None = None
    split: str = "val"
    success_distance: float = 1.0
    max_steps: int = 500
    strict: bool = False
    agent: dict[str, Any] = field(default_factory=dict)
    judge: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.name not in DATA_FILES:
            raise ValueError(f"task.name={self.name!r} is not a Habitat task ({', '.join(DATA_FILES)})")


def task_config(cfg: dict[str, Any]) -> HabitatTaskConfig:
    return dataclass_from_dict(HabitatTaskConfig, cfg["task"], "task")


def dataset_paths(task: HabitatTaskConfig) -> tuple[Path, Path]:
    """(episode file, scenes folder): the configured ones, else the synthetic default dataset (made on first use)."""
    if task.data_path:
        data = Path(task.data_path)
        if task.scenes_dir:
            return data, Path(task.scenes_dir)
        root = next((p for p in data.parents if (p / "dataset.json").is_file()), None)
        if root is None:
            raise ValueError(
                f"task.data_path={data} is not inside a tango dataset folder (no dataset.json above it): "
                "set task.scenes_dir to the folder its scene_id paths are relative to"
            )
        return data, root / "scenes"
    from tango.scenes.datasets.default import ensure_default_dataset

    root = ensure_default_dataset()
    return root / DATA_FILES[task.name].format(split=task.split), Path(task.scenes_dir or root / "scenes")


def object_instruction(category: str, article: str = "a") -> str:
    return f"Find {article} {category}."


def subtask_instruction(subtask: goat.GoatSubtask) -> str:
    """What GOAT hands the agent for one subtask: the category name, or a pointer to the bound goal input."""
    return GOAL_PHRASES.get(subtask.goal_type, object_instruction(subtask.category, "the"))


def episode_spec(task: str, episode: Any) -> EpisodeSpec:
    """The harness view of one loaded episode (instruction only from what the benchmark gives the agent)."""
    if task == "openeqa":
        return EpisodeSpec(episode.question_id, episode.start.scene_id, episode.question, episode)
    if task == "goat":
        phrases = [subtask_instruction(s) for s in episode.tasks]
        instruction = phrases[0].rstrip(".")
        instruction += "".join(f", then {p[0].lower()}{p[1:].rstrip('.')}" for p in phrases[1:]) + "."
        types = tuple(s.goal_type for s in episode.tasks)
        return EpisodeSpec(str(episode.episode_id), episode.scene_id, instruction, episode, types)
    return EpisodeSpec(
        str(episode.episode_id), episode.scene_id, object_instruction(episode.object_category), episode
    )


@dataclass(frozen=True)
class MalformedEpisode:
    """The payload of an episode the loader could not read (task.strict=false): running it fails with the
    loader's message, which names the file, the episode and the field."""

    task: str
    problem: EpisodeError


def malformed_spec(task: str, problem: EpisodeError) -> EpisodeSpec:
    """A harness episode that fails at once with the loader's problem (the run records it and goes on)."""
    episode_id = problem.record_field("question_id" if task == "openeqa" else "episode_id")
    raw_tasks = problem.record.get("tasks") if isinstance(problem.record, dict) else None
    types = tuple(
        t[1] for t in raw_tasks or () if isinstance(t, list) and len(t) > 1 and t[1] in goat.GOAL_TYPES
    )
    return EpisodeSpec(
        episode_id if episode_id is not None else f"{Path(problem.path).name}#{problem.index}",
        problem.record_field("scene_id") or "",
        "",
        MalformedEpisode(task, problem),
        types if task == "goat" else (),
    )


def unique_ids(specs: list[EpisodeSpec]) -> list[EpisodeSpec]:
    """Prefix ids with the scene when the file reuses ids across scenes (HM3D restarts them per scene)."""
    counts = Counter(spec.episode_id for spec in specs)
    if all(n == 1 for n in counts.values()):
        return specs
    return [
        EpisodeSpec(
            f"{Path(s.scene_id).name}:{s.episode_id}",
            s.scene_id,
            s.instruction,
            s.payload,
            s.subtask_goal_types,
        )
        for s in specs
    ]


class HabitatTask:
    """TaskPlugin for the four Habitat benchmarks (the task name in the config picks loader and scoring)."""

    def list_episodes(self, cfg: dict[str, Any]) -> list[EpisodeSpec]:
        task = task_config(cfg)
        self._judged = bool(task.judge.get("enabled", False))
        data, _ = dataset_paths(task)
        loaded = READERS[task.name](data)
        episodes = loaded.strict() if task.strict else loaded.episodes
        if task.name == "openeqa":
            missing = [e.question_id for e in episodes if e.start is None]
            if missing:
                raise ValueError(
                    f"{data}: questions without a start pose (episode_starts.json): {missing[:5]}"
                )
        specs = [episode_spec(task.name, e) for e in episodes]
        return unique_ids(specs + [malformed_spec(task.name, p) for p in loaded.problems])

    def make_runner(self, cfg: dict[str, Any]) -> HabitatRunner:
        return HabitatRunner(cfg)

    def __init__(self) -> None:
        self._judged = False

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        payload = spec.payload
        if isinstance(payload, openeqa.EQAQuestion) or (
            isinstance(payload, MalformedEpisode) and payload.task == "openeqa"
        ):
            return {"normalised_match": 0.0, **({"llm_match": 0.0} if self._judged else {})}
        return {"success": 0.0, "spl": 0.0, "soft_spl": 0.0}


@dataclass
class _Stop:
    """Where the agent was when it declared a goal reached."""

    position: np.ndarray
    path_length: float


class HabitatRunner:
    """One simulator, generator and interpreter per worker; maps, memory and perception state per episode."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.task = task_config(cfg)
        self.sim_config = sim_config_from_dict(dict(cfg["sim"]))
        self.agent_config = dataclass_from_dict(AgentConfig, _without(cfg.get("agent", {}), "name"), "agent")
        self.agent_config.navigation.success_distance = self.task.success_distance
        self.settings = dataclass_from_dict(AgentSettings, self.task.agent, "task.agent")
        self.perception_config = perception_config(cfg["perception"])
        self.generator_config = GeneratorConfig.from_mapping(cfg["generator"])
        self.generator = make_generator(self.generator_config)
        self.interpreter = Interpreter("habitat")
        self.judge = (
            build_judge(JudgeConfig.from_dict(self.task.judge)) if self.task.name == "openeqa" else None
        )
        self.session = SimSession(self.sim_config)
        self._scenes_dir = dataset_paths(self.task)[1]
        self._oracle_scenes: dict[Path, OracleScene | None] = {}

    def describe(self) -> dict[str, Any]:
        generator = asdict(self.generator_config)
        generator.pop("api_key", None)
        return {
            "perception": describe_config(self.perception_config),
            "generator": generator,
            "controller": {
                "name": self.agent_config.navigation.controller,
                **asdict(self.agent_config.navigation),
                "exploration": {
                    **asdict(self.agent_config.explore),
                    "explored_method": self.agent_config.map.explored_method,
                },
            },
            "sim": asdict(self.sim_config),
            "success_distance": self.task.success_distance,
        }

    def close(self) -> None:
        self.session.close()

    def run(self, spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
        episode = spec.payload
        if isinstance(episode, MalformedEpisode):
            raise episode.problem
        trace = Trace(ctx.trace_path)
        try:
            if self.task.name == "goat":
                return self._run_goat(episode, spec, ctx, trace)
            if self.task.name == "openeqa":
                return self._run_question(episode, ctx, trace)
            return self._run_object_goal(episode, spec, ctx, trace)
        finally:
            trace.close()

    # --- episodes ----------------------------------------------------------------------------------------------

    def _start(
        self,
        scene_id: str,
        position: Any,
        rotation: Any,
        ctx: EpisodeContext,
        budget: Budget,
        stops: list[_Stop],
    ) -> tuple[HabitatAgent, AgentContext]:
        scene_path = resolve_scene_path(scene_id, self._scenes_dir)
        first = self.session.start(scene_path, position, rotation)
        perception = build_perception(self.perception_config, self._oracle_scene(scene_path))
        embedder = frame_embedder(perception)
        dim = int(embedder.texts(["object"]).shape[-1]) if embedder is not None else 0
        navigator = Navigator(self.agent_config, embedding_dim=dim)
        agent_ctx = AgentContext(agent=None, budget=budget)

        def record_stop() -> None:
            stops.append(_Stop(self.session.position(), self.session.path_length))

        agent = HabitatAgent(
            self.session, first, navigator, perception, budget, ctx.frames, self.settings,
            on_stop=record_stop, current_line=lambda: agent_ctx.line_source,
        )  # fmt: skip
        agent_ctx.agent = agent
        return agent, agent_ctx

    def _oracle_scene(self, scene_path: Path) -> OracleScene | None:
        """The scene annotation, loaded only when a perception component is an oracle (else None)."""
        if not describe_config(self.perception_config)["oracle_components"]:
            return None
        if scene_path not in self._oracle_scenes:
            annotations = annotation_path_for(scene_path)
            scene = (
                OracleScene.from_annotations(load_annotations(annotations)) if annotations.exists() else None
            )
            self._oracle_scenes[scene_path] = scene
        return self._oracle_scenes[scene_path]

    def _program(self, instruction: str, trace: Trace) -> GenerationRecord:
        record = self.generator.generate(self.task.name, instruction)
        trace.emit("generation", instruction=instruction, program=record.program, errors=record.errors)
        return record

    def _execute(self, record: GenerationRecord, agent_ctx: AgentContext, trace: Trace) -> RunResult | None:
        """Run a generated program; None when generation failed (the record says why)."""
        if record.parsed is None:
            return None
        agent_ctx.trace = trace
        stops_before = agent_ctx.agent.stops
        run = self.interpreter.run(record.parsed, agent_ctx)
        if run.ok and agent_ctx.agent.stops == stops_before and self.task.name != "openeqa":
            agent_ctx.agent.stop()
        return run

    def _run_object_goal(
        self, episode: NavEpisode, spec: EpisodeSpec, ctx: EpisodeContext, trace: Trace
    ) -> EpisodeResult:
        budget = Budget(max_steps=self.task.max_steps)
        stops: list[_Stop] = []
        agent, agent_ctx = self._start(
            episode.scene_id, episode.start_position, episode.start_rotation, ctx, budget, stops
        )
        goals = [vp.agent_state.position for goal in episode.goals for vp in goal.view_points]
        start_distance = self.session.geodesic_distance(episode.start_position, goals)
        record = self._program(spec.instruction, trace)
        run = self._execute(record, agent_ctx, trace)
        metrics = self._score_stop(stops, goals, start_distance, 0.0)
        _final_frame(agent, [goal.position for goal in episode.goals], ctx)
        return _result(spec.instruction, record, [run], metrics, budget.steps)

    def _score_stop(
        self, stops: list[_Stop], goals: list[Any], start_distance: float, path_offset: float
    ) -> dict[str, float]:
        """Success/SPL at the first stop of a (sub)task, or at the current pose when the agent never stopped."""
        if stops:
            position, walked = stops[0].position, stops[0].path_length - path_offset
        else:
            position, walked = self.session.position(), self.session.path_length - path_offset
        distance = self.session.geodesic_distance(position, goals)
        metrics = navigation_metrics(
            distance, start_distance, start_distance, walked, self.task.success_distance, bool(stops)
        )
        metrics["path_length"] = walked
        metrics["called_stop"] = float(bool(stops))
        return metrics

    def _run_goat(
        self, episode: goat.GoatEpisode, spec: EpisodeSpec, ctx: EpisodeContext, trace: Trace
    ) -> EpisodeResult:
        budget = Budget(max_steps=self.task.max_steps)
        stops: list[_Stop] = []
        agent, agent_ctx = self._start(
            episode.scene_id, episode.start_position, episode.start_rotation, ctx, budget, stops
        )
        subtasks: list[dict[str, Any]] = []
        records: list[GenerationRecord] = []
        runs: list[RunResult | None] = []
        total_steps = 0
        for index, subtask in enumerate(episode.tasks):
            budget = Budget(max_steps=self.task.max_steps)
            agent.budget = agent_ctx.budget = budget
            stops.clear()
            goals = [vp.agent_state.position for goal in subtask.goals for vp in goal.view_points]
            start = self.session.position()
            start_distance = self.session.geodesic_distance(start, goals)
            walked_before = self.session.path_length
            agent_ctx.inputs = self._goal_inputs(subtask)
            if index > 0:
                agent.new_goal()
            instruction = subtask_instruction(subtask)
            trace.emit("subtask", index=index, goal_type=subtask.goal_type, instruction=instruction)
            record = self._program(instruction, trace)
            run = self._execute(record, agent_ctx, trace)
            metrics = self._score_stop(stops, goals, start_distance, walked_before)
            subtasks.append({"goal_type": subtask.goal_type, **metrics, "num_steps": budget.steps})
            records.append(record)
            runs.append(run)
            total_steps += budget.steps
        _final_frame(agent, [goal.position for subtask in episode.tasks for goal in subtask.goals], ctx)
        pooled = aggregate_subtasks(subtasks)["metrics"]
        metrics = {
            key: pooled[key] for key in ("success", "spl", "soft_spl", "distance_to_goal") if key in pooled
        }
        result = _result(spec.instruction, records[0], runs, metrics, total_steps)
        result.program = "\n".join(
            f"# subtask {i} ({s.goal_type}): {subtask_instruction(s)}\n{r.program or ''}"
            for i, (s, r) in enumerate(zip(episode.tasks, records))
        )
        result.generation = {"subtasks": [r.to_dict() for r in records]}
        result.subtasks = subtasks
        failures = [r.failure_reason for r in records if r.failure_reason]
        result.failure_reason = failures[0] if failures else _run_failure(runs)
        return result

    def _goal_inputs(self, subtask: goat.GoatSubtask) -> dict[str, Any]:
        """`goal_image` / `goal_description` as GOAT gives them: a render from the stored pose, the lang_desc."""
        inputs: dict[str, Any] = {"goal_image": None, "goal_description": None}
        goal = next(
            (g for g in subtask.goals if str(g.object_id) == str(subtask.object_id)), subtask.goals[0]
        )
        if subtask.goal_type == "description":
            inputs["goal_description"] = goal.lang_desc or ""
        elif subtask.goal_type == "image":
            params = goal.image_goals[subtask.image_idx or 0]
            floor = np.asarray(params.position, dtype=np.float64)
            floor[1] -= self.sim_config.camera_height
            rgb, semantic = self.session.render_at(floor, params.rotation)
            inputs["goal_image"] = GoalImage(rgb, self.sim_config.hfov, semantic)
        return inputs

    def _run_question(
        self, question: openeqa.EQAQuestion, ctx: EpisodeContext, trace: Trace
    ) -> EpisodeResult:
        assert question.start is not None
        budget = Budget(max_steps=self.task.max_steps)
        agent, agent_ctx = self._start(
            question.start.scene_id,
            question.start.start_position,
            question.start.start_rotation,
            ctx,
            budget,
            [],
        )
        record = self._program(question.question, trace)
        run = self._execute(record, agent_ctx, trace)
        prediction = "" if run is None or run.value is None else str(run.value)
        _final_frame(agent, [], ctx)
        metrics, extra = score_answer(
            question.question, question.answer, prediction, list(question.extra_answers or []), self.judge
        )
        result = _result(question.question, record, [run], metrics, budget.steps)
        result.extra = {"category": question.category, "reference": question.answer, **extra}
        return result


def _final_frame(agent: HabitatAgent, goals: list[Any], ctx: EpisodeContext) -> None:
    """The closing top-down map (the report's thumbnail), with the episode's goals drawn for the reader."""
    obs = agent.obs
    ctx.frames.add(obs.rgb, obs.depth, render_topdown(agent.topdown_layers(goals)), "episode end")


def _run_failure(runs: list[RunResult | None]) -> str | None:
    """The first program error (budget ends are normal outcomes, not failures)."""
    for run in runs:
        if run is not None and run.error and run.stop_reason != StopReason.STEP_BUDGET:
            return f"{run.stop_reason}: {run.error}"
    return None


def _result(
    instruction: str,
    record: GenerationRecord,
    runs: list[RunResult | None],
    metrics: dict[str, float],
    steps: int,
) -> EpisodeResult:
    return EpisodeResult(
        program=record.program or "",
        program_source=record.program_source,
        metrics=metrics,
        num_steps=steps,
        failure_reason=record.failure_reason or _run_failure(runs),
        instruction=instruction,
        generation=record.to_dict(),
        prompt_tokens=record.prompt_tokens,
        completion_tokens=record.completion_tokens,
        llm_calls=len(record.attempts),
    )


def _without(values: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in dict(values).items() if k not in keys}
