"""GOAT's one program per episode: how its stop() calls map to subtasks (tango.tasks.goat_program's rule), on a
scripted run along a line where each subtask's goal is a point on the x axis."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from tango.formats.goat import GoatEpisode, GoatGoal, GoatSubtask
from tango.formats.nav_episodes import AgentState, ViewPoint
from tango.harness.episode import EpisodeSpec
from tango.programs.generators.record import Attempt, GenerationRecord
from tango.programs.interpreter import RunResult, StopReason
from tango.programs.parser import parse
from tango.tasks.flow import NavTaskConfig
from tango.tasks.goat import GoatFlow, GoatTaskConfig
from tango.tasks.goat_program import (
    SubtaskScores,
    episode_inputs,
    goal_phrases,
    joined_instruction,
    run_episode_program,
)
from tango.tasks.measures import navigation_metrics
from tango.types.goals import GoalImage

MAX_STEPS = 10
"""The episode's step budget, shared by its subtasks."""
RADIUS = 1.0
RULES = GoatTaskConfig(success_distance=RADIUS, lenient_success_distance=None, max_steps=MAX_STEPS)


def subtask(x: float, goal_type: str = "object", category: str = "chair") -> GoatSubtask:
    view = ViewPoint(AgentState((x, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)), 1.0)
    goal = GoatGoal(1, category, (x, 0.0, 0.0), (view,), lang_desc="the chair by the door")
    return GoatSubtask(category, goal_type, None if goal_type == "object" else 1, None, (goal,))


class ScriptedRun:
    """An EpisodeRun on a line: a script of ('walk', metres) one step each, ('stop',), ('error',) events."""

    def __init__(self, script: Sequence[tuple[Any, ...]]) -> None:
        self.script = list(script)
        self.x = 0.0
        self.walked = 0.0
        self.steps = 0
        self.stops: list[tuple[float, float]] = []
        self.events: list[str] = []
        self.instructions: list[str] = []
        self.begun: list[dict[str, Any]] = []
        self.listener: Callable[[], None] | None = None
        self.replans: list[bool] = []
        self.saved: list[str] = []

    def save_picture(self, image: GoalImage, name: str) -> str:
        self.saved.append(name)
        return f"goals/{name}.png"

    @property
    def path_length(self) -> float:
        return self.walked

    def begin_subtask(self, inputs: dict[str, Any], first: bool) -> None:
        self.stops = []  # the step count is the episode's: it carries on
        self.begun.append(inputs)

    def position(self) -> np.ndarray:
        return np.array([self.x, 0.0, 0.0])

    def geodesic_distance(self, start: Any, goals: Sequence[Any]) -> float:
        return min(abs(float(start[0]) - float(g[0])) for g in goals)

    def trace(self, event: str, **fields: Any) -> None:
        self.events.append(event)

    def program(self, instruction: str) -> GenerationRecord:
        self.instructions.append(instruction)
        record = GenerationRecord("goat", instruction, "template", "template", "template", "stop()\n")
        record.parsed = parse("stop()\n")
        record.prompt_tokens, record.completion_tokens = 7, 3
        record.attempts.append(Attempt("stop()", None, 7, 3))
        return record

    def start(self, scene_id: str, position: Any, rotation: Any) -> None:
        self.x = float(position[0])

    def finish(self, goals: Sequence[Any]) -> None:
        self.events.append("finish")

    def execute(self, record: GenerationRecord, stop_when_done: bool, replan: bool = True) -> RunResult:
        self.replans.append(replan)
        for event in self.script:
            if event[0] == "walk":
                if self.steps + 1 > MAX_STEPS:
                    return RunResult(
                        None, StopReason.STEP_BUDGET, self.steps, 0, "line 1: step budget used up"
                    )
                self.steps += 1
                self.x += event[1]
                self.walked += abs(event[1])
            elif event[0] == "stop":
                self.stop()
            else:
                return RunResult(None, StopReason.RUNTIME_ERROR, self.steps, 0, "line 2: boom")
        return RunResult(None, StopReason.COMPLETED, self.steps, 0)

    def stop(self) -> None:
        self.stops.append((self.x, self.walked))
        if self.listener is not None:
            self.listener()

    def listen_stops(self, listener: Callable[[], None] | None) -> None:
        self.listener = listener

    def score_stop(
        self, goals: Sequence[Any], start_distance: float, path_offset: float, rules: NavTaskConfig
    ) -> dict[str, float]:
        x, walked = self.stops[0] if self.stops else (self.x, self.walked)
        distance = self.geodesic_distance((x, 0.0, 0.0), goals)
        metrics = navigation_metrics(
            distance, start_distance, start_distance, walked - path_offset, rules.success_distance,
            bool(self.stops), rules.lenient_success_distance,
        )  # fmt: skip
        return {**metrics, "path_length": walked - path_offset, "called_stop": float(bool(self.stops))}


