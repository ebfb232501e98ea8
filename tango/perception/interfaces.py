"""The interfaces the agent calls on perception components; every registered component implements one.

The agent never asks which implementation it holds: an oracle and a real model answer the same calls, so
switching `perception=...` switches models, never the agent's algorithm.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from tango.mapping.fov_patch import FovPatch
from tango.mapping.geometry import MapGrid
from tango.perception.detections import Detections
from tango.types.goals import GoalImage
from tango.types.observation import Observation


@dataclass(frozen=True)
class Recollection:
    """Something a component locates in the world: a label, a world point, a score and, when the component
    has a stable identity for it, a key (None: the agent merges it with what it remembers nearby)."""

    label: str
    point: np.ndarray
    score: float
    key: str | None = None


class Detector(Protocol):
    """`detect(obs, labels) -> Detections` of the queried labels in one frame."""

    def detect(self, obs: Observation, labels: list[str]) -> Detections: ...


class ValueScorer(Protocol):
    """`score(obs, prompts) -> (P,)`: how promising the view is for each prompt (the value map's input), and
    the unit-norm embeddings behind it: `image_embedding(obs) -> (D,)` of a frame and `text_embedding(text)
    -> (D,)` of a target, whose dot product is the frame's similarity to the target (the feature memory)."""

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray: ...

    def image_embedding(self, obs: Observation) -> np.ndarray: ...

    def text_embedding(self, text: str) -> np.ndarray: ...


class Answerer(Protocol):
    """`answer(obs, question, image) -> str`: about `image` when one is given (TANGO's `answer(q, image)`),
    else about the current frame `obs`."""

    def answer(self, obs: Observation, question: str, image: GoalImage | None = None) -> str: ...


class RoomClassifier(Protocol):
    """`classify(obs) -> room type`."""

    def classify(self, obs: Observation) -> str: ...


class View(Protocol):
    """A view the agent kept (a keyframe): its pixels and the world point at its centre (None: out of range)."""

    @property
    def rgb(self) -> np.ndarray: ...

    @property
    def point(self) -> np.ndarray | None: ...


class ViewLog(Protocol):
    """The agent's kept views; `generation` changes whenever earlier views are dropped or reordered."""

    @property
    def views(self) -> Sequence[View]: ...

    @property
    def generation(self) -> int: ...


class ImageGoalLocator(Protocol):
    """`locate(goal, views) -> recollections`: where the object of a goal picture is, from what the agent saw."""

    def locate(self, goal: GoalImage, views: ViewLog) -> list[Recollection]: ...


DetectFn = Callable[[str], Detections]


class DescriptionMatcher(Protocol):
    """`match(obs, description, detect) -> recollections` of objects that fit a description; `detect(label)`
    runs the agent's detector on the current frame (with world points) when the matcher wants detections."""

    def match(self, obs: Observation, description: str, detect: DetectFn) -> list[Recollection]: ...


class MapView(Protocol):
    """What a memory may read of the agent's maps: the grid and the floor patch a frame covers."""

    @property
    def grid(self) -> MapGrid: ...

    def fov_patch(self, obs: Observation) -> FovPatch: ...


class Memory(Protocol):
    """What the agent can recall beyond its own detections: `observe` every frame, `recall(target)` anytime
    (objects), `contents()`: everything it can name without a query (for listings and replanning summaries),
    and `place(target)`: where it saw something like the target (the map point explore_scene() heads for
    first when the search target changes), or None."""

    def observe(self, obs: Observation, maps: MapView) -> None: ...

    def recall(self, target: str) -> list[Recollection]: ...

    def contents(self) -> list[Recollection]: ...

    def place(self, target: str) -> Recollection | None: ...
