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

from tango.agent.api import GoalImage, ObjectHandle, Position
from tango.agent.config import AgentSettings
from tango.agent.keyframes import KeyframeLog
from tango.agent.observation import Observation
from tango.agent.remembered import RememberedObjects, detections_as_recollections, position
from tango.agent.sim_session import SimSession
from tango.agent.topdown import agent_layers
from tango.harness.episode import FrameSink
from tango.harness.topdown import TopDownLayers, render_topdown
from tango.navigation.actions import STOP, TURN_LEFT
from tango.navigation.fmm_controller import planar_distance
from tango.navigation.navigator import Navigator
from tango.perception.build import PerceptionBundle
from tango.perception.detections import Detections, normalise_label
from tango.perception.interfaces import Recollection
from tango.programs.budget import Budget

LOG = logging.getLogger(__name__)


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
    ) -> None:
        self.session = session
        self.navigator = navigator
        self.perception = perception
        self.budget = budget
        self.frames = frames
        self.settings = settings or AgentSettings()
        self.on_stop = on_stop
        self.current_line = current_line or (lambda: "")
        self.remembered = RememberedObjects(self.settings.merge_distance)
        self.keyframes = KeyframeLog(self.settings.max_keyframes, navigator.config.map.max_depth)
        self.prompt = ""
        self.stops = 0
        self.path: list[np.ndarray] = []
        self.obs = first_observation
        self._ingest(first_observation)

    # --- the HabitatAgentAPI -------------------------------------------------------------------------------

    @property
    def steps_used(self) -> int:
        return self.budget.steps

    def explore_step(self) -> bool:
        action = self.navigator.next_action_explore()
        if action is None:
            return False
        self._act(action)
        return True

    def detect(self, label: str) -> list[ObjectHandle]:
        self._set_prompt(label)
        detections = self.perception.detector.detect(self.obs, [label])
        found = detections.above(self.settings.min_detection_score).with_points()
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
        remaining path has not shrunk for `navigate_patience` steps; the result says whether it is within reach."""
        point = np.asarray(target.position if isinstance(target, ObjectHandle) else target, dtype=np.float64)
        fmm = self.navigator.fmm
        best, since_best = float("inf"), 0
        for _ in range(self.settings.max_navigate_steps):
            action = self.navigator.next_action_to(point, self.settings.reach_distance)
            if action == STOP:
                return True
            remaining = fmm.remaining_distance
            if remaining <= self.settings.arrive_tolerance:
                break
            if remaining < best - self.settings.progress_step:
                best, since_best = remaining, 0
            else:
                since_best += 1
                if since_best > self.settings.navigate_patience:
                    break
            self._act(action)
        distance = planar_distance(self.obs.agent_position, point)
        return bool(distance <= self.settings.reach_distance + self.settings.arrive_tolerance)

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
        """A new (sub)task: look around again and reconsider every frontier, keeping maps and memory."""
        self.navigator.restart_exploration()

    def topdown_layers(self, goals: Sequence[Any] = ()) -> TopDownLayers:
        """The agent's maps, path and remembered objects; `goals` only when the runner's thumbnail passes them."""
        remembered = [h.position for h in self.remembered.handles.values()]
        return agent_layers(self.navigator, self.obs, self.path, remembered, goals)

    def _act(self, action: str) -> None:
        self.budget.charge_steps(1)
        self.obs = self.session.step(action)
        self._ingest(self.obs)

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

    def _detect_here(self, label: str) -> Detections:
        """The detector on the current frame, keeping detections with a world point."""
        return self.perception.detector.detect(self.obs, [label]).with_points()

    def _set_prompt(self, prompt: str) -> None:
        """A new search target starts a fresh value map (values of the previous target do not carry over)."""
        if prompt != self.prompt:
            self.prompt = prompt
            self.navigator.reset_values()

    def _rank(self, handles: list[ObjectHandle]) -> list[ObjectHandle]:
        """Best score first, nearer first among equals."""
        here = self.obs.agent_position
        return sorted(handles, key=lambda h: (-h.score, float(np.linalg.norm(np.asarray(h.position) - here))))


def located(items: Sequence[Recollection]) -> list[Recollection]:
    """The recollections with a world point (an object seen only beyond the depth sensor's range has none yet):
    a program can only be sent to a place."""
    return [item for item in items if np.all(np.isfinite(np.asarray(item.point, dtype=np.float64)))]


def _handle(item: Recollection) -> ObjectHandle:
    """A recollection with a key as the handle programs get."""
    return ObjectHandle(item.label, position(item.point), float(item.score), item.key or item.label)