def play(script: Sequence[tuple[Any, ...]], tasks: Sequence[GoatSubtask]) -> tuple[ScriptedRun, list[dict]]:
    run = ScriptedRun(script)
    scores = SubtaskScores(tasks, goal_phrases(tasks, True), run, RULES)
    run_episode_program(scores, "Find the chair.", {})
    assert run.replans == [False], "an episode program runs once, never replanned"
    return run, scores.rows


def test_rows_show_the_goal_a_reader_sees_description_text_and_saved_picture() -> None:
    tasks = [subtask(1.0, "description"), subtask(2.0, "image", "bed"), subtask(3.0)]
    run = ScriptedRun([("stop",), ("stop",), ("stop",)])
    scores = SubtaskScores(tasks, goal_phrases(tasks, True), run, RULES)
    scores.pictures[1] = GoalImage(np.zeros((2, 2, 3), np.uint8))
    run_episode_program(scores, "Find them.", {})
    assert [r["goal"] for r in scores.rows] == ["the chair by the door", "bed", "chair"]
    assert [r.get("goal_image_path") for r in scores.rows] == [None, "goals/goal1.png", None]
    assert run.saved == ["goal1"]


def walk(metres: float, steps: int) -> list[tuple[Any, ...]]:
    return [("walk", metres / steps)] * steps


def test_the_kth_stop_ends_the_kth_subtask_and_each_is_scored_at_its_own_stop() -> None:
    tasks = [subtask(2.0), subtask(5.0), subtask(9.0)]
    script = [*walk(2.0, 4), ("stop",), *walk(3.0, 3), ("stop",), *walk(1.0, 2), ("stop",)]
    run, rows = play(script, tasks)
    assert [r["success"] for r in rows] == [1.0, 1.0, 0.0]
    assert [r["num_steps"] for r in rows] == [4, 3, 2]
    assert [r["path_length"] for r in rows] == pytest.approx([2.0, 3.0, 1.0])
    assert rows[0]["spl"] == pytest.approx(1.0) and rows[1]["spl"] == pytest.approx(1.0)
    assert rows[2]["distance_to_goal"] == pytest.approx(3.0) and rows[2]["called_stop"] == 1.0
    assert [r["attempted"] for r in rows] == [1.0, 1.0, 1.0]
    assert len(run.begun) == 3 and run.events.count("subtask") == 3


def test_a_clean_end_stops_the_active_subtask_and_later_ones_were_never_attempted() -> None:
    tasks = [subtask(2.0), subtask(4.0), subtask(6.0)]
    _, rows = play([*walk(2.0, 2), ("stop",), *walk(2.0, 2)], tasks)
    assert [r["success"] for r in rows] == [1.0, 1.0, 0.0]
    assert rows[1]["called_stop"] == 1.0
    assert rows[2] == {
        "goal_type": "object", "category": "chair", "goal": "chair", "success": 0.0, "spl": 0.0, "soft_spl": 0.0, "distance_to_goal": 2.0,
        "path_length": 0.0, "called_stop": 0.0, "num_steps": 0, "attempted": 0.0,
    }  # fmt: skip


