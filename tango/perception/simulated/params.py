"""The error model of simulated perception: its parameters, their defaults, and the detection probability.

Every default is listed with its source (or "chosen, not fitted") in docs/perception_simulated.md and in
configs/perception/simulated.yaml, which sets them explicitly; a component's `options` in the preset override
them (unknown keys are an error naming them). Probabilities are logistic in a sum of terms (log-odds), so each
term reads as "this factor multiplies the odds of detection by exp(term)".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tango.config_utils import dataclass_from_dict

COCO_FRAME_PIXELS = 640 * 480
"""COCO's typical image size: apparent sizes are rescaled to it before the COCO size scale is applied."""


@dataclass
class DetectionModel:
    """P(detect) of one visible object, and what a detection looks like.

    logit P = base_logit + class_logit[category] + instance_sigma * z_instance
              + size_slope * min(0, ln(side / size_full_px))
              + visibility_slope * ln(max(visible_fraction, visibility_floor))
              - distance_slope * max(0, distance_m - distance_free_m)
              - angle_slope * max(0, |elevation| - angle_free_deg) / 30 deg
    `side` is sqrt(visible pixels) rescaled to a 640x480 frame (COCO's scale); `visible_fraction` is the visible
    pixels over `fill` times the area of the object's projected 3D box (occlusion and truncation by the frame);
    `elevation` is the angle of the ray to the object's centre above or below the horizontal; z_instance is one
    standard normal per object and seed (some instances are hard from every view, as real ones are).
    """

    seed: int = 0
    base_logit: float = 2.2
    size_full_px: float = 96.0
    size_slope: float = 2.0
    fill: float = 0.6
    visibility_slope: float = 1.5
    visibility_floor: float = 0.05
    distance_free_m: float = 3.0
    distance_slope: float = 0.5
    angle_free_deg: float = 30.0
    angle_slope: float = 1.0
    instance_sigma: float = 1.0
    class_logit: dict[str, float] = field(default_factory=dict)
    confusion: float = 0.1
    look_alikes: dict[str, list[str]] = field(default_factory=dict)
    false_positives_per_frame: float = 0.05
    false_positive_slots: int = 2
    false_positive_side_px: list[float] = field(default_factory=lambda: [16.0, 96.0])
    true_score_beta: list[float] = field(default_factory=lambda: [6.0, 2.0])
    false_score_beta: list[float] = field(default_factory=lambda: [2.0, 5.0])
    box_jitter: float = 0.08

    def __post_init__(self) -> None:
        if not 0.0 <= self.confusion <= 1.0:
            raise ValueError(f"simulated detector: confusion must be in [0, 1], got {self.confusion}")
        if not 0.0 <= self.false_positives_per_frame <= self.false_positive_slots:
            raise ValueError(
                "simulated detector: false_positives_per_frame must be in [0, false_positive_slots], got "
                f"{self.false_positives_per_frame} with {self.false_positive_slots} slots"
            )
        for name in ("true_score_beta", "false_score_beta", "false_positive_side_px"):
            values = getattr(self, name)
            if len(values) != 2 or min(values) <= 0:
                raise ValueError(f"simulated detector: {name} needs two positive numbers, got {values}")

    def logit(
        self,
        side_px: np.ndarray,
        visible_fraction: np.ndarray,
        distance_m: np.ndarray,
        elevation_deg: np.ndarray,
        class_logit: np.ndarray,
        instance_z: np.ndarray,
    ) -> np.ndarray:
        """(N,) log-odds of detection from each object's features (arrays of one length)."""
        size = self.size_slope * np.minimum(0.0, np.log(np.maximum(side_px, 1e-3) / self.size_full_px))
        visible = self.visibility_slope * np.log(np.clip(visible_fraction, self.visibility_floor, 1.0))
        distance = -self.distance_slope * np.maximum(0.0, distance_m - self.distance_free_m)
        angle = -self.angle_slope * np.maximum(0.0, np.abs(elevation_deg) - self.angle_free_deg) / 30.0
        return (
            self.base_logit
            + class_logit
            + self.instance_sigma * instance_z
            + size
            + visible
            + distance
            + angle
        )

    def probability(self, *features: np.ndarray) -> np.ndarray:
        """(N,) P(detect): the logistic of `logit(*features)`."""
        return np.asarray(1.0 / (1.0 + np.exp(-self.logit(*features))), dtype=np.float64)

    def class_logits(self, categories: list[str]) -> np.ndarray:
        """(N,) per-class log-odds offsets (0 for a class the table does not name)."""
        return np.array([float(self.class_logit.get(c, 0.0)) for c in categories], dtype=np.float64)


@dataclass
class ScorerNoise:
    """The simulated value scorer: each object in view is noticed with its detection probability raised to
    `notice_power` (< 1: a whole-image scorer notices more than a thresholded detector), may be named by a
    look-alike (`confusion`, the detector's groups), and the MiniLM similarity gets Gaussian noise.

    MiniLM similarities at or below `related_floor` say nothing about the prompt (0: the raw similarity); above
    it they are rescaled so that the prompt's best match among the scene's categories scores 1. The rooms in
    view (each named as another room type of the scene with probability `room_confusion`) add `room_context`
    times the rescaled similarity of the prompt to what `room_objects` says such a room holds (0: no room
    term), as a whole-image vision-language score rises for a bathroom view when asked about a toilet."""

    seed: int = 0
    notice_power: float = 0.5
    confusion: float = 0.1
    noise_sigma: float = 0.1
    embedding_noise: float = 0.3
    related_floor: float = 0.0
    room_context: float = 0.0
    room_confusion: float = 0.0
    room_objects: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0.0 <= self.related_floor < 0.9:
            raise ValueError(f"simulated scorer: related_floor must be in [0, 0.9), got {self.related_floor}")
        if not 0.0 <= self.room_context <= 1.0 or not 0.0 <= self.room_confusion <= 1.0:
            raise ValueError(
                "simulated scorer: room_context and room_confusion must be in [0, 1], got "
                f"{self.room_context} and {self.room_confusion}"
            )


@dataclass
class RoomNoise:
    """The simulated room classifier: the annotated room, replaced by one of its look-alikes with probability
    `confusion` (per view), or by any other room type with probability `other`."""

    seed: int = 0
    confusion: float = 0.15
    other: float = 0.05
    look_alikes: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class DescriptionNoise:
    """The simulated description matcher: a true match is missed with probability `miss`; an observed instance
    of the described category that does not fit the description is accepted with probability `false_accept`."""

    seed: int = 0
    miss: float = 0.15
    false_accept: float = 0.1


def parse(cls: type[Any], options: dict[str, Any], what: str) -> Any:
    """One of the models above from a component's `options` (unknown keys: ValueError naming them)."""
    return dataclass_from_dict(cls, dict(options or {}), f"perception.{what}.options")
