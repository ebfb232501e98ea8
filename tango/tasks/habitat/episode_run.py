"""`SimEpisode`: what the shared runner does for a flow in one episode (the `EpisodeRun` of tango.tasks.flow).

It builds the agent (perception with the episode's ground truth only for oracle components, maps, budget),
generates and runs programs, records where the agent stopped and scores stops with the benchmark's radius.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from PIL import Image

from tango.agent.config import AgentConfig
from tango.agent.habitat_agent import HabitatAgent
from tango.agent.sim_session import SimSession
from tango.agent.topdown import render_topdown
from tango.formats.nav_episodes import resolve_scene_path
from tango.harness.episode import EpisodeContext
from tango.navigation.navigator import Navigator
from tango.perception.build import PerceptionBundle
from tango.perception.config import PerceptionConfig
from tango.perception.oracle.ground_truth import GroundTruth
from tango.perception.oracle.scene import OracleScene
from tango.primitives.context import AgentContext
from tango.primitives.rooms import LAST_ANSWER
from tango.programs.generators import replan
from tango.programs.generators.base import ProgramGenerator
from tango.programs.generators.record import GenerationRecord
from tango.programs.interpreter import Interpreter, RunResult
from tango.programs.parser import Program
from tango.sim.config import EmbeddedSimConfig
from tango.sim.views import view_pose
from tango.tasks.flow import HabitatTaskConfig, NavTaskConfig, Point
from tango.tasks.measures import navigation_metrics
from tango.trace.budget import Budget, call_budget_for
from tango.trace.values import pose_entry
from tango.trace.writer import Trace
from tango.types.goals import GoalImage

GOALS_DIR = "goals"


class Runner(Protocol):
    """What an episode uses of the worker's runner (tango.tasks.habitat.runner.HabitatRunner)."""

    task: HabitatTaskConfig
    session: SimSession
    generator: ProgramGenerator
    interpreter: Interpreter
    perception_config: PerceptionConfig
    agent_config: AgentConfig
    sim_config: EmbeddedSimConfig
    scenes_dir: Path
    rgb_on_demand: bool

    def scene_truth(self, scene_path: Path) -> OracleScene | None: ...


@dataclass
class _Stop:
    """Where the agent was when it declared a goal reached."""

    position: np.ndarray
    path_length: float


