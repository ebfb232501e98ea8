"""One frame as simulated perception sees it: which visible objects it notices and under which label.

Shared by the simulated detector and value scorer through the oracle's per-frame memo, so each frame's
visibility, features and draws are computed once whichever components ask.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from tango.agent.observation import Observation
from tango.perception.detections import normalise_label
from tango.perception.oracle.ground_truth import GroundTruth
from tango.perception.oracle.visible import VisibleObject
from tango.perception.simulated.draws import frame_key, normals, text_key, uniforms
from tango.perception.simulated.features import ObjectFeatures, object_features
from tango.perception.simulated.params import DetectionModel


@dataclass
class FrameView:
    """The visible objects of one frame with their features, P(detect) and the label each would be given."""

    key: int
    visible: list[VisibleObject]
    features: ObjectFeatures
    probability: np.ndarray
    labels: list[str]

    def noticed(self, stream: str, power: float = 1.0) -> np.ndarray:
        """(N,) bool: which objects a component drawing from `stream` notices, each with P(detect) ** power."""
        ids = [v.object.id for v in self.visible]
        return uniforms(self.key, stream, ids) < self.probability**power


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

    def relabel(self, key: int, stream: str, visible: list[VisibleObject], rate: float) -> list[str]:
        """Each object's category, or with probability `rate` one of its look-alikes (uniformly)."""
        ids = [v.object.id for v in visible]
        confused = uniforms(key, f"{stream}/confused", ids) < rate
        pick = uniforms(key, f"{stream}/pick", ids)
        labels = []
        for item, swap, u in zip(visible, confused, pick):
            category = normalise_label(item.object.category)
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

    def view(self, obs: Observation) -> FrameView:
        """The frame's view (computed on the first request for this frame, then shared)."""
        visible = self.truth.visible(obs, self.min_pixels)  # also resets the memo on a new frame
        memo = self.truth.scene.memo
        key = ("simulated", id(self))
        if key not in memo.results:
            memo.results[key] = self._compute(obs, visible)
        found: FrameView = memo.results[key]
        return found

    def _compute(self, obs: Observation, visible: list[VisibleObject]) -> FrameView:
        model = self.model
        key = frame_key(model.seed, self.scene_id, obs)
        features = object_features(obs, visible, model.fill)
        categories = [normalise_label(v.object.category) for v in visible]
        probability = model.probability(
            features.side_px,
            features.visible_fraction,
            features.distance_m,
            features.elevation_deg,
            model.class_logits(categories),
            np.array([self._instance_z.get(v.object.id, 0.0) for v in visible], dtype=np.float64),
        )
        labels = self.look_alikes.relabel(key, "detector", visible, model.confusion)
        return FrameView(key, visible, features, probability, labels)


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
