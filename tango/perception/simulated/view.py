"""One frame as simulated perception sees it: which visible objects it notices and under which label.

Shared by the simulated detector and value scorer through the oracle's per-frame memo, so each frame's
visibility, features and draws are computed once whichever components ask. Every per-object draw of a frame
comes from one call: a (N, len(DRAWS)) matrix of uniforms keyed by the frame and the object's id, one column
per use, so no draw depends on which other objects are in view or which labels were asked for.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from tango.perception.detections import normalise_label
from tango.perception.oracle.ground_truth import GroundTruth
from tango.perception.oracle.visible import VisibleObject
from tango.perception.simulated.draws import frame_key, normals, text_key, uniforms
from tango.perception.simulated.features import ObjectFeatures, object_features
from tango.perception.simulated.params import DetectionModel
from tango.types.observation import Observation

DRAWS = (
    "detect", "confused", "pick", "score", "box_x", "box_y", "box_w", "box_h",
    "notice", "scorer_confused", "scorer_pick",
)  # fmt: skip
"""The per-object draws of a frame, in column order."""
COLUMN = {name: index for index, name in enumerate(DRAWS)}


@dataclass
class FrameView:
    """The visible objects of one frame with their features, P(detect), draws and detector labels."""

    key: int
    visible: list[VisibleObject]
    features: ObjectFeatures
    probability: np.ndarray
    draws: np.ndarray
    labels: list[str]

    def draw(self, name: str) -> np.ndarray:
        """(N,) uniforms of one named use (DRAWS)."""
        return self.draws[:, COLUMN[name]]

    def normal(self, name: str) -> np.ndarray:
        """(N,) standard normals of one named use."""
        return np.asarray(ndtri(self.draw(name)), dtype=np.float64)

    def noticed(self, name: str, power: float = 1.0) -> np.ndarray:
        """(N,) bool: which objects a use notices, each with P(detect) ** power."""
        return self.draw(name) < self.probability**power


class LookAlikes:
    """The look-alike classes of each category, restricted to the categories the scene has."""

    def __init__(self, groups: dict[str, list[str]], scene_categories: set[str]) -> None:
        self._peers: dict[str, list[str]] = {}
        for category, others in groups.items():
            name = normalise_label(category)
            peers = sorted({normalise_label(o) for o in others} & scene_categories - {name})
            if peers:
                self._peers[name] = peers

    def of(self, category: str) -> list[str]:
        """The look-alikes of `category` in this scene (possibly none)."""
        return self._peers.get(normalise_label(category), [])

    def relabel(
        self, categories: list[str], confused: np.ndarray, pick: np.ndarray, rate: float
    ) -> list[str]:
        """Each category, or (where its `confused` draw is below `rate`) the look-alike its `pick` draw names."""
        labels = []
        for category, swap, u in zip(categories, confused < rate, pick):
            peers = self.of(category)
            labels.append(peers[int(u * len(peers))] if swap and peers else category)
        return labels


class SimulatedEyes:
    """Computes (and memoises per frame) the `FrameView` of a frame for one detection model."""

    def __init__(self, truth: GroundTruth, model: DetectionModel, min_pixels: int) -> None:
        self.truth = truth
        self.model = model
        self.min_pixels = min_pixels
        scene = truth.scene
        self.scene_id = scene.scene_id
        categories = {normalise_label(o.category) for o in scene.objects.values()}
        self.categories = sorted(categories)
        self.look_alikes = LookAlikes(model.look_alikes, categories)
        instance_key = text_key("instance", model.seed, scene.scene_id)
        ids = sorted(scene.objects)
        self._instance_z = dict(zip(ids, normals(instance_key, "instance", ids)))
        self._memo_key = ("simulated", id(self))

    def view(self, obs: Observation) -> FrameView:
        """The frame's view (computed on the first request for this frame, then shared)."""
        visible = self.truth.visible(obs, self.min_pixels)  # also resets the memo on a new frame
        results = self.truth.scene.memo.results
        if self._memo_key not in results:
            results[self._memo_key] = self._compute(obs, visible)
        found: FrameView = results[self._memo_key]
        return found

    def memo(self, obs: Observation) -> dict[object, object]:
        """The per-frame memo of `obs` (emptied when another frame is asked about)."""
        self.view(obs)
        return self.truth.scene.memo.results

    def _compute(self, obs: Observation, visible: list[VisibleObject]) -> FrameView:
        model = self.model
        key = frame_key(model.seed, self.scene_id, obs)
        features = object_features(obs, visible, model.fill)
        categories = [normalise_label(v.object.category) for v in visible]
        ids = np.array([v.object.id for v in visible], dtype=np.int64)
        probability = model.probability(
            features.side_px,
            features.visible_fraction,
            features.distance_m,
            features.elevation_deg,
            model.class_logits(categories),
            np.array([self._instance_z.get(int(i), 0.0) for i in ids], dtype=np.float64),
        )
        slots = (ids[:, None] * len(DRAWS) + np.arange(len(DRAWS))[None, :]).ravel()
        draws = uniforms(key, "objects", slots).reshape(len(ids), len(DRAWS))
        labels = self.look_alikes.relabel(
            categories, draws[:, COLUMN["confused"]], draws[:, COLUMN["pick"]], model.confusion
        )
        return FrameView(key, visible, features, probability, draws, labels)


_EYES: weakref.WeakKeyDictionary[GroundTruth, dict[tuple[str, int], SimulatedEyes]] = (
    weakref.WeakKeyDictionary()
)


def eyes_for(truth: GroundTruth, model: DetectionModel, min_pixels: int) -> SimulatedEyes:
    """The episode's `SimulatedEyes` for this model and pixel minimum: components that share them (the detector
    and the value scorer) compute each frame's view once."""
    shared = _EYES.setdefault(truth, {})
    key = (repr(model), min_pixels)
    if key not in shared:
        shared[key] = SimulatedEyes(truth, model, min_pixels)
    return shared[key]
