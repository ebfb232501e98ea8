"""SIMULATED detector: ground-truth detections degraded by the error model of `params.DetectionModel`.

A visible object is detected with a probability that falls with apparent size, occlusion, distance and viewing
angle (plus per-class and per-instance difficulty); a detection may carry a look-alike's label (couch as
armchair); each queried label also gets background false positives; true and false detections draw their
scores from different Beta distributions, and only scores from `threshold` are returned. Boxes are jittered,
instance ids are withheld (-1, as from a real detector), so the agent merges detections by nearness.

It reads ground truth (the semantic frame and the annotation), so it is registered as an oracle and named in
`oracle_components`: degraded ground truth, not a model.
"""

from __future__ import annotations

import numpy as np
from scipy.special import betaincinv

from tango.perception.config import DetectorConfig
from tango.perception.detections import Detections, normalise_label
from tango.perception.geometry import box_point
from tango.perception.oracle.detector import OracleDetector
from tango.perception.oracle.ground_truth import OracleContext
from tango.perception.registry import register
from tango.perception.simulated.draws import normals, uniforms
from tango.perception.simulated.params import COCO_FRAME_PIXELS, DetectionModel, parse
from tango.perception.simulated.view import FrameView, SimulatedEyes, eyes_for
from tango.types.observation import Observation


def beta_scores(u: np.ndarray, shape: list[float]) -> np.ndarray:
    """Scores with a Beta(a, b) distribution from uniforms (its inverse CDF)."""
    return np.asarray(betaincinv(shape[0], shape[1], u), dtype=np.float64)


