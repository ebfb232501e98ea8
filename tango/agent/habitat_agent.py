"""The real Habitat agent behind the built-in primitives: simulator session, maps, navigation and perception.

Every environment action goes through `_act`, which charges the episode budget, steps the simulator and fuses
the new observation into the maps, the perception bundle (ground truth when configured, memory), the kept
views and the frame sink. The agent calls perception only through its interfaces (tango.perception.interfaces):
which components are oracles is a configuration, never a branch here. Objects the agent finds itself are
remembered for the whole episode (GOAT subtasks share them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tango.agent.config import AgentSettings
from tango.agent.keyframes import KeyframeLog
from tango.agent.memory_search import MemorySearch
from tango.agent.progress import DriveProgress
from tango.agent.remembered import RememberedObjects, detections_as_recollections, position
from tango.agent.sim_session import SimSession
from tango.agent.topdown import TopDownLayers, agent_layers, render_topdown
from tango.agent.verification import Rejections, nearest_within
from tango.navigation.actions import STOP, TURN_LEFT, TURN_RIGHT
from tango.navigation.fmm_controller import heading_to, planar_distance, wrap_angle
from tango.navigation.navigator import Navigator
from tango.perception.build import PerceptionBundle
from tango.perception.detections import Detections, normalise_label
from tango.perception.interfaces import Recollection
from tango.trace.budget import Budget
from tango.trace.values import pose_entry
from tango.trace.writer import Trace
from tango.types.frames import FrameSink
from tango.types.goals import GoalImage, ObjectHandle, Position
from tango.types.observation import Observation

LOG = logging.getLogger(__name__)
POSITION_MARGIN_M = 1.0
"""How far outside the scene's navigable bounds a position given to navigate_to may lie."""
VERIFY_TURNS: tuple[tuple[str, ...], ...] = ((), (TURN_LEFT,), (TURN_RIGHT, TURN_RIGHT))
"""The turns before each of verify()'s views: straight at the object, one turn left, one turn right of it."""
VERIFY_CLOSER_M = 0.25
"""verify() looks once more from navigate_to's reach when that is at least this much closer than its views were."""


