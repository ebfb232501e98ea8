"""Sentence embeddings kept on disk between runs, so that a run whose texts were all encoded before loads no
sentence model (importing sentence-transformers and loading MiniLM is most of a worker's start-up).

An entry is one encoded batch (a text's embedding differs in its last bits with the texts it is batched with),
stored under a key of everything that decides those bits: the model folder's files (names, sizes, modification
times), the versions of torch, transformers and sentence-transformers, the device, torch's thread count and
the batch itself. Entries are written atomically; a file that cannot be read or written is a miss.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from importlib import metadata
from pathlib import Path

import numpy as np
import torch

from tango.cache import cache_root

LOG = logging.getLogger(__name__)
STORE_DIR = "text-embeddings"
STORE_VERSION = 1
"""Changes whenever what an entry holds changes (e.g. the encode options), so old entries are never read."""
LIBRARIES = ("torch", "transformers", "sentence-transformers")


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return ""


class EmbeddingStore:
    """The stored batches of one model folder on one device (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def for_model(cls, model_folder: str, device: str, root: Path | None = None) -> EmbeddingStore | None:
        """The store of a local model folder (None for a hub id: its files are not known here)."""
        model = Path(model_folder)
        if not model.is_dir():
            return None
        files = sorted(
            (str(path.relative_to(model)), path.stat().st_size, path.stat().st_mtime_ns)
            for path in model.rglob("*")
            if path.is_file()
        )
        key = {
            "version": STORE_VERSION,
            "model": str(model.resolve()),
            "files": files,
            "libraries": {name: _version(name) for name in LIBRARIES},
            "device": device,
            "threads": torch.get_num_threads(),
        }
        return cls((root or cache_root()) / STORE_DIR / _digest(key)[:24])

    def _path(self, texts: tuple[str, ...]) -> Path:
        return self.folder / f"{_digest(list(texts))}.npy"

    def get(self, texts: tuple[str, ...]) -> np.ndarray | None:
        """The stored embeddings of exactly this batch, or None."""
        path = self._path(texts)
        try:
            vectors = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        return vectors if vectors.shape[0] == len(texts) else None

    def put(self, texts: tuple[str, ...], vectors: np.ndarray) -> None:
        """Store the batch's embeddings (best effort: a read-only cache only costs the next run a model load)."""
        path = self._path(texts)
        partial = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npy")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            np.save(partial, vectors, allow_pickle=False)
            os.replace(partial, path)
        except OSError as error:
            LOG.debug("text embeddings not stored in %s: %s", self.folder, error)
