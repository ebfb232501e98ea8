"""Closed-set detection of COCO categories with DETR (transformers); the routing target for COCO labels."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from tango.perception.detections import Detections, normalise_label
from tango.perception.models import Placement, cached, load_pretrained
from tango.types.observation import Observation


def load_detr(path: str, where: Placement) -> tuple[Any, Any]:
    """(image processor, DetrForObjectDetection) from a local folder or hub id, in eval mode on `where`."""
    import transformers

    def load() -> tuple[Any, Any]:
        processor = load_pretrained(transformers.AutoImageProcessor.from_pretrained, path, "DETR processor")
        model_class: Any = transformers.DetrForObjectDetection
        model = load_pretrained(
            lambda p: model_class.from_pretrained(p, dtype=where.dtype), path, "DETR model"
        )
        return processor, model.to(where.device).eval()

    return cached(("detr", path, where), load)


class DetrDetector:
    """DETR boxes restricted to the requested labels; `vocabulary` is the checkpoint's own label set."""

    def __init__(self, path: str, threshold: float, where: Placement) -> None:
        self.path = path
        self.threshold = threshold
        self.where = where
        self.processor, self.model = load_detr(path, where)
        id2label: dict[int, str] = self.model.config.id2label
        self.vocabulary = {
            normalise_label(name) for name in id2label.values() if not name.startswith("LABEL_")
        }

    def handles(self, label: str) -> bool:
        """Whether `label` is one of the checkpoint's categories (the paper routes those to DETR)."""
        return normalise_label(label) in self.vocabulary

    @torch.inference_mode()
    def detect(self, obs: Observation, labels: list[str]) -> Detections:
        """Boxes of the checkpoint's categories that are among `labels`."""
        wanted = {normalise_label(label): label for label in labels}
        if not wanted:
            return Detections.empty()
        inputs = self.processor(images=obs.rgb, return_tensors="pt")
        pixel_values = inputs["pixel_values"].to(self.where.device, self.where.dtype)
        pixel_mask = inputs.get("pixel_mask")
        outputs = self.model(
            pixel_values=pixel_values,
            pixel_mask=None if pixel_mask is None else pixel_mask.to(self.where.device),
        )
        outputs.logits = outputs.logits.float()
        outputs.pred_boxes = outputs.pred_boxes.float()
        result = self.processor.post_process_object_detection(
            outputs, threshold=self.threshold, target_sizes=[(obs.height, obs.width)]
        )[0]
        id2label = self.model.config.id2label
        keep: list[int] = []
        names: list[str] = []
        for i, class_id in enumerate(result["labels"].cpu().numpy()):
            name = normalise_label(id2label[int(class_id)])
            if name in wanted:
                keep.append(i)
                names.append(wanted[name])
        boxes = result["boxes"].cpu().numpy().reshape(-1, 4)[keep]
        boxes[:, [0, 2]] = np.clip(boxes[:, [0, 2]], 0, obs.width)
        boxes[:, [1, 3]] = np.clip(boxes[:, [1, 3]], 0, obs.height)
        return Detections.from_boxes(obs, boxes, result["scores"].cpu().numpy()[keep], names)