def test_a_used_up_episode_budget_fails_the_active_subtask_unstopped_and_ends_the_program() -> None:
    tasks = [subtask(1.0), subtask(30.0), subtask(1.0)]
    _, rows = play([*walk(1.0, 1), ("stop",), *walk(30.0, 30), ("stop",), ("stop",)], tasks)
    assert rows[0]["success"] == 1.0 and rows[0]["num_steps"] == 1
    assert rows[1]["called_stop"] == 0.0 and rows[1]["success"] == 0.0
    # one budget for the episode: subtask 0 spent 1 of its steps, subtask 1 the remaining 9
    assert rows[1]["num_steps"] == MAX_STEPS - 1
    assert rows[2]["attempted"] == 0.0 and rows[2]["success"] == 0.0


def test_subtask_programs_share_the_episode_budget_and_later_subtasks_are_not_attempted() -> None:
    tasks = (subtask(0.5), subtask(2.0), subtask(3.0))
    episode = GoatEpisode("8", "apt.glb", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), tasks)
    flow = GoatFlow(GoatTaskConfig(program="subtask", success_distance=RADIUS, max_steps=MAX_STEPS))
    run = ScriptedRun([*walk(0.5, 6), ("stop",)])  # each subtask program walks 6 steps, then stops
    result = flow.run(flow.spec(episode), run)  # type: ignore[arg-type]
    rows = result.subtasks
    assert [r["num_steps"] for r in rows] == [6, 4, 0]
    assert rows[0]["success"] == 1.0
    assert rows[1]["called_stop"] == 0.0 and rows[1]["attempted"] == 1.0  # the budget ran out on its way
    assert rows[2]["attempted"] == 0.0 and rows[2]["success"] == 0.0
    assert len(run.instructions) == 2, "no program is written for a subtask the budget cannot reach"
    assert result.num_steps == MAX_STEPS


def test_goat_budget_is_goat_benchs_5000_steps_per_episode() -> None:
    assert GoatTaskConfig().max_steps == 5000


def test_after_an_error_the_active_subtask_is_scored_where_the_agent_is_without_a_stop() -> None:
    _, rows = play([*walk(1.0, 1), ("error",)], [subtask(1.0), subtask(3.0)])
    assert rows[0]["called_stop"] == 0.0 and rows[0]["success"] == 0.0
    assert rows[1]["attempted"] == 0.0


def test_stops_after_the_last_subtask_change_nothing() -> None:
    run, rows = play([("stop",), *walk(5.0, 5), ("stop",)], [subtask(0.5)])
    assert len(rows) == 1 and rows[0]["success"] == 1.0 and rows[0]["num_steps"] == 0
    assert "stop_after_last_subtask" in run.events


def test_the_instruction_numbers_image_and_description_inputs_per_kind_in_goal_order() -> None:
    tasks = [
        subtask(1.0, "image", "bed"),
        subtask(2.0),
        subtask(3.0, "description"),
        subtask(4.0, "image", "bed"),
    ]
    instruction = joined_instruction(goal_phrases(tasks, indexed=True))
    assert instruction == (
        "Find the object shown in goal_images[0], then find the chair, then find the object described in "
        "goal_descriptions[0], then find the object shown in goal_images[1]."
    )
    pictures = [GoalImage(np.zeros((2, 2, 3), np.uint8)), GoalImage(np.ones((2, 2, 3), np.uint8))]
    inputs = episode_inputs(tasks, pictures)
    assert [int(i.pixels.max()) for i in inputs["goal_images"]] == [0, 1]
    assert inputs["goal_descriptions"] == ["the chair by the door"]
    assert goal_phrases(tasks, indexed=False)[0] == "Find the object shown in goal_image."