class SimulatedDetector:
    """Detections of queried labels from the simulated view of a frame, plus background false positives."""

    def __init__(self, eyes: SimulatedEyes, labels: OracleDetector, threshold: float) -> None:
        self.eyes = eyes
        self.model = eyes.model
        self.labels = labels
        self.threshold = threshold

    def detect(self, obs: Observation, labels: list[str]) -> Detections:
        """Detections of any of `labels` (each labelled with the query it matched), best score first."""
        view = self.eyes.view(obs)
        parts = [self._true(obs, view, labels)]
        for query in dict.fromkeys(normalise_label(q) for q in labels):
            parts.append(self._false(obs, view, query))
        boxes = np.concatenate([p[0] for p in parts]).reshape(-1, 4)
        scores = np.concatenate([p[1] for p in parts])
        names = [name for p in parts for name in p[2]]
        points = np.concatenate([p[3] for p in parts]).reshape(-1, 3)
        masks = np.concatenate([p[4] for p in parts]).reshape(-1, obs.height, obs.width)
        keep = np.flatnonzero(scores >= self.threshold)
        keep = keep[np.argsort(-scores[keep], kind="stable")]
        return Detections(
            boxes[keep], scores[keep], [names[i] for i in keep], points[keep],
            np.full(len(keep), -1, dtype=np.int64), masks[keep],
        )  # fmt: skip

    def _true(self, obs: Observation, view: FrameView, labels: list[str]) -> tuple:
        """Detected objects whose (possibly confused) label answers a query."""
        chosen: list[int] = []
        names: list[str] = []
        for i in np.flatnonzero(view.noticed("detect")):
            query = next((q for q in labels if self.labels.matches(q, view.labels[i])), None)
            if query is not None:
                chosen.append(int(i))
                names.append(query)
        scores = beta_scores(view.draw("score")[chosen], self.model.true_score_beta)
        boxes = self._jitter(view, np.array(chosen, dtype=np.int64))
        masks = np.zeros((len(chosen), obs.height, obs.width), dtype=bool)
        for canvas, i in zip(masks, chosen):
            view.visible[i].paint(canvas)
        points = np.array([view.visible[i].point for i in chosen], dtype=np.float64).reshape(-1, 3)
        return boxes, scores, names, points, masks

    def _jitter(self, view: FrameView, chosen: np.ndarray) -> np.ndarray:
        """The objects' boxes, centre and size perturbed by `box_jitter` of their size (localisation error)."""
        if len(chosen) == 0:
            return np.zeros((0, 4))
        x0, y0, x1, y1 = np.stack([view.visible[i].box for i in chosen]).astype(np.float64).T
        jitter = self.model.box_jitter
        dx, dy, dw, dh = (view.normal(name)[chosen] * jitter for name in ("box_x", "box_y", "box_w", "box_h"))
        cx, cy = (x0 + x1) / 2 + dx * (x1 - x0), (y0 + y1) / 2 + dy * (y1 - y0)
        w, h = (x1 - x0) * np.exp(dw), (y1 - y0) * np.exp(dh)
        return np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)

    def _false(self, obs: Observation, view: FrameView, query: str) -> tuple:
        """Background false positives of one query: each of the model's slots fires with probability
        rate / slots, a box centred on a background pixel (no annotated object) with a log-uniform size."""
        model = self.model
        slots = np.arange(model.false_positive_slots)
        stream = f"false/{query}"
        fired = slots[uniforms(view.key, stream, slots) < model.false_positives_per_frame / len(slots)]
        if len(fired) == 0:
            return _nothing(obs)
        background = self._background(obs)
        if len(background) == 0:
            return _nothing(obs)
        where = background[(uniforms(view.key, f"{stream}/where", fired) * len(background)).astype(np.int64)]
        low, high = np.log(model.false_positive_side_px)
        side = np.exp(low + uniforms(view.key, f"{stream}/side", fired) * (high - low))
        side *= np.sqrt(obs.height * obs.width / COCO_FRAME_PIXELS)
        aspect = np.exp(0.3 * normals(view.key, f"{stream}/aspect", fired))
        rows, cols = np.divmod(where, obs.width)
        half_w, half_h = side * np.sqrt(aspect) / 2, side / np.sqrt(aspect) / 2
        boxes = np.stack([cols - half_w, rows - half_h, cols + half_w, rows + half_h], axis=1)
        boxes = np.clip(boxes, 0, [obs.width, obs.height, obs.width, obs.height])
        scores = beta_scores(uniforms(view.key, f"{stream}/score", fired), model.false_score_beta)
        masks = np.zeros((len(fired), obs.height, obs.width), dtype=bool)
        for canvas, (x0, y0, x1, y1) in zip(masks, boxes.astype(np.int64)):
            canvas[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)] = True
        points = np.array([box_point(obs, b) for b in boxes], dtype=np.float64).reshape(-1, 3)
        return boxes, scores, [query] * len(fired), points, masks

    def _background(self, obs: Observation) -> np.ndarray:
        """Flat indices of the pixels that show no annotated object (walls, floor, unannotated things)."""
        semantic = np.asarray(self.eyes.truth.semantic(obs.semantic, "the simulated detector's frame"))
        known = np.zeros(int(semantic.max(initial=0)) + 1, dtype=bool)
        ids = [i for i in self.eyes.truth.scene.objects if 0 <= i < len(known)]
        known[ids] = True
        return np.flatnonzero(~known[np.clip(semantic, 0, None)].ravel())


def _nothing(obs: Observation) -> tuple:
    return (
        np.zeros((0, 4)),
        np.zeros(0),
        [],
        np.zeros((0, 3)),
        np.zeros((0, obs.height, obs.width), dtype=bool),
    )


@register("detector", "simulated", oracle=True)
def simulated_detector(config: DetectorConfig, ctx: OracleContext) -> SimulatedDetector:
    """Degraded ground truth: the error model from `perception.detector.options` (params.DetectionModel)."""
    model = parse(DetectionModel, config.options, "detector")
    text = ctx.models.text("") if config.label_similarity > 0 else None
    truth = ctx.ground_truth
    labels = OracleDetector(truth.scene, config.min_pixels, config.label_similarity, text)
    return SimulatedDetector(eyes_for(truth, model, config.min_pixels), labels, config.threshold)
