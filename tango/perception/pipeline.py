"""The detection pipeline of the paper: route COCO labels to DETR and others to OWL, NMS, then the CLIP filter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import torch
import torchvision

from tango.agent.observation import Observation
from tango.perception.detections import Detections, concat
from tango.perception.detr import DetrDetector


class Detector(Protocol):
    """Anything with `detect(obs, labels) -> Detections`."""

    def detect(self, obs: Observation, labels: list[str]) -> Detections: ...


def nms(detections: Detections, iou_threshold: float) -> Detections:
    """Per-label non-maximum suppression (torchvision), highest score first."""
    if len(detections) < 2:
        return detections
    names = sorted(set(detections.labels))
    groups = torch.tensor([names.index(label) for label in detections.labels])
    keep = torchvision.ops.batched_nms(
        torch.from_numpy(detections.boxes).float(),
        torch.from_numpy(detections.scores).float(),
        groups,
        iou_threshold,
    )
    return detections.select(keep.numpy())


class DetectionPipeline:
    """OWL for open-vocabulary labels, DETR (when configured) for its own COCO labels, NMS, optional filter."""

    def __init__(
        self,
        open_vocabulary: Detector,
        coco: DetrDetector | None,
        nms_iou: float,
        post_filter: Callable[[Observation, Detections], Detections] | None = None,
    ) -> None:
        self.open_vocabulary = open_vocabulary
        self.coco = coco
        self.nms_iou = nms_iou
        self.post_filter = post_filter

    def route(self, labels: list[str]) -> tuple[list[str], list[str]]:
        """(labels for DETR, labels for the open-vocabulary detector)."""
        coco = [label for label in labels if self.coco is not None and self.coco.handles(label)]
        return coco, [label for label in labels if label not in coco]

    def detect(self, obs: Observation, labels: list[str]) -> Detections:
        """All detections of `labels` after routing, NMS and filtering."""
        coco_labels, open_labels = self.route(labels)
        parts = []
        if coco_labels and self.coco is not None:
            parts.append(self.coco.detect(obs, coco_labels))
        if open_labels:
            parts.append(self.open_vocabulary.detect(obs, open_labels))
        detections = nms(concat(parts), self.nms_iou)
        if self.post_filter is not None:
            detections = self.post_filter(obs, detections)
        return detections.sorted_by_score()