class HabitatAgent:
    """Implements `tango.agent.api.HabitatAgentAPI` for one episode (all subtasks of a GOAT episode)."""

    def __init__(
        self,
        session: SimSession,
        first_observation: Observation,
        navigator: Navigator,
        perception: PerceptionBundle,
        budget: Budget,
        frames: FrameSink,
        settings: AgentSettings | None = None,
        on_stop: Callable[[], None] | None = None,
        current_line: Callable[[], str] | None = None,
        trace: Trace | None = None,
    ) -> None:
        self.session = session
        self.navigator = navigator
        self.perception = perception
        self.budget = budget
        self.frames = frames
        self.settings = settings or AgentSettings()
        self.on_stop = on_stop
        self.current_line = current_line or (lambda: "")
        self.trace = trace
        self.remembered = RememberedObjects(self.settings.merge_distance)
        self.keyframes = KeyframeLog(self.settings.max_keyframes, navigator.config.map.max_depth)
        self.prompt = ""
        self.memory_search: MemorySearch | None = None
        self.memory_searches = 0
        self._searched_places: list[np.ndarray] = []
        self.rejections = Rejections(self.settings.reject_radius)
        self.stops = 0
        self.path: list[np.ndarray] = []
        self.obs = first_observation
        self._ingest(first_observation)

    # --- the HabitatAgentAPI -------------------------------------------------------------------------------

    @property
    def steps_used(self) -> int:
        return self.budget.steps

    def explore_step(self) -> bool:
        """One step of the search: toward the place the memory matched to the current target first (when it
        matched one), then toward the best frontier."""
        scanning = self.navigator.scan_remaining > 0
        action = self.memory_search.next_action(self.navigator) if self.memory_search else None
        if action is None:
            self.memory_search = None
            action = self.navigator.next_action_explore()
            if self.trace is not None:
                self.trace.note(**_exploration_note(self.navigator, scanning, action is None))
        if action is None:
            return False
        self._act(action)
        return True

    def detect(self, label: str) -> list[ObjectHandle]:
        self._set_prompt(label)
        detections = self.perception.detector.detect(self.obs, [label])
        found = self.rejections.drop_near(
            detections.above(self.settings.min_detection_score).with_points(), label
        )
        seen = self.remembered.remember(detections_as_recollections(found, label))
        earlier = [h for key, h in self.remembered.handles.items() if h.label == label and key not in seen]
        return self._rank(list(seen.values())) + self._rank(earlier)

    def match_image(self, image: GoalImage) -> list[ObjectHandle]:
        """Where the goal picture's object is, from the views kept so far (best first)."""
        self._set_prompt("")
        return [_handle(r) for r in located(self.perception.matcher.locate(image, self.keyframes))]

    def match_description(self, description: str) -> list[ObjectHandle]:
        self._set_prompt(description)
        self.remembered.remember(
            located(self.perception.description.match(self.obs, description, self._detect_here))
        )
        return self.recall(description)

    def navigate_to(self, target: ObjectHandle | Position) -> bool:
        """Drive toward the point until within reach. Ends early when the planned path is used up (the point
        itself may be inside furniture: the controller then heads for the nearest reachable cell) or when the
        remaining path has not shrunk for `navigate_patience` steps (a detour found on the way restarts the count);
        the result says whether it is within reach."""
        point = np.asarray(target.position if isinstance(target, ObjectHandle) else target, dtype=np.float64)
        if not isinstance(target, ObjectHandle):
            self._check_in_scene(point)
        if self.trace is not None:
            self.trace.note(goal=[round(float(v), 3) for v in point])
        return self._approach(point, self.settings.reach_distance)

    def _approach(self, point: np.ndarray, reach: float) -> bool:
        """navigate_to's drive toward `point` until within `reach` of it (or stalled: `DriveProgress`); True
        when within it."""
        settings = self.settings
        progress = DriveProgress(
            settings.progress_step, settings.navigate_patience, settings.detour_growth, 2 * reach
        )
        for _ in range(self.settings.max_navigate_steps):
            action = self.navigator.next_action_to(point, reach, object_goal=True)
            if action == STOP:
                return True
            remaining = self.navigator.remaining_distance
            straight = planar_distance(self.obs.agent_position, point)
            if remaining <= settings.arrive_tolerance or progress.stalled(remaining, straight):
                break
            self._act(action)
        distance = planar_distance(self.obs.agent_position, point)
        return bool(distance <= reach + self.settings.arrive_tolerance)

    def verify(self, target: ObjectHandle) -> ObjectHandle | None:
        """Go to a detected object and look at it again before trusting it. From where the approach ends
        (`verify_distance` from it: close enough to see it well, far enough to have it whole in view) the
        agent turns to face it and takes up to `verify_views` (at most 3) views, `VERIFY_TURNS`, then, if they
        did not confirm it, one more facing it from navigate_to's reach (the first views may be behind a wall);
        the first detection of its label within `verify_radius` of it in a view other than the one the program
        called from (the detection being checked) confirms it and is returned (remembered,
        at the place seen from close by). If none does, the object is forgotten and detections of its label
        within `reject_radius` of it are ignored for the rest of the episode; the result is None."""
        point = np.asarray(target.position, dtype=np.float64)
        detected_from = self._pose()
        self._approach(point, self.settings.verify_distance)
        self._face(point)
        seen = None
        for turns in VERIFY_TURNS[: max(1, self.settings.verify_views)]:
            for action in turns:
                self._act(action)
            if self._pose() != detected_from:  # the same view would repeat the same detection
                seen = self._redetect(target.label, point)
            if seen is not None:
                break
        far = planar_distance(self.obs.agent_position, point)
        if (
            seen is None
            and self._approach(point, self.settings.reach_distance)
            and far - planar_distance(self.obs.agent_position, point) >= VERIFY_CLOSER_M
        ):
            self._face(point)  # a wall may have hidden it: one more view from where navigate_to ends
            seen = self._redetect(target.label, point)
        if self.trace is not None:
            self.trace.note(verified=target.label, confirmed=seen is not None)
        if seen is not None:
            return seen
        self.rejections.add(target.label, point)
        for key in [
            k
            for k, h in self.remembered.handles.items()
            if k == target.object_id
            or (h.label == target.label and self.rejections.near(h.label, np.asarray(h.position)))
        ]:
            del self.remembered.handles[key]
        return None

    def answer(self, question: str, image: GoalImage | None = None) -> str:
        return str(self.perception.answerer.answer(self.obs, question, image))

    def classify_room(self) -> str:
        return str(self.perception.room.classify(self.obs))

    def look_around(self, degrees: int = 360) -> None:
        for _ in range(max(1, round(self.settings.scan_turns * min(degrees, 360) / 360))):
            self._act(TURN_LEFT)

    def map_scene(self, label: str) -> None:
        self._set_prompt(label)

    def perceived_objects(self) -> list[ObjectHandle]:
        return self._rank(list(self.remembered.handles.values()))

    def agent_position(self) -> Position:
        x, y, z = (float(v) for v in self.obs.agent_position)
        return (x, y, z)

    def turn_left(self) -> None:
        self._act("turn_left")

    def turn_right(self) -> None:
        self._act("turn_right")

    def look_up(self) -> None:
        self._act("look_up")

    def look_down(self) -> None:
        self._act("look_down")

    def stop(self) -> None:
        self.stops += 1
        if self.trace is not None:
            self.trace.emit("stop", number=self.stops, poses=[self._pose()])
        if self.on_stop is not None:
            self.on_stop()

    def recall(self, target: str) -> list[ObjectHandle]:
        label = normalise_label(target)
        remembered = {
            h.object_id: h for h in self.remembered.handles.values() if normalise_label(h.label) == label
        }
        for item in located(self.perception.memory.recall(target)):
            handle = _handle(item)
            remembered.setdefault(handle.object_id, handle)
        return self._rank(list(remembered.values()))

    # --- internals -------------------------------------------------------------------------------------------

    def new_goal(self) -> None:
        """A new (sub)task: look around again and reconsider every frontier, keeping maps and memory; places the
        memory sent the agent to may be visited again."""
        self.navigator.restart_exploration()
        self._searched_places.clear()

    def _searched(self, point: np.ndarray) -> bool:
        """True when a memory search of this (sub)task already went to within reach of `point` (a program that
        switches between targets would otherwise walk there and look around again each time)."""
        return any(planar_distance(p, point) <= self.settings.reach_distance for p in self._searched_places)

    def topdown_layers(self, goals: Sequence[Any] = ()) -> TopDownLayers:
        """The agent's maps, path and remembered objects; `goals` only when the runner's thumbnail passes them."""
        remembered = [h.position for h in self.remembered.handles.values()]
        return agent_layers(self.navigator, self.obs, self.path, remembered, goals)

    def _act(self, action: str) -> None:
        self.budget.charge_steps(1)
        self.obs = self.session.step(action)
        if self.trace is not None:
            self.trace.pose(self._pose())
        self._ingest(self.obs)

    def _pose(self) -> list[float]:
        """Where the agent stands and looks, as traces write poses."""
        return pose_entry(self.obs.agent_position, self.obs.agent_yaw, np.deg2rad(self.session.pitch_deg))

    def _ingest(self, obs: Observation) -> None:
        """Fuse one frame: kept views, value map for the current prompt, maps, perception memory, video."""
        if self.budget.steps % self.settings.keyframe_every == 0:
            self.keyframes.add(obs)
        scores = None
        if self.prompt and self.navigator.config.explore.frontier_policy == "value":
            scores = self.perception.scorer.score(obs, [self.prompt])
        self.navigator.update(obs, scores)
        self.perception.observe(obs, self.navigator)
        self.path.append(obs.agent_position.copy())
        if self.frames.enabled:
            self.frames.add(obs.rgb, obs.depth, render_topdown(self.topdown_layers()), self.current_line())

    def _check_in_scene(self, point: np.ndarray) -> None:
        """Refuse a position a program gave that is not finite or lies off the scene's floor plan (x and z
        within the navigable bounds widened by `POSITION_MARGIN_M`; navigation is planar, so y only finite)."""
        if not np.all(np.isfinite(point)):
            raise ValueError(f"navigate_to needs a finite position, got {point.tolist()}")
        lower, upper = self.session.scene_bounds()
        outside = [
            f"{axis}={point[i]:g} not in [{lower[i] - POSITION_MARGIN_M:g}, {upper[i] + POSITION_MARGIN_M:g}]"
            for i, axis in ((0, "x"), (2, "z"))
            if not lower[i] - POSITION_MARGIN_M <= point[i] <= upper[i] + POSITION_MARGIN_M
        ]
        if outside:
            raise ValueError(f"navigate_to position is outside the scene: {', '.join(outside)}")

    def _face(self, point: np.ndarray) -> None:
        """Turn in place (at most half a circle) until `point` is within half a turn of straight ahead."""
        half_turn = np.deg2rad(self.navigator.config.navigation.turn_angle) / 2
        for _ in range(max(1, round(self.settings.scan_turns / 2))):
            error = wrap_angle(heading_to(self.obs.agent_position, point) - self.obs.agent_yaw)
            if abs(error) <= half_turn:
                return
            self._act(TURN_LEFT if error > 0 else TURN_RIGHT)

    def _redetect(self, label: str, point: np.ndarray) -> ObjectHandle | None:
        """The detection of `label` in the current view nearest to `point` within `verify_radius`, remembered."""
        here = self._detect_here(label).above(self.settings.min_detection_score)
        index = nearest_within(here, point, self.settings.verify_radius)
        if index < 0:
            return None
        recollections = detections_as_recollections(here.select([index]), label)
        return next(iter(self.remembered.remember(recollections).values()))

    def _detect_here(self, label: str) -> Detections:
        """The detector on the current frame, keeping detections with a world point."""
        return self.perception.detector.detect(self.obs, [label]).with_points()

    def _set_prompt(self, prompt: str) -> None:
        """A new search target starts a fresh value map (values of the previous target do not carry over) and
        asks the memory once where it saw something like it (explore_scene() goes there first)."""
        if prompt != self.prompt:
            self.prompt = prompt
            self.navigator.reset_values()
            place = self.perception.memory.place(prompt) if prompt else None
            self.memory_search = None
            if place is not None and not self._searched(place.point):
                self.memory_search = MemorySearch(place.point, self.settings)
                self._searched_places.append(np.asarray(place.point, dtype=np.float64))
                self.memory_searches += 1

    def _rank(self, handles: list[ObjectHandle]) -> list[ObjectHandle]:
        """Best score first, nearer first among equals."""
        here = self.obs.agent_position
        return sorted(handles, key=lambda h: (-h.score, float(np.linalg.norm(np.asarray(h.position) - here))))


def _exploration_note(navigator: Navigator, scanning: bool, done: bool) -> dict[str, Any]:
    """What an exploration step headed for: the initial scan, the chosen frontier and its score, or nothing
    left to explore; `closer_look` when the step took the closer look first."""
    frontiers = navigator.frontiers
    note: dict[str, Any]
    if done:
        note = {"explored_all": True}
    elif scanning or frontiers.target is None:
        note = {"scan": True}
    else:
        note = {
            "frontier": [round(float(v), 3) for v in frontiers.target],
            "frontier_score": None if frontiers.target_score is None else round(frontiers.target_score, 4),
            "score_kind": frontiers.score_kind,
        }
    if navigator.closer_look_now:
        note["closer_look"] = True
    return note


def located(items: Sequence[Recollection]) -> list[Recollection]:
    """The recollections with a world point (an object seen only beyond the depth sensor's range has none yet):
    a program can only be sent to a place."""
    return [item for item in items if np.all(np.isfinite(np.asarray(item.point, dtype=np.float64)))]


def _handle(item: Recollection) -> ObjectHandle:
    """A recollection with a key as the handle programs get."""
    return ObjectHandle(item.label, position(item.point), float(item.score), item.key or item.label)
