"""Faster versions of numpy reductions used every frame give numpy's results to the bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tango.perception.geometry import median


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_median_equals_numpy_median_bit_for_bit(dtype: type) -> None:
    rng = np.random.default_rng(0)
    for size in [*range(1, 40), 255, 256, 4097]:
        for _ in range(10):
            values = (rng.random(size) * 5).astype(dtype) if dtype != np.int64 else rng.integers(0, 256, size)
            assert median(values) == float(np.median(values)), (size, values)


def test_a_repeated_batch_of_texts_is_not_encoded_again_and_gives_the_same_bits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tango.perception.models import placement
    from tango.perception.text_similarity import TextEmbedder

    monkeypatch.setenv("TANGO_CACHE", str(tmp_path))  # an empty disk store

    first = TextEmbedder("", placement("cpu", False))
    texts = ["chair", "a small red wooden chair next to the table", "tv monitor"]
    expected = first.embed(texts)
    calls: list[list[str]] = []
    encode = first.model.encode

    def counting_encode(batch: list[str], **kwargs: object) -> object:
        calls.append(batch)
        return encode(batch, **kwargs)

    first.model.encode = counting_encode
    try:
        second = TextEmbedder("", placement("cpu", False))  # a new episode: its own empty memo
        assert np.array_equal(second.embed(texts), expected) and calls == []
        fresh = "a phrase no other test encodes: 7f3a"
        second.embed([fresh])
        assert calls == [[fresh]]
    finally:
        first.model.encode = encode


def test_a_later_process_reads_stored_batches_without_loading_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk store gives the bits the model gave; the in-process batch memo is emptied to stand for a new
    process, and a model that raises when encoding proves it is not used."""
    from tango.perception import models
    from tango.perception.models import placement
    from tango.perception.text_similarity import TextEmbedder

    monkeypatch.setenv("TANGO_CACHE", str(tmp_path))
    texts = ["sofa", "a large grey fabric sofa in the living room", "potted plant"]
    expected = TextEmbedder("", placement("cpu", False)).embed(texts)
    assert list((tmp_path / "text-embeddings").rglob("*.npy"))
    for key in [key for key in models._CACHE if key[0] == "sentence-batches"]:
        del models._CACHE[key]
    later = TextEmbedder("", placement("cpu", False))

    class NoModel:
        def encode(self, *args: object, **kwargs: object) -> object:
            raise AssertionError("the model was asked to encode a stored batch")

    later._model = NoModel()
    assert np.array_equal(later.embed(texts), expected)
    with pytest.raises(AssertionError, match="stored batch"):
        later.embed(["a batch nobody stored: 91c2"])
