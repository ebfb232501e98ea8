"""The `Detections` record that every detector returns, and the helpers primitives use on it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from tango.perception.geometry import box_point, mask_point
from tango.types.observation import Observation


@dataclass
class Detections:
    """N detections in one frame: xyxy pixel boxes, scores, labels, optional masks, instance ids, world points.

    `instance_ids` is -1 unless an oracle filled it; `points` are world coordinates (NaN where depth was invalid).
    """

    boxes: np.ndarray
    scores: np.ndarray
    labels: list[str]
    points: np.ndarray
    instance_ids: np.ndarray
    masks: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.labels)
        self.boxes = np.asarray(self.boxes, dtype=np.float32).reshape(n, 4)
        self.scores = np.asarray(self.scores, dtype=np.float32).reshape(n)
        self.points = np.asarray(self.points, dtype=np.float64).reshape(n, 3)
        self.instance_ids = np.asarray(self.instance_ids, dtype=np.int64).reshape(n)
        if self.masks is not None and len(self.masks) != n:
            raise ValueError(f"Detections: {len(self.masks)} masks for {n} labels")

    @classmethod
    def empty(cls) -> Detections:
        """No detections."""
        return cls(np.zeros((0, 4)), np.zeros(0), [], np.zeros((0, 3)), np.zeros(0, dtype=np.int64))

    @classmethod
    def from_boxes(
        cls,
        obs: Observation,
        boxes: np.ndarray,
        scores: np.ndarray,
        labels: list[str],
        masks: np.ndarray | None = None,
        instance_ids: np.ndarray | None = None,
    ) -> Detections:
        """Build a record, computing each world point from the depth under its mask (or its box centre)."""
        n = len(labels)
        boxes = np.asarray(boxes, dtype=np.float32).reshape(n, 4)
        if masks is not None:
            points = np.array([mask_point(obs, m) for m in masks]).reshape(n, 3)
        else:
            points = np.array([box_point(obs, b) for b in boxes]).reshape(n, 3)
        ids = np.full(n, -1, dtype=np.int64) if instance_ids is None else instance_ids
        return cls(boxes, scores, list(labels), points, ids, masks)

    def __len__(self) -> int:
        return len(self.labels)

    def select(self, index: np.ndarray | list[int]) -> Detections:
        """The detections at `index` (integer indices or a boolean mask), in that order."""
        chosen = np.asarray(index)
        if chosen.dtype != bool:
            chosen = chosen.astype(np.int64)
        idx = np.arange(len(self))[chosen] if len(self) else np.zeros(0, dtype=np.int64)
        masks = None if self.masks is None else self.masks[idx]
        return Detections(
            self.boxes[idx], self.scores[idx], [self.labels[i] for i in idx], self.points[idx],
            self.instance_ids[idx], masks,
        )  # fmt: skip

    def with_label(self, label: str) -> Detections:
        """Only detections whose label equals `label` (case-insensitive)."""
        wanted = normalise_label(label)
        return self.select([i for i, name in enumerate(self.labels) if normalise_label(name) == wanted])

    def above(self, min_score: float) -> Detections:
        """Only detections scoring at least `min_score`."""
        return self.select(self.scores >= min_score)

    def sorted_by_score(self) -> Detections:
        """Highest score first."""
        return self.select(np.argsort(-self.scores, kind="stable"))

    def with_points(self) -> Detections:
        """Only detections with a valid world point (depth was available)."""
        return self.select(np.all(np.isfinite(self.points), axis=1))

    def nearest_to(self, position: np.ndarray) -> int:
        """Index of the detection with a valid point closest to `position` in the floor plane; -1 if none."""
        valid = np.all(np.isfinite(self.points), axis=1)
        if not np.any(valid):
            return -1
        delta = self.points[:, [0, 2]] - np.asarray(position, dtype=np.float64)[[0, 2]]
        distances = np.where(valid, np.linalg.norm(delta, axis=1), np.inf)
        return int(np.argmin(distances))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary for traces (no masks)."""
        return {
            "boxes": np.round(self.boxes, 1).tolist(),
            "scores": np.round(self.scores, 4).tolist(),
            "labels": list(self.labels),
            "instance_ids": self.instance_ids.tolist(),
            "points": [None if not np.all(np.isfinite(p)) else np.round(p, 3).tolist() for p in self.points],
        }


LABELS_KEPT = 8192
"""Normalised labels remembered (the same few hundred category, room and attribute names are normalised tens of
times per step by the oracle's description matching)."""


@lru_cache(maxsize=LABELS_KEPT)
def normalise_label(label: str) -> str:
    """Lower-case, single-spaced, underscores as spaces: how labels are compared everywhere."""
    return " ".join(label.replace("_", " ").lower().split())


def concat(parts: list[Detections]) -> Detections:
    """All detections of `parts` in one record (masks kept only if every part has them)."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return Detections.empty()
    masks = None
    if all(p.masks is not None for p in parts):
        masks = np.concatenate([p.masks for p in parts if p.masks is not None])
    return Detections(
        np.concatenate([p.boxes for p in parts]),
        np.concatenate([p.scores for p in parts]),
        [label for p in parts for label in p.labels],
        np.concatenate([p.points for p in parts]),
        np.concatenate([p.instance_ids for p in parts]),
        masks,
    )


def is_found(detections: Detections, label: str, min_score: float = 0.0) -> bool:
    """Whether any detection of `label` scores at least `min_score` (the `is_found` primitive's test)."""
    return len(detections.with_label(label).above(min_score)) > 0


def count_instances(detections: Detections, merge_radius_m: float = 0.5) -> int:
    """Distinct objects: by instance id where known, otherwise points closer than `merge_radius_m` are one."""
    known = {int(i) for i in detections.instance_ids if i >= 0}
    unknown = detections.select(detections.instance_ids < 0)
    centres: list[np.ndarray] = []
    for point in unknown.points:
        if not np.all(np.isfinite(point)):
            centres.append(point)
            continue
        if all(not np.all(np.isfinite(c)) or np.linalg.norm(c - point) > merge_radius_m for c in centres):
            centres.append(point)
    return len(known) + len(centres)
