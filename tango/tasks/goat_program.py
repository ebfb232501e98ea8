"""GOAT-Bench's programs: one per episode (`task.program=episode`, the paper's way) or one per subtask.

In `episode` mode the generator reads the whole multi-goal instruction, its goal inputs named by index
(`goal_images[i]`, `goal_descriptions[j]`, numbered per kind in the order the goals come), and writes one
program whose subgoals run in order. Its stop() calls map to subtasks by one rule:

- subtask 0 is active when the program starts; the k-th stop() ends subtask k, which is scored at that stop
  exactly as in `subtask` mode (success within the radius of the stop, SPL over the path walked since the
  subtask began); subtask k+1 begins there at once;
- the step budget is the episode's, `task.max_steps` (5000, GOAT-Bench's `environment.max_episode_steps`),
  shared by its subtasks in both modes: when it runs out, the active subtask ends unstopped where the agent
  is (a failure) and so does the program, and every later subtask scores 0 with `attempted` 0;
- a program that ends cleanly (returns or runs out of statements) stops the active subtask where it ended, as
  the paper's programs simply return; after an error the active subtask is scored unstopped;
- a program joined from one block per goal (plan-then-fill, tango.programs.generators.goal_blocks) goes on
  after a runtime error in goal k's block (an error of the program, not a used-up budget): goal k is scored
  unstopped where the agent is and the program runs on from goal k+1's block, as one-program-per-subtask
  runs go on to the next subtask; a program not made of such blocks ends at its error;
- subtasks the program never reached score 0 (success, SPL, soft SPL) with `attempted` 0; stop() calls after
  the last subtask change nothing.

Replanning is off in `episode` mode: a revised program would restart the list of subgoals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tango.formats.goat import GoatSubtask
from tango.programs.generators.goal_blocks import goal_at_line, program_from_goal
from tango.programs.generators.record import GenerationRecord
from tango.programs.interpreter import RunResult, StopReason
from tango.tasks.flow import EpisodeRun, NavTaskConfig, goal_points
from tango.tasks.objectnav import object_instruction
from tango.types.goals import GoalImage

PROGRAM_MODES = ("episode", "subtask")
GOAL_PHRASES = {
    "description": "Find the object described in goal_description.",
    "image": "Find the object shown in goal_image.",
}
EPISODE_INPUTS = {"image": "goal_images", "description": "goal_descriptions"}
BLOCK_ERRORS = frozenset({StopReason.RUNTIME_ERROR, StopReason.PRIMITIVE_ERROR, StopReason.LOOP_CAP})
"""Run ends that are the program's own error: a joined program goes on from the next goal's block."""


def subtask_instruction(subtask: GoatSubtask) -> str:
    """What GOAT hands the agent for one subtask: the category name, or a pointer to the bound goal input."""
    return GOAL_PHRASES.get(subtask.goal_type, object_instruction(subtask.category, "the"))


def goal_phrases(tasks: Sequence[GoatSubtask], indexed: bool) -> list[str]:
    """One phrase per subtask; `indexed` names image and description inputs by their list index."""
    counts = dict.fromkeys(EPISODE_INPUTS, 0)
    phrases = []
    for subtask in tasks:
        phrase = subtask_instruction(subtask)
        if indexed and subtask.goal_type in EPISODE_INPUTS:
            name = EPISODE_INPUTS[subtask.goal_type]
            phrase = phrase.replace(name[:-1], f"{name}[{counts[subtask.goal_type]}]")
            counts[subtask.goal_type] += 1
        phrases.append(phrase)
    return phrases


def joined_instruction(phrases: Sequence[str]) -> str:
    """'Find the chair, then find the object shown in goal_images[0], then ...' from one phrase per goal."""
    text = phrases[0].rstrip(".")
    return text + "".join(f", then {p[0].lower()}{p[1:].rstrip('.')}" for p in phrases[1:]) + "."


def episode_inputs(tasks: Sequence[GoatSubtask], pictures: list[GoalImage]) -> dict[str, Any]:
    """The goal inputs an episode program starts with: every goal picture (rendered, in goal order) and
    description, in goal order."""
    return {
        "goal_image": None,
        "goal_description": None,
        "goal_images": pictures,
        "goal_descriptions": [s.lang_desc or "" for s in tasks if s.goal_type == "description"],
    }


@dataclass
class _Active:
    """The subtask being worked on: its goals, where it started, the path walked and the episode steps taken
    before it."""

    index: int
    goals: list[Any]
    start_distance: float
    walked_before: float
    steps_before: int


def shown_goal(
    subtask: GoatSubtask, picture: GoalImage | None, run: EpisodeRun, index: int
) -> dict[str, Any]:
    """What a reader of the results sees of a subtask's goal: its category, the text the agent was given
    (the description, else the category) and the goal picture saved beside the results."""
    described = subtask.goal_type == "description" and subtask.lang_desc
    shown: dict[str, Any] = {
        "category": subtask.category,
        "goal": subtask.lang_desc if described else subtask.category,
    }
    if picture is not None:
        shown["goal_image_path"] = run.save_picture(picture, f"goal{index}")
    return shown


class SubtaskScores:
    """Begins and scores the subtasks of one episode, in order, on one `EpisodeRun`; `rows` are the per-subtask
    metrics (goal_type, success, spl, soft_spl, distance_to_goal, path_length, called_stop, num_steps,
    attempted) with the goal as a reader sees it (category, goal text, goal picture from `pictures` by index)."""

    def __init__(
        self, tasks: Sequence[GoatSubtask], phrases: Sequence[str], run: EpisodeRun, rules: NavTaskConfig
    ) -> None:
        self.tasks = list(tasks)
        self.phrases = list(phrases)
        self.run = run
        self.rules = rules
        self.rows: list[dict[str, Any]] = []
        self.active: _Active | None = None
        self.pictures: dict[int, GoalImage | None] = {}

    @property
    def done(self) -> bool:
        return len(self.rows) == len(self.tasks)

    @property
    def budget_spent(self) -> bool:
        """Whether the episode's step budget (shared by its subtasks) is used up."""
        return self.run.steps >= self.rules.max_steps

    def begin(self, inputs: dict[str, Any]) -> None:
        """Start the next subtask from where the agent is, with the given goal inputs and what is left of the
        episode's step budget."""
        index = len(self.rows)
        subtask = self.tasks[index]
        self.run.begin_subtask(inputs, first=index == 0)
        goals = goal_points(subtask.goals, self.rules.distance_to)
        start = self.run.geodesic_distance(self.run.position(), goals)
        self.active = _Active(index, goals, start, self.run.path_length, self.run.steps)
        self.run.trace("subtask", index=index, goal_type=subtask.goal_type, instruction=self.phrases[index])

    def score(self) -> None:
        """Score the active subtask at its first stop (or where the agent is when it never stopped)."""
        active = self.active
        assert active is not None and active.index == len(self.rows)
        metrics = self.run.score_stop(active.goals, active.start_distance, active.walked_before, self.rules)
        subtask = self.tasks[active.index]
        shown = shown_goal(subtask, self.pictures.get(active.index), self.run, active.index)
        self.rows.append(
            {
                "goal_type": subtask.goal_type,
                **shown,
                **metrics,
                "num_steps": self.run.steps - active.steps_before,
                "attempted": 1.0,
            }
        )
        self.active = None

    def unreached(self) -> None:
        """Score every subtask not begun yet as a failure the program never attempted."""
        here = self.run.position()
        lenient = (
            {}
            if self.rules.lenient_success_distance is None
            else {"lenient_success": 0.0, "lenient_spl": 0.0}
        )
        for index in range(len(self.rows), len(self.tasks)):
            subtask = self.tasks[index]
            goals = goal_points(subtask.goals, self.rules.distance_to)
            self.rows.append(
                {
                    "goal_type": subtask.goal_type,
                    **shown_goal(subtask, self.pictures.get(index), self.run, index),
                    "success": 0.0,
                    "spl": 0.0,
                    "soft_spl": 0.0,
                    "distance_to_goal": self.run.geodesic_distance(here, goals),
                    **lenient,
                    "path_length": 0.0,
                    "called_stop": 0.0,
                    "num_steps": 0,
                    "attempted": 0.0,
                }
            )


