"""The disk store of sentence embeddings: keyed by the model's files and the run's settings, read back exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from tango.perception.embedding_store import EmbeddingStore


def _model(folder: Path, weights: bytes = b"weights") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.safetensors").write_bytes(weights)
    (folder / "config.json").write_text("{}")
    return folder


def test_batches_are_read_back_to_the_bit(tmp_path: Path) -> None:
    store = EmbeddingStore.for_model(str(_model(tmp_path / "m")), "cpu", tmp_path / "cache")
    assert store is not None
    batch = ("chair", "a red chair")
    vectors = np.random.default_rng(0).random((2, 384)).astype(np.float32)
    assert store.get(batch) is None
    store.put(batch, vectors)
    got = store.get(batch)
    assert got is not None and got.dtype == np.float32 and np.array_equal(got, vectors)
    assert store.get(("a red chair", "chair")) is None  # another batch (order matters to the bits)


def _folder(model: Path, device: str, root: Path) -> Path:
    store = EmbeddingStore.for_model(str(model), device, root)
    assert store is not None
    return store.folder


def test_the_key_follows_the_model_files_device_and_threads(tmp_path: Path) -> None:
    model = _model(tmp_path / "m")
    first = _folder(model, "cpu", tmp_path)
    assert _folder(model, "cpu", tmp_path) == first
    assert _folder(model, "cuda", tmp_path) != first
    threads = torch.get_num_threads()
    torch.set_num_threads(threads + 1)
    try:
        assert _folder(model, "cpu", tmp_path) != first
    finally:
        torch.set_num_threads(threads)
    _model(model, b"other weights")
    assert _folder(model, "cpu", tmp_path) != first


def test_a_hub_id_has_no_store_and_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    assert EmbeddingStore.for_model("sentence-transformers/all-MiniLM-L6-v2", "cpu", tmp_path) is None
    store = EmbeddingStore.for_model(str(_model(tmp_path / "m")), "cpu", tmp_path)
    assert store is not None
    store.put(("x",), np.ones((1, 4), np.float32))
    store._path(("x",)).write_bytes(b"not an array")
    assert store.get(("x",)) is None