class SimEpisode:
    """One episode on the runner's simulator; `start` must come first."""

    def __init__(self, runner: Runner, ctx: EpisodeContext, trace: Trace) -> None:
        self.runner = runner
        self.session = runner.session
        self.ctx = ctx
        self.trace_file = trace
        self.stops: list[_Stop] = []
        self._agent: HabitatAgent | None = None
        self._context: AgentContext | None = None
        self._stop_listener: Callable[[], None] | None = None

    @property
    def agent(self) -> HabitatAgent:
        if self._agent is None:
            raise RuntimeError("SimEpisode.start(...) must come first")
        return self._agent

    @property
    def agent_context(self) -> AgentContext:
        if self._context is None:
            raise RuntimeError("SimEpisode.start(...) must come first")
        return self._context

    @property
    def steps(self) -> int:
        return self.agent_context.budget.steps

    @property
    def path_length(self) -> float:
        return self.session.path_length

    def start(self, scene_id: str, position: Point, rotation: Point) -> None:
        runner = self.runner
        scene_path = resolve_scene_path(scene_id, runner.scenes_dir)
        self.session.defer_rgb = runner.rgb_on_demand and not self.ctx.frames.enabled
        first = self.session.start(scene_path, position, rotation)
        scene = runner.scene_truth(scene_path)
        truth = None if scene is None else GroundTruth(scene, runner.perception_config.detector.min_pixels)
        perception = PerceptionBundle(runner.perception_config, truth)
        max_steps = runner.task.max_steps
        budget = Budget(max_steps=max_steps, max_primitive_calls=call_budget_for(max_steps))
        context = AgentContext(agent=None, budget=budget, trace=self.trace_file)

        def record_stop() -> None:
            self.stops.append(_Stop(self.session.position(), self.session.path_length))
            if self._stop_listener is not None:
                self._stop_listener()

        agent = HabitatAgent(
            self.session, first, Navigator(runner.agent_config), perception, budget, self.ctx.frames,
            runner.agent_config.primitives, on_stop=record_stop, current_line=lambda: context.line_source,
            trace=self.trace_file,
        )  # fmt: skip
        context.agent = agent
        self._agent, self._context = agent, context
        self.trace_file.emit(
            "start", scene=scene_id, poses=[pose_entry(first.agent_position, first.agent_yaw)]
        )

    def begin_subtask(self, inputs: dict[str, Any], first: bool) -> None:
        self.agent_context.inputs = inputs
        self.stops.clear()
        if not first:
            self.agent.new_goal()

    def render_goal(
        self, camera_position: Point, rotation: Point, size: tuple[int, int], hfov: float
    ) -> GoalImage:
        view = self.session.render_view(camera_position, rotation, size, hfov)
        if view is not None:
            rgb, semantic = view
        else:
            floor = np.asarray(camera_position, dtype=np.float64)
            floor[1] -= self.runner.sim_config.camera_height
            rgb, semantic = self.session.render_at(floor, rotation)
            hfov = self.runner.sim_config.hfov
        # the pose says where the goal is: only oracle components, which get the semantic frame, get it too
        pose = None if semantic is None else view_pose(camera_position, rotation)
        return GoalImage(rgb, hfov, semantic, pose)

    def save_picture(self, image: GoalImage, name: str) -> str | None:
        folder = self.ctx.run_dir / GOALS_DIR
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.ctx.trace_path.stem}_{name}.png"
        Image.fromarray(np.ascontiguousarray(image.pixels[..., :3])).save(path)
        return str(path.relative_to(self.ctx.run_dir))

    def position(self) -> np.ndarray:
        return self.session.position()

    def geodesic_distance(self, start: Point, goals: Sequence[Point]) -> float:
        return self.session.geodesic_distance(start, goals)

    def trace(self, event: str, **fields: Any) -> None:
        self.trace_file.emit(event, **fields)

    def program(self, instruction: str) -> GenerationRecord:
        record = self.runner.generator.generate(self.runner.task.name, instruction)
        self.trace("generation", instruction=instruction, program=record.program, errors=record.errors)
        return record

    def stop(self) -> None:
        self.agent.stop()

    def listen_stops(self, listener: Callable[[], None] | None) -> None:
        self._stop_listener = listener

    def execute(
        self, record: GenerationRecord, stop_when_done: bool, replan: bool = True
    ) -> RunResult | None:
        if record.parsed is None:
            return None
        agent_ctx = self.agent_context
        agent_ctx.trace = self.trace_file
        stops_before = self.agent.stops
        program = record.parsed
        replans_left = self.runner.generator.max_replans if replan else 0
        while True:
            first_event = len(self.trace_file.events)
            run = self.runner.interpreter.run(program, agent_ctx)
            if not stop_when_done and run.value is None and LAST_ANSWER in agent_ctx.shared:
                run.value = agent_ctx.shared[LAST_ANSWER]
            if replans_left <= 0:
                break
            replans_left -= 1
            stopped = self.agent.stops > stops_before
            revised = self._replan(record, program.source, run, first_event, stopped, not stop_when_done)
            if revised is None:
                break
            program = revised
        if run.ok and self.agent.stops == stops_before and stop_when_done:
            self.agent.stop()
        return run

    def _replan(
        self,
        record: GenerationRecord,
        source: str,
        run: RunResult,
        first_event: int,
        stopped: bool,
        question: bool,
    ) -> Program | None:
        """The revised program when this run failed by its own evidence and steps remain (kept in the record)."""
        budget = self.agent_context.budget
        events = self.trace_file.events[first_event:]
        failure = replan.run_failure(run, events, stopped, question)
        if failure is None or not replan.can_replan(budget.steps, budget.max_steps):
            return None
        summary = replan.trace_summary(events, [h.label for h in self.agent.perceived_objects()])
        revised = self.runner.generator.replan(self.runner.task.name, record, source, failure, summary)
        record.replans.append({"failure": failure, "summary": summary, **revised.to_dict()})
        record.prompt_tokens += revised.prompt_tokens
        record.completion_tokens += revised.completion_tokens
        self.trace("replan", failure=failure, program=revised.program, errors=revised.errors)
        return revised.parsed

    def score_stop(
        self, goals: Sequence[Point], start_distance: float, path_offset: float, rules: NavTaskConfig
    ) -> dict[str, float]:
        if self.stops:
            position, walked = self.stops[0].position, self.stops[0].path_length - path_offset
        else:
            position, walked = self.session.position(), self.session.path_length - path_offset
        distance = self.session.geodesic_distance(position, goals)
        metrics = navigation_metrics(
            distance, start_distance, start_distance, walked, rules.success_distance, bool(self.stops),
            rules.lenient_success_distance,
        )  # fmt: skip
        metrics["path_length"] = walked
        metrics["called_stop"] = float(bool(self.stops))
        return metrics

    def finish(self, goals: Sequence[Point]) -> None:
        self.trace("memory_searches", count=self.agent.memory_searches)
        obs = self.agent.obs
        layers = self.agent.topdown_layers(list(goals))
        self.ctx.frames.add(obs.rgb, obs.depth, render_topdown(layers), "episode end")