def run_episode_program(
    scores: SubtaskScores, instruction: str, inputs: dict[str, Any]
) -> tuple[Any, RunResult | None]:
    """Generate and run one program for the whole episode, scoring subtasks by the rule of this module's
    docstring; returns the generation record and the run (None when generation failed)."""
    run = scores.run
    scores.begin(inputs)

    def stopped() -> None:
        if scores.done:
            run.trace("stop_after_last_subtask")
            return
        scores.score()
        if not scores.done:
            scores.begin(inputs)

    record = run.program(instruction)
    run.listen_stops(stopped)
    try:
        result = run.execute(record, stop_when_done=False, replan=False)
        running = record
        while result is not None and (after := _after_block_error(scores, running, result)) is not None:
            run.trace("goal_block_error", error=result.error, goals_done=len(scores.rows))
            running, unstopped = after
            if unstopped:  # the failed goal ends where the agent is; the next begins there
                scores.score()
                scores.begin(inputs)
            result = run.execute(running, stop_when_done=False, replan=False)
    finally:
        run.listen_stops(None)
    if scores.active is not None:
        if result is not None and result.ok:
            run.stop()
        scores.score()
    scores.unreached()
    return record, result


def _after_block_error(
    scores: SubtaskScores, running: GenerationRecord, result: RunResult
) -> tuple[GenerationRecord, bool] | None:
    """After a runtime error inside goal k's block of a joined program: the record of the program from goal
    k+1's block on, and whether goal k is still the active subtask (to be scored unstopped first); None when
    the program ends here (no error, a used-up budget, not a joined program, the last goal, or the stops
    and the blocks out of step)."""
    if result.stop_reason not in BLOCK_ERRORS or running.parsed is None or result.error_line is None:
        return None
    failed = goal_at_line(running.parsed, result.error_line)
    if failed is None or failed >= len(scores.tasks) or scores.active is None:
        return None
    active = scores.active.index + 1  # subtask numbers as the blocks number their goals
    if active not in (failed, failed + 1):
        return None
    rest = program_from_goal(running.parsed, failed + 1)
    if rest is None:
        return None
    return replace(running, program=rest.source, parsed=rest), active == failed
