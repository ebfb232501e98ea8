"""Closed-set detection with a Darknet YOLO (e.g. YOLOv3-tiny on COCO) through OpenCV DNN (`readNetFromDarknet`).

`perception.detector.path` is a folder holding one `*.cfg`, one `*.weights` and one `*.names` file (nothing is
downloaded). A queried label is detected when it names one of the model's classes: spaces and case do not
matter ("dining table" is Darknet's "diningtable"), and `ALIASES` (extendable with `options.aliases`) maps our
category names onto COCO's ("couch" is "sofa"). Options: `input_size` (pixels, multiple of 32; default: the
cfg's own), `aliases` ({label: class name}).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tango.perception.config import DetectorConfig
from tango.perception.context import BuildContext
from tango.perception.detections import Detections, normalise_label
from tango.perception.models import ModelLoadError, cached
from tango.perception.registry import register
from tango.types.observation import Observation

ALIASES = {"couch": "sofa", "plant": "pottedplant", "tv": "tvmonitor", "table": "diningtable"}


def class_key(name: str) -> str:
    """A class or label name compared without case, spaces or separators."""
    return normalise_label(name).replace(" ", "")


@dataclass(frozen=True)
class DarknetFiles:
    """The three files of a Darknet model folder."""

    cfg: Path
    weights: Path
    names: Path

    @classmethod
    def find(cls, folder: str) -> DarknetFiles:
        """The single .cfg, .weights and .names files in `folder` (ModelLoadError naming what is missing)."""
        root = Path(folder)
        if not root.is_dir():
            raise ModelLoadError(f"yolo: perception.detector.path={folder!r} is not a folder")
        found = {}
        for suffix in ("cfg", "weights", "names"):
            matches = sorted(root.glob(f"*.{suffix}"))
            if len(matches) != 1:
                raise ModelLoadError(
                    f"yolo: {root} must hold exactly one *.{suffix} file, found {len(matches)}"
                )
            found[suffix] = matches[0]
        return cls(found["cfg"], found["weights"], found["names"])


def load_darknet(files: DarknetFiles) -> Any:
    """The OpenCV DNN network of a Darknet model, loaded once per process."""

    def load() -> Any:
        try:
            return cv2.dnn.readNetFromDarknet(str(files.cfg), str(files.weights))
        except cv2.error as error:
            raise ModelLoadError(
                f"yolo: OpenCV cannot read {files.cfg} / {files.weights}: {error}"
            ) from error

    return cached(("darknet", str(files.cfg), str(files.weights)), load)


def network_input_size(cfg: Path) -> int:
    """The `width` of the cfg's [net] section (YOLO inputs are square)."""
    for line in cfg.read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "width":
            return int(value)
    raise ModelLoadError(f"yolo: {cfg} has no width in its [net] section")


class YoloDetector:
    """Boxes of the model's classes that the queried labels name, after per-class NMS; scores are the YOLO
    class confidences (objectness x class probability)."""

    def __init__(
        self, files: DarknetFiles, threshold: float, nms_iou: float, input_size: int, aliases: dict[str, str]
    ) -> None:
        self.net = load_darknet(files)
        self.outputs = list(self.net.getUnconnectedOutLayersNames())
        self.classes = [line.strip() for line in files.names.read_text().splitlines() if line.strip()]
        self.index = {class_key(name): i for i, name in enumerate(self.classes)}
        self.aliases = {class_key(k): class_key(v) for k, v in aliases.items()}
        self.threshold = threshold
        self.nms_iou = nms_iou
        self.input_size = input_size

    def class_of(self, label: str) -> int | None:
        """The model class a label names, if any."""
        key = class_key(label)
        return self.index.get(key, self.index.get(self.aliases.get(key, ""), None))

    def detect(self, obs: Observation, labels: list[str]) -> Detections:
        """Detections of the queried labels that the model knows, labelled with the query."""
        wanted = {cls: label for label in labels if (cls := self.class_of(label)) is not None}
        if not wanted:
            return Detections.empty()
        size = (self.input_size, self.input_size)
        blob = cv2.dnn.blobFromImage(
            np.ascontiguousarray(obs.rgb), 1.0 / 255.0, size, swapRB=False, crop=False
        )
        self.net.setInput(blob)
        rows = np.concatenate([out.reshape(-1, out.shape[-1]) for out in self.net.forward(self.outputs)])
        class_scores = rows[:, 5:]
        classes = class_scores.argmax(axis=1)
        scores = class_scores[np.arange(len(rows)), classes]
        keep = (scores >= self.threshold) & np.isin(classes, list(wanted))
        rows, classes, scores = rows[keep], classes[keep], scores[keep]
        boxes = _xyxy(rows[:, :4], obs.width, obs.height)
        chosen = _per_class_nms(boxes, scores, classes, self.threshold, self.nms_iou)
        names = [wanted[int(classes[i])] for i in chosen]
        return Detections.from_boxes(obs, boxes[chosen], scores[chosen], names)


def _xyxy(centres: np.ndarray, width: int, height: int) -> np.ndarray:
    """Normalised (cx, cy, w, h) rows as pixel xyxy boxes clipped to the frame."""
    cx, cy, w, h = (centres[:, i] for i in range(4))
    boxes = np.stack(
        [(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height], 1
    )
    boxes[:, [0, 2]] = np.clip(boxes[:, [0, 2]], 0, width)
    boxes[:, [1, 3]] = np.clip(boxes[:, [1, 3]], 0, height)
    return boxes.astype(np.float32)


def _per_class_nms(
    boxes: np.ndarray, scores: np.ndarray, classes: np.ndarray, threshold: float, iou: float
) -> list[int]:
    """Indices kept by OpenCV's NMS within each class, best score first."""
    kept: list[int] = []
    for cls in np.unique(classes):
        index = np.flatnonzero(classes == cls)
        xywh = [[float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])] for b in boxes[index]]
        chosen = cv2.dnn.NMSBoxes(xywh, [float(s) for s in scores[index]], threshold, iou)
        kept.extend(int(index[i]) for i in np.asarray(chosen).reshape(-1))
    return sorted(kept, key=lambda i: -float(scores[i]))


@register("detector", "yolo")
def yolo_detector(config: DetectorConfig, ctx: BuildContext) -> YoloDetector:
    files = DarknetFiles.find(config.path)
    options = dict(config.options)
    unknown = sorted(set(options) - {"input_size", "aliases"})
    if unknown:
        raise ValueError(
            f"perception.detector.options for yolo: unknown {unknown}; known: input_size, aliases"
        )
    input_size = int(options.get("input_size") or network_input_size(files.cfg))
    aliases = {**ALIASES, **dict(options.get("aliases") or {})}
    return YoloDetector(files, config.threshold, config.nms_iou, input_size, aliases)