@pytest.mark.parametrize(("mode", "programs"), [("episode", 1), ("subtask", 3)])
def test_the_episode_record_sums_llm_calls_and_tokens_of_every_program(mode: str, programs: int) -> None:
    tasks = (subtask(0.5), subtask(0.2), subtask(0.8))
    episode = GoatEpisode("7", "apt.glb", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), tasks)
    flow = GoatFlow(GoatTaskConfig(program=mode, success_distance=RADIUS))
    spec = flow.spec(episode)
    script = [("stop",)] * (3 if mode == "episode" else 1)
    result = flow.run(spec, ScriptedRun(script))  # type: ignore[arg-type]
    assert (result.llm_calls, result.prompt_tokens, result.completion_tokens) == (
        programs,
        7 * programs,
        3 * programs,
    )
    assert [row["success"] for row in result.subtasks] == [1.0, 1.0, 1.0]
    assert isinstance(spec, EpisodeSpec) and spec.instruction.count("then") == 2


def test_an_unknown_program_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="task.program must be one of"):
        GoatTaskConfig(program="whole")


class BlockRun(ScriptedRun):
    """A ScriptedRun whose programs really run: the interpreter over tests/programs/fake_world's apartment
    (objects along x), the world's position and stops mirrored into the run's."""

    def __init__(self, program: str) -> None:
        super().__init__([])
        from tests.programs.fake_world import apartment

        self.source = program
        self.world = apartment()
        self.runs: list[str] = []

    def program(self, instruction: str) -> GenerationRecord:
        record = GenerationRecord("goat", instruction, "local", "fake", "llm", self.source)
        record.parsed = parse(self.source)
        return record

    def execute(self, record: GenerationRecord, stop_when_done: bool, replan: bool = True) -> RunResult:
        from tango.primitives.context import AgentContext
        from tango.programs import Interpreter, Trace

        assert record.parsed is not None
        self.runs.append(record.parsed.source)
        world, run = self.world, self

        def stop() -> None:
            world.stops.append(world.position)
            run.x = world.position[0]
            run.stop()

        world.stop = stop  # type: ignore[method-assign]
        ctx = AgentContext(agent=world, budget=world.budget, trace=Trace(), inputs={})
        result = Interpreter().run(record.parsed, ctx)
        self.x = world.position[0]
        return result


def test_a_runtime_error_in_one_goal_block_ends_only_that_goal() -> None:
    """Goal 2's block fails when it runs (an index past the list); goal 2 is scored unstopped where the
    agent is and the program goes on with goal 3's block, as subtask mode goes on to the next subtask."""
    from tango.programs.generators.goal_blocks import GoalPart, joined_program

    search = "explore_scene()\nt = detect('{}')\nif is_found(t):\n    navigate_to(t)\n    stop()\n"
    broken = "b = detect('bed')\nnavigate_to(b[5])\nstop()\n"
    parts = [GoalPart("Find the chair."), GoalPart("Find the bed."), GoalPart("Find the tv.")]
    blocks = [parse(search.format("chair")), parse(broken), parse(search.format("tv"))]
    run = BlockRun(joined_program(blocks, parts, "habitat"))
    tasks = [subtask(4.0), subtask(16.0, category="bed"), subtask(10.0, category="tv")]
    scores = SubtaskScores(tasks, goal_phrases(tasks, True), run, RULES)
    _, result = run_episode_program(scores, "Find the chair, then find the bed, then find the tv.", {})
    assert len(run.runs) == 2 and run.runs[1].startswith("goal_3_done = False")
    assert "goal_block_error" in run.events and result is not None and result.ok
    assert [row["called_stop"] for row in scores.rows] == [1.0, 0.0, 1.0]
    assert [row["attempted"] for row in scores.rows] == [1.0, 1.0, 1.0]
    assert scores.rows[0]["success"] == 1.0 and scores.rows[2]["success"] == 1.0
