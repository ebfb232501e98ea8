"""One task played through the app's API: the only door agents have to the city.

`UrbanEpisode` enters the task, applies its conditions the way UrbanGround's evaluators do (weather, clock,
pedestrians, a schedule's current time), then takes the agent's actions one at a time: it checks each against
the agent protocol (first-person or map actions by mode, moves of at most 2 s), counts steps, records every
position with the simulation clock, delivers a dynamic closure's notice once the app shows it, and ends the
episode on arrival, a closure crossing, completion, `terminate`, an answer or the step limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tango.trace.budget import BudgetExhausted
from tango.urban.client import UrbanClient
from tango.urban.instructions import closure_notice, schedule_now_s, task_instruction
from tango.urban.metrics import ARRIVAL_RADIUS_M, Position, closure_crossings, distance_m, first_arrival
from tango.urban.taskfile import UrbanTask

FIRST_PERSON_ACTIONS = frozenset({"move", "sprint", "look", "jump", "open_map", "terminate"})
MAP_ACTIONS = frozenset({"map_select", "map_pan", "map_zoom", "map_orbit", "close_map", "terminate"})
DIRECTIONS = frozenset({"forward", "backward", "left", "right"})
CLOSURE_DELAY_S = 30.0  # a dynamic closure is disclosed 30 s into the episode (their fixed delay)


class InvalidAction(ValueError):
    """An action outside the agent protocol (unknown, wrong mode, bad field); not sent, not counted."""


class EpisodeOver(BudgetExhausted):
    """The episode has ended (arrival, crossing, answer, terminate or step limit); programs stop here."""

    def __init__(self, reason: str) -> None:
        super().__init__("episode_over", f"episode over: {reason}")
        self.reason = reason


def _finite(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(float(value)):
        raise InvalidAction(f"{name} must be a finite number, got {value!r}")
    return float(value)


def check_action(action: Any, mode: str) -> dict[str, Any]:
    """The action in the app's flat schema, clamped to the protocol's ranges; InvalidAction otherwise."""
    if not isinstance(action, dict) or not isinstance(action.get("action"), str):
        raise InvalidAction(
            'an action is a JSON object with a string "action" field, e.g. {"action": "look", ...}'
        )
    name = action["action"]
    allowed = MAP_ACTIONS if mode == "map" else FIRST_PERSON_ACTIONS
    if name not in allowed:
        raise InvalidAction(f"{name!r} is not available in {mode} mode; allowed: {sorted(allowed)}")
    out: dict[str, Any] = {"action": name}
    if name in ("move", "sprint"):
        if action.get("dir") not in DIRECTIONS:
            raise InvalidAction(f"{name}: dir must be one of {sorted(DIRECTIONS)}")
        out["dir"] = action["dir"]
        out["seconds"] = min(2.0, max(0.05, _finite(action.get("seconds", 0.5), "seconds")))
        for key in ("yaw_rate", "pitch_rate"):
            if key in action:
                out[key] = min(180.0, max(-180.0, _finite(action[key], key)))
    elif name in ("look", "map_orbit"):
        out["yaw"] = min(180.0, max(-180.0, _finite(action.get("yaw", 0.0), "yaw")))
        out["pitch"] = min(90.0, max(-90.0, _finite(action.get("pitch", 0.0), "pitch")))
    elif name == "map_select":
        out["x"] = min(1.0, max(0.0, _finite(action.get("x", 0.5), "x")))
        out["y"] = min(1.0, max(0.0, _finite(action.get("y", 0.5), "y")))
    elif name == "map_pan":
        out["east"] = min(2000.0, max(-2000.0, _finite(action.get("east", 0.0), "east")))
        out["north"] = min(2000.0, max(-2000.0, _finite(action.get("north", 0.0), "north")))
    elif name == "map_zoom":
        out["factor"] = min(4.0, max(0.25, _finite(action.get("factor", 1.0), "factor")))
    return out


def clock_seconds(state: dict[str, Any]) -> float:
    parts = str(state.get("time", "0:0:0")).split(":")
    try:
        hours, minutes, seconds = (int(p) for p in (parts + ["0", "0"])[:3])
    except ValueError:
        return 0.0
    return hours * 3600.0 + minutes * 60.0 + seconds


@dataclass
class StepRecord:
    step: int
    action: dict[str, Any]
    label: str
    state: dict[str, Any]


@dataclass
class UrbanEpisode:
    """The agent-facing episode. Agents read `instruction`, `notices`, `state`, `observe()`, `last_label`."""

    client: UrbanClient
    task: UrbanTask
    max_steps: int
    width: int = 640
    height: int = 480
    radius_m: float = ARRIVAL_RADIUS_M
    frames: Any = None
    instruction: str = ""
    state: dict[str, Any] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    records: list[StepRecord] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    last_label: str = ""
    answer: str | None = None
    end_reason: str | None = None
    closure_active_from: int | None = None
    invalid_actions: int = 0
    oracle_calls: int = 0
    _day_offset: float = 0.0

    # --- lifecycle -----------------------------------------------------------------------------------------

    def start(self) -> None:
        """Enter the task and set its conditions (runner actions, not agent steps); record the start."""
        kind = self.task.kind
        self.client.enter_task(self.task.source_task_id or self.task.id)  # a variant runs in its source task
        self.client.act({"action": "set_weather", "weather": kind.weather or "sunny"})
        clock = kind.clock or (10, 0)
        now = schedule_now_s(self.task) if kind.family == "schedule" else None
        if now is not None:
            clock = (int(now // 3600) % 24, int(now % 3600 // 60))
        self.client.act({"action": "set_time", "hour": clock[0], "minute": clock[1]})
        self.client.act({"action": "enable_pedestrians" if kind.pedestrians else "disable_pedestrians"})
        self.client.reset_stats()
        self.state = self.client.state()
        self.instruction = task_instruction(self.task)
        self._record_position(0)
        if self.frames is not None and getattr(self.frames, "enabled", False):
            self.frames.add(self.observe(), program_line="start")

    @property
    def steps(self) -> int:
        return len(self.records)

    @property
    def done(self) -> bool:
        return self.end_reason is not None

    @property
    def mode(self) -> str:
        return str(self.state.get("mode", "first_person"))

    @property
    def position(self) -> tuple[float, float]:
        return float(self.state["lat"]), float(self.state["lon"])

    @property
    def yaw(self) -> float:
        return float(self.state.get("yaw", 0.0))

    def observe(self, fmt: str = "jpg", width: int = 0, height: int = 0) -> np.ndarray:
        """The current screenshot (first-person view, or the map in map mode), at the episode's size unless
        given; not a step."""
        return self.client.screenshot(width or self.width, height or self.height, fmt)

    def visible_signs(self) -> list[dict[str, Any]]:
        """Ground-truth sign reading of the current view: only the named `signs` oracle calls this."""
        self.oracle_calls += 1
        return self.client.visible_signs()

    # --- acting --------------------------------------------------------------------------------------------

    def act(self, action: Any) -> dict[str, Any]:
        """Perform one agent action (a step); returns the state after it. EpisodeOver once the episode ended."""
        if self.done:
            raise EpisodeOver(self.end_reason or "ended")
        try:
            checked = check_action(action, self.mode)
        except InvalidAction:
            self.invalid_actions += 1
            raise
        step = self.steps + 1
        if checked["action"] == "terminate":
            self.records.append(StepRecord(step, checked, "terminate", self.state))
            self._end("agent_terminated")
            raise EpisodeOver("agent_terminated")
        reply = self.client.act(checked)
        self.state = dict(reply.get("state") or self.client.state())
        self.last_label = str(reply.get("action", ""))
        self.records.append(StepRecord(step, checked, self.last_label, self.state))
        self._record_position(step)
        if self.frames is not None and getattr(self.frames, "enabled", False):
            self.frames.add(self.observe(), program_line=f"{step}: {self.last_label}"[:120])
        self._check_progress(step)
        if self.done:
            raise EpisodeOver(self.end_reason or "ended")
        return self.state

    def give_answer(self, reply: str) -> None:
        """A QA answer ends the episode (the answer is what gets scored, by letter)."""
        self.answer = str(reply)
        self._end("answered")

    def _end(self, reason: str) -> None:
        if self.end_reason is None:
            self.end_reason = reason

    def _record_position(self, step: int) -> None:
        clock = clock_seconds(self.state)
        if self.positions and clock + self._day_offset < self.positions[-1].clock_s - 43200:
            self._day_offset += 86400.0  # the clock passed midnight
        self.positions.append(Position(*self.position, step, clock + self._day_offset))

    def _check_progress(self, step: int) -> None:
        task, kind = self.task, self.task.kind
        if kind.closures != "none":
            elapsed = self.positions[-1].clock_s - self.positions[0].clock_s
            delayed = self.closure_active_from is None and kind.closures == "delayed"
            if (
                delayed
                and elapsed >= CLOSURE_DELAY_S
                and int(self.client.task().get("restricted_zones") or 0) > 0
            ):
                self.closure_active_from = step + 1
                self.notices.append(closure_notice(task))
            active_from = 1 if kind.closures == "upfront" else self.closure_active_from
            if active_from is not None:
                zones = [(z.label, z.vertices) for z in task.zones]
                if closure_crossings(self.positions[-2:], zones, active_from):
                    self._end("closure_crossed")
                    return
        if kind.family == "nav" and task.end is not None:
            if distance_m(self.positions[-1], (task.end.lat, task.end.lon)) <= self.radius_m:
                self._end("arrived")
        elif kind.family == "multipoint":
            if all(
                first_arrival(self.positions, (t.point.lat, t.point.lon), self.radius_m) for t in task.targets
            ):
                self._end("all_targets_visited")
        elif kind.family == "schedule":
            from tango.urban.metrics import schedule_metrics

            stops = [(s.target.lat, s.target.lon) for s in task.schedule]
            if schedule_metrics(self.positions, stops, [None] * len(stops), self.radius_m)[
                "stops_reached"
            ] == len(stops):
                self._end("schedule_completed")
        if not self.done and self.steps >= self.max_steps:
            self._end("step_limit")

    def finish(self) -> None:
        """Leave the task (best effort: the app may already be gone; the episode's result stands)."""
        if self.end_reason is None:
            self._end("agent_stopped")
        self.client.exit_task()
