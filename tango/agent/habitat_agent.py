"""The real Habitat agent behind the built-in primitives: simulator session, maps, navigation and perception.

Every environment action goes through `_act`, which charges the episode budget, steps the simulator and fuses
the new observation into the maps, the perception memory and the frame sink. Objects the agent detects are
remembered for the whole episode (GOAT subtasks share them), keyed by the detector's own instance key.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.agent.api import GoalImage, ObjectHandle, Position
from tango.agent.observation import Observation
from tango.agent.sim_session import SimSession
from tango.harness.episode import FrameSink
from tango.harness.topdown import TopDownLayers, render_topdown
from tango.navigation.actions import STOP, TURN_LEFT
from tango.navigation.fmm_controller import planar_distance
from tango.navigation.navigator import Navigator
from tango.navigation.targets import detection_point
from tango.perception.build import PerceptionBundle
from tango.perception.clip import ClipEmbedder
from tango.perception.description import OracleDescriptionScorer
from tango.perception.detections import Detections, normalise_label
from tango.perception.observed_memory import ObservedObjects
from tango.perception.oracle_image_goal import OracleImageMatcher
from tango.perception.value_scorers import ClipScorer
from tango.programs.budget import Budget

LOG = logging.getLogger(__name__)
IMAGE_GOAL_LABEL = "image goal"


@dataclass
class AgentSettings:
    """Behaviour of the agent's primitives; distances in metres."""

    reach_distance: float = 0.8
    max_navigate_steps: int = 250
    arrive_tolerance: float = 0.15
    progress_step: float = 0.1
    navigate_patience: int = 40
    scan_turns: int = 12
    min_detection_score: float = 0.0
    merge_distance: float = 0.4
    description_min_similarity: float = 0.25
    keyframe_every: int = 3
    recall_threshold: float = 0.25
    max_keyframes: int = 300


