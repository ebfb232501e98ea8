"""Compact per-cell image-embedding memory: one embedding per frame plus a per-cell index of the last frame
that saw the cell. Recalls exactly what a dense (size x size x dim) per-cell embedding map would."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tango.mapping.fov_patch import FovPatch
from tango.mapping.geometry import MapGrid

NO_FRAME = -1


@dataclass
class RecallResult:
    """Best-matching map cell for a query: its (row, col), world point, cosine score and source frame."""

    pixel: tuple[int, int]
    point: np.ndarray
    score: float
    frame_index: int


class FeatureMemory:
    """Remember, for every map cell a frame's field of view covered, the embedding of the latest such frame.

    The dense equivalent writes the frame embedding into every covered cell; here the cell stores the frame
    index (int32) and the embedding is stored once, so memory is size^2 * 4 bytes + frames * dim * 4 bytes.
    """

    def __init__(self, grid: MapGrid, dim: int, initial_frames: int = 64) -> None:
        self.grid = grid
        self.dim = dim
        self.cell_frame = np.full((grid.size, grid.size), NO_FRAME, np.int32)
        self._embeddings = np.zeros((initial_frames, dim), np.float32)
        self.num_frames = 0
        self._bounds: list[int] | None = None

    @property
    def embeddings(self) -> np.ndarray:
        """(frames, dim) stored frame embeddings, in the order they were added."""
        return self._embeddings[: self.num_frames]

    @property
    def nbytes(self) -> int:
        """Bytes held by the memory's arrays."""
        return int(self.cell_frame.nbytes + self._embeddings.nbytes)

    def add(self, embedding: np.ndarray, patch: FovPatch) -> int:
        """Store a frame's embedding for the cells where its patch confidence is positive; returns its index."""
        vector = np.asarray(embedding, np.float32).reshape(-1)
        if vector.shape[0] != self.dim:
            raise ValueError(f"feature memory stores {self.dim}-d embeddings, got {vector.shape[0]}")
        if self.num_frames == self._embeddings.shape[0]:
            grown = np.zeros((2 * self._embeddings.shape[0], self.dim), np.float32)
            grown[: self.num_frames] = self._embeddings
            self._embeddings = grown
        index = self.num_frames
        self._embeddings[index] = vector
        self.num_frames += 1
        h, w = patch.confidence.shape
        covered = patch.confidence > 0
        if covered.any():
            self.cell_frame[patch.row0 : patch.row0 + h, patch.col0 : patch.col0 + w][covered] = index
            self._grow_bounds(patch.row0, patch.row0 + h, patch.col0, patch.col0 + w)
        return index

    def _grow_bounds(self, r0: int, r1: int, c0: int, c1: int) -> None:
        if self._bounds is None:
            self._bounds = [r0, r1, c0, c1]
        else:
            b = self._bounds
            self._bounds = [min(b[0], r0), max(b[1], r1), min(b[2], c0), max(b[3], c1)]

    def recall(self, query: np.ndarray, threshold: float = -1.0, y: float = 0.0) -> RecallResult | None:
        """The cell whose embedding has the highest cosine similarity to the query (first in row-major order
        on ties), or None when nothing is stored, no stored embedding is non-zero, or the best score is below
        threshold."""
        if self._bounds is None:
            return None
        q = np.asarray(query, np.float32).reshape(-1)
        emb = self.embeddings
        norms = np.linalg.norm(emb, axis=1) * np.linalg.norm(q)
        scores = np.full(
            len(emb), -np.inf, np.float32
        )  # a frame without features (zero vector) matches nothing
        np.divide(emb @ q, norms, out=scores, where=norms > 0)
        r0, r1, c0, c1 = self._bounds
        window = self.cell_frame[r0:r1, c0:c1]
        cell_scores = np.where(window >= 0, scores[np.maximum(window, 0)], -np.inf)
        flat = int(np.argmax(cell_scores))
        best = float(cell_scores.flat[flat])
        if not np.isfinite(best) or best < threshold:
            return None
        row, col = divmod(flat, window.shape[1])
        row, col = row + r0, col + c0
        point = self.grid.pixel_to_world(np.array([[row, col]]), y)[0]
        return RecallResult((row, col), point, best, int(self.cell_frame[row, col]))
