"""Open-vocabulary detection with OWLv2 or OWL-ViT (transformers), loaded once per process."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from tango.perception.detections import Detections
from tango.perception.models import Placement, cached, load_pretrained
from tango.types.observation import Observation

OWL_CLASSES = {"owlv2": "Owlv2ForObjectDetection", "owlvit": "OwlViTForObjectDetection"}


def load_owl(kind: str, path: str, where: Placement) -> tuple[Any, Any]:
    """(processor, model) for `kind` in owlv2|owlvit from a local folder or hub id, in eval mode on `where`."""
    import transformers

    if kind not in OWL_CLASSES:
        raise ValueError(f"unknown OWL detector kind {kind!r}; expected one of {sorted(OWL_CLASSES)}")
    model_class = getattr(transformers, OWL_CLASSES[kind])

    def load() -> tuple[Any, Any]:
        processor = load_pretrained(transformers.AutoProcessor.from_pretrained, path, f"{kind} processor")
        model = load_pretrained(
            lambda p: model_class.from_pretrained(p, dtype=where.dtype), path, f"{kind} model"
        )
        return processor, model.to(where.device).eval()

    return cached((kind, path, where), load)


class OwlDetector:
    """Text-queried boxes from OWLv2/OWL-ViT; each label is one query, scores are the model's sigmoid logits."""

    def __init__(self, kind: str, path: str, threshold: float, where: Placement) -> None:
        self.kind = kind
        self.path = path
        self.threshold = threshold
        self.where = where
        self.processor, self.model = load_owl(kind, path, where)

    @torch.inference_mode()
    def detect(self, obs: Observation, labels: list[str]) -> Detections:
        """Boxes for `labels` in `obs.rgb`, with world points from depth."""
        if not labels:
            return Detections.empty()
        inputs = self.processor(text=[list(labels)], images=obs.rgb, truncation=True, return_tensors="pt")
        inputs = {
            k: v.to(self.where.device, self.where.dtype if v.is_floating_point() else v.dtype)
            for k, v in inputs.items()
        }
        outputs = self.model(**inputs)
        outputs.logits = outputs.logits.float()
        outputs.pred_boxes = outputs.pred_boxes.float()
        side = max(obs.height, obs.width)
        # OWLv2 pads the image to a square before resizing, so its boxes are relative to the padded square.
        size = (side, side) if self.kind == "owlv2" else (obs.height, obs.width)
        result = self.processor.post_process_grounded_object_detection(
            outputs, threshold=self.threshold, target_sizes=[size], text_labels=[list(labels)]
        )[0]
        boxes = result["boxes"].cpu().numpy().reshape(-1, 4)
        boxes[:, [0, 2]] = np.clip(boxes[:, [0, 2]], 0, obs.width)
        boxes[:, [1, 3]] = np.clip(boxes[:, [1, 3]], 0, obs.height)
        names = [labels[int(i)] for i in result["labels"].cpu().numpy()]
        return Detections.from_boxes(obs, boxes, result["scores"].cpu().numpy(), names)
