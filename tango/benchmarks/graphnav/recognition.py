"""Landmark recognition in node views: which landmark (if any) ends the corridor in each sub-view.

`OracleLandmarks` reads the simulator's semantic sensor (ground truth; the name says oracle). `ClipLandmarks`
uses only RGB: an open_clip image embedding per sub-view, wall vs corridor by the nearer of the few-shot wall
and path examples, and landmark identity by cosine match against a gallery that grows as new landmarks appear.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from tango.benchmarks.graphnav.availability import NoRecognizer
from tango.benchmarks.graphnav.views import NodeView

Reading = list[str | None]  # per slot (left, front, right): a landmark key, or None for a wall


class LandmarkRecognizer(Protocol):
    """Turns views into landmark keys; keys are stable within an episode."""

    def read_view(self, view: NodeView) -> Reading: ...

    def read_destination(self, view: NodeView) -> str | None: ...


@dataclass
class OracleLandmarks:
    """Landmark ids from the semantic frame: in each sub-view the nearest instance with enough pixels."""

    min_pixels: int = 1

    def _nearest(self, view: NodeView) -> str | None:
        if view.semantic is None:
            raise NoRecognizer(
                "oracle landmark recognition needs the semantic sensor (published renders have none)"
            )
        ids, counts = np.unique(view.semantic[view.semantic > 0], return_counts=True)
        candidates = [int(i) for i, c in zip(ids, counts) if c >= self.min_pixels]
        if not candidates:
            return None
        if view.depth is None:
            return f"L{candidates[0]}"
        depths = {i: float(np.median(view.depth[view.semantic == i])) for i in candidates}
        return f"L{min(candidates, key=lambda i: depths[i])}"

    def read_view(self, view: NodeView) -> Reading:
        return [self._nearest(view.sub_view(index)) for index in range(3)]

    def read_destination(self, view: NodeView) -> str | None:
        if view.semantic is None:
            raise NoRecognizer(
                "oracle landmark recognition needs the semantic sensor (published renders have none)"
            )
        ids, counts = np.unique(view.semantic[view.semantic > 0], return_counts=True)
        return f"L{int(ids[np.argmax(counts)])}" if len(ids) else None


class ImageEmbedder(Protocol):
    """Maps RGB images to unit-norm embedding vectors."""

    def embed(self, images: list[np.ndarray]) -> np.ndarray: ...


class OpenClipEmbedder:
    """open_clip image tower: a named architecture with weights from a local file (or random for tests)."""

    def __init__(self, model_name: str, pretrained: str = "", device: str = "cpu") -> None:
        import open_clip
        import torch

        from tango.devices import resolve_device

        model, _, preprocess = open_clip.create_model_and_transforms(
            model_name, pretrained=pretrained or None
        )
        self.device = resolve_device(device, "graphnav.clip.device")
        self.model: Any = model.eval().to(self.device)
        self.preprocess = preprocess
        self._torch = torch

    def embed(self, images: list[np.ndarray]) -> np.ndarray:
        from PIL import Image

        batch = self._torch.stack([self.preprocess(Image.fromarray(image)) for image in images]).to(
            self.device
        )
        with self._torch.no_grad():
            features = self.model.encode_image(batch).float()
        features = features / features.norm(dim=-1, keepdim=True).clamp_min(1e-8)
        return features.cpu().numpy()


@dataclass
class ClipLandmarks:
    """Image-embedding recognition: wall/path by few-shot prototypes, identity by gallery cosine >= threshold."""

    embedder: ImageEmbedder
    wall_examples: list[np.ndarray]
    path_examples: list[np.ndarray]
    match_threshold: float = 0.9
    gallery: list[np.ndarray] = field(default_factory=list)
    _prototypes: tuple[np.ndarray, np.ndarray] | None = None

    def _walls_and_paths(self) -> tuple[np.ndarray, np.ndarray]:
        if self._prototypes is None:
            walls = self.embedder.embed(self.wall_examples).mean(axis=0)
            paths = self.embedder.embed(self.path_examples).mean(axis=0)
            self._prototypes = (walls, paths)
        return self._prototypes

    def _identify(self, embedding: np.ndarray) -> str:
        if self.gallery:
            scores = np.array([float(embedding @ known) for known in self.gallery])
            best = int(np.argmax(scores))
            if scores[best] >= self.match_threshold:
                return f"L{best}"
        self.gallery.append(embedding)
        return f"L{len(self.gallery) - 1}"

    def read_view(self, view: NodeView) -> Reading:
        subs = [view.sub_view(index).rgb for index in range(3)]
        embeddings = self.embedder.embed(subs)
        walls, paths = self._walls_and_paths()
        reading: Reading = []
        for embedding in embeddings:
            is_path = float(embedding @ paths) > float(embedding @ walls)
            reading.append(self._identify(embedding) if is_path else None)
        return reading

    def read_destination(self, view: NodeView) -> str | None:
        return self._identify(self.embedder.embed([view.rgb])[0])