@dataclass
class Keyframe:
    """A view kept for image-goal matching, with the world point at its centre (None when out of depth range)."""

    rgb: np.ndarray
    point: np.ndarray | None


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
        self.remembered: dict[str, ObjectHandle] = {}
        self.prompt = ""
        self.stops = 0
        self.keyframes: list[Keyframe] = []
        self.path: list[np.ndarray] = []
        self._image_goal: tuple[GoalImage, int, ObjectHandle | None] | None = None
        self.embedder = frame_embedder(perception)
        if self.embedder is not None and navigator.memory is None:
            raise ValueError(
                "a CLIP value scorer fills the feature memory: build the Navigator with embedding_dim"
            )
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
        seen = self._remember(detections.above(self.settings.min_detection_score).with_points(), label)
        earlier = [h for key, h in self.remembered.items() if h.label == label and key not in seen]
        return self._rank(list(seen.values())) + self._rank(earlier)

    def match_image(self, image: GoalImage) -> list[ObjectHandle]:
        """Match the goal picture against every keyframe not yet compared with it (all earlier views on the
        first call of a subtask, then one new view per step); the best match so far is the goal."""
        self._set_prompt("")
        matcher = self.perception.matcher
        if isinstance(matcher, OracleImageMatcher):
            return self._recall_instance(matcher.goal_instance(image.semantic))
        if self._image_goal is None or self._image_goal[0] is not image:
            self._image_goal = (image, 0, None)
        _, checked, best = self._image_goal
        for keyframe in self.keyframes[checked:]:
            result = matcher.match(image.pixels, keyframe.rgb)
            if result.matched and keyframe.point is not None and (best is None or result.score > best.score):
                best = ObjectHandle(
                    IMAGE_GOAL_LABEL, _position(keyframe.point), float(result.score), IMAGE_GOAL_LABEL
                )
        self._image_goal = (image, len(self.keyframes), best)
        return [best] if best is not None else []

    def match_description(self, description: str) -> list[ObjectHandle]:
        self._set_prompt(description)
        label = self._described_category(description)
        scorer = self.perception.description
        memory = self._oracle_memory()
        if isinstance(scorer, OracleDescriptionScorer) and memory is not None:
            seen = memory.of_category(label)
            scores = scorer.score_instances(description, label, [entry.object.id for entry in seen])
            threshold = self._description_threshold(description, label)
            for entry, score in zip(seen, scores):
                if score >= threshold:
                    key = f"{description}#{entry.object.id}"
                    self.remembered[key] = ObjectHandle(
                        description, _position(entry.last_point), float(score), key
                    )
        else:
            detections = self.perception.detector.detect(self.obs, [label]).with_points()
            if len(detections):
                scores = scorer.score(self.obs, description, detections)
                keep = np.flatnonzero(scores >= self.settings.description_min_similarity)
                self._remember(detections.select(keep), description, scores[keep])
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

    def answer(self, question: str) -> str:
        return str(self.perception.answerer.answer(self.obs, question))

    def classify_room(self) -> str:
        return str(self.perception.room.classify(self.obs))

    def look_around(self) -> None:
        for _ in range(self.settings.scan_turns):
            self._act(TURN_LEFT)

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
        remembered = {h.object_id: h for h in self.remembered.values() if normalise_label(h.label) == label}
        if self.embedder is not None:
            query = self.embedder.texts([target])[0].cpu().numpy()
            found = self.navigator.recall(query, self.settings.recall_threshold)
            if found is not None:
                key = f"{label}@memory"
                point = self._frame_area_centre(found.frame_index)
                remembered[key] = ObjectHandle(label, _position(point), float(found.score), key)
        memory = self._oracle_memory()
        if memory is not None:
            for entry in memory.of_category(label):
                key = f"{label}#{entry.object.id}"
                remembered.setdefault(key, ObjectHandle(label, _position(entry.last_point), 1.0, key))
        return self._rank(list(remembered.values()))

    # --- internals -------------------------------------------------------------------------------------------

    def new_goal(self) -> None:
        """A new (sub)task: look around again and reconsider every frontier, keeping maps and memory."""
        self.navigator.restart_exploration()
        self._image_goal = None

    def _act(self, action: str) -> None:
        self.budget.charge_steps(1)
        self.obs = self.session.step(action)
        self._ingest(self.obs)

    def _ingest(self, obs: Observation) -> None:
        """Fuse one frame: perception memory, obstacle/explored map, value map for the current prompt, video."""
        self.perception.observe(obs)
        if self.budget.steps % self.settings.keyframe_every == 0:
            point = detection_point(obs, _central_box(obs), None, self.navigator.config.map.max_depth)
            self._add_keyframe(Keyframe(obs.rgb, point))
        score_now = bool(self.prompt) and self.navigator.config.explore.frontier_policy == "value"
        embedding = scores = None
        if self.embedder is not None:
            image = self.embedder.images([obs.rgb])[0]
            embedding = image.cpu().numpy()
            if score_now:
                scores = (self.embedder.texts([self.prompt]) @ image).cpu().numpy()
        elif score_now:
            scores = self.perception.scorer.score(obs, [self.prompt])
        self.navigator.update(obs, scores, embedding)
        self.path.append(obs.agent_position.copy())
        if self.frames.enabled:
            self.frames.add(obs.rgb, obs.depth, render_topdown(self.topdown_layers()), self.current_line())

    def topdown_layers(self, goals: list[Position] | None = None) -> TopDownLayers:
        """The agent's own maps, path and remembered objects for the video panel; `goals` are drawn only when a
        caller outside the agent (the runner's thumbnail) passes them."""
        omap = self.navigator.obstacle_map
        grid = omap.grid

        def pixels(points: list[Any]) -> np.ndarray | None:
            return grid.world_to_pixel(np.asarray(points, dtype=np.float64)) if points else None

        value_map = self.navigator.value_map
        agent = grid.world_to_pixel(self.obs.agent_position[None])[0]
        return TopDownLayers(
            obstacles=~omap.navigable & omap.explored,
            explored=omap.explored,
            value=value_map.values[..., 0] if value_map.confidence.any() else None,
            frontiers=omap.frontier_pixels(),
            path=pixels(self.path),
            goals=pixels(list(goals or [])),
            detections=pixels([h.position for h in self.remembered.values()]),
            agent=(int(agent[0]), int(agent[1])),
            agent_yaw=self.obs.agent_yaw,
        )

    def _frame_area_centre(self, frame_index: int) -> np.ndarray:
        """The middle of the map cells a remembered frame still owns: one embedding per frame means every one of
        its cells scores the same, so its area (not its first cell) is where the recalled view looked."""
        memory = self.navigator.memory
        assert memory is not None
        rows, cols = np.nonzero(memory.cell_frame == frame_index)
        centre = np.array([[rows.mean(), cols.mean()]])
        return memory.grid.pixel_to_world(centre, float(self.obs.agent_position[1]))[0]

    def _oracle_memory(self) -> ObservedObjects | None:
        """ORACLE: the annotated objects this agent has seen (perception=oracle binds the scene annotation);
        None with real perception, where only detections the agent made itself are remembered."""
        return self.perception.memory if self.perception.scene is not None else None

    def _recall_instance(self, instance: int | None) -> list[ObjectHandle]:
        """ORACLE path: the goal instance where the agent last saw it, if it has seen it."""
        memory = self._oracle_memory()
        seen = {entry.object.id: entry for entry in memory.objects()} if memory is not None else {}
        if instance is None or instance not in seen:
            return []
        key = f"{IMAGE_GOAL_LABEL}#{instance}"
        return [ObjectHandle(IMAGE_GOAL_LABEL, _position(seen[instance].last_point), 1.0, key)]

    def _add_keyframe(self, keyframe: Keyframe) -> None:
        """Keep at most max_keyframes views spread over the episode: when full, every other one is dropped."""
        if len(self.keyframes) >= self.settings.max_keyframes:
            self.keyframes = self.keyframes[::2]
            self._image_goal = None
        self.keyframes.append(keyframe)

    def _set_prompt(self, prompt: str) -> None:
        """A new search target starts a fresh value map (values of the previous target do not carry over)."""
        if prompt != self.prompt:
            self.prompt = prompt
            self.navigator.reset_values()

    def _remember(
        self, detections: Detections, label: str, scores: np.ndarray | None = None
    ) -> dict[str, ObjectHandle]:
        """Store detections under a stable key: the oracle's instance id, else the nearest earlier one."""
        current: dict[str, ObjectHandle] = {}
        scores = detections.scores if scores is None else scores
        for i in range(len(detections)):
            point = detections.points[i]
            instance = int(detections.instance_ids[i])
            key = f"{label}#{instance}" if instance >= 0 else self._key_near(label, point)
            handle = ObjectHandle(label, _position(point), float(scores[i]), key)
            self.remembered[key] = handle
            current[key] = handle
        return current

    def _described_category(self, description: str) -> str:
        """The detector query for a description: the category seen so far that it names first (the head noun,
        before any 'next to X'), the longer name on ties; else the text itself."""
        memory = self._oracle_memory()
        categories = memory.categories() if memory is not None else []
        words = f" {normalise_label(description)} "
        named = [(words.find(f" {normalise_label(c)} "), -len(c), c) for c in categories]
        named = [item for item in named if item[0] >= 0]
        return min(named)[2] if named else description

    def _description_threshold(self, description: str, category: str) -> float:
        """Oracle scores are similarity + satisfied constraints: demand every constraint the text states."""
        assert isinstance(self.perception.description, OracleDescriptionScorer)
        parsed = self.perception.description.parse(description, category)
        return float(len(parsed.attributes) + bool(parsed.room) + len(parsed.relations))

    def _key_near(self, label: str, point: np.ndarray) -> str:
        for key, handle in self.remembered.items():
            if (
                handle.label == label
                and np.linalg.norm(np.asarray(handle.position) - point) < self.settings.merge_distance
            ):
                return key
        return f"{label}@{len(self.remembered)}"

    def _rank(self, handles: list[ObjectHandle]) -> list[ObjectHandle]:
        """Best score first, nearer first among equals."""
        here = self.obs.agent_position
        return sorted(handles, key=lambda h: (-h.score, float(np.linalg.norm(np.asarray(h.position) - here))))


def frame_embedder(perception: PerceptionBundle) -> ClipEmbedder | None:
    """The CLIP model whose frame embeddings feed the feature memory: the value scorer's, when it is CLIP
    (one image embedding per frame then serves both the value map and the memory)."""
    scorer = perception.scorer
    return scorer.clip if isinstance(scorer, ClipScorer) else None


def _position(point: Any) -> Position:
    x, y, z = (float(v) for v in np.asarray(point).reshape(3))
    return (x, y, z)


def _central_box(obs: Observation) -> np.ndarray:
    """The middle third of the frame, where a matched goal view puts its object."""
    h, w = obs.height, obs.width
    return np.array([w / 3.0, h / 3.0, 2.0 * w / 3.0, 2.0 * h / 3.0])
