"""The detection pipeline of the paper: route COCO labels to DETR and others to OWL, NMS, then the CLIP filter.

Registered as the `owlv2` and `owlvit` detectors (`perception.detector.detr_path` adds DETR routing,
`perception.filter.kind=clip` the look-alike filter).
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from tango.perception.clip_filter import ClipFilter
from tango.perception.config import DetectorConfig
from tango.perception.context import BuildContext
from tango.perception.detections import Detections, concat
from tango.perception.detr import DetrDetector
from tango.perception.interfaces import Detector
from tango.perception.owl import OwlDetector
from tango.perception.registry import register
from tango.types.observation import Observation


def nms(detections: Detections, iou_threshold: float) -> Detections:
    """Per-label non-maximum suppression (torchvision), highest score first."""
    if len(detections) < 2:
        return detections
    import torchvision  # (3 s of imports, torch._dynamo among them: only for detector pipelines that run)

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


def open_vocabulary_pipeline(config: DetectorConfig, ctx: BuildContext) -> DetectionPipeline:
    """OWL (`config.kind` owlv2|owlvit) with optional DETR routing, NMS and the optional CLIP filter."""
    where = ctx.models.where
    owl = OwlDetector(config.kind, config.path, config.threshold, where)
    coco = DetrDetector(config.detr_path, config.detr_threshold, where) if config.detr_path else None
    flt = ctx.config.filter
    if flt.kind not in ("none", "clip"):
        raise ValueError(f"perception.filter.kind must be none or clip, got {flt.kind!r}")
    clip_filter = None
    if flt.kind == "clip":
        clip_filter = ClipFilter(
            ctx.models.clip(flt.clip), dict(flt.similar_classes), flt.threshold, flt.crop_padding
        )
    return DetectionPipeline(owl, coco, config.nms_iou, clip_filter)


register("detector", "owlv2")(open_vocabulary_pipeline)
register("detector", "owlvit")(open_vocabulary_pipeline)
