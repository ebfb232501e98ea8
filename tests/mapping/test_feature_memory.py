"""The compact feature memory recalls exactly what a dense per-cell embedding map recalls."""

from __future__ import annotations

import numpy as np
import pytest

from tango.mapping.feature_memory import FeatureMemory
from tango.mapping.fov_patch import FovPatch
from tango.mapping.geometry import MapGrid


class DenseFeatureMap:
    """Reference: a (size, size, dim) float32 map; each frame overwrites the cells its patch covers."""

    def __init__(self, size: int, dim: int) -> None:
        self.features = np.zeros((size, size, dim), np.float32)
        self.written = np.zeros((size, size), bool)

    def add(self, embedding: np.ndarray, patch: FovPatch) -> None:
        h, w = patch.confidence.shape
        covered = patch.confidence > 0
        self.features[patch.row0 : patch.row0 + h, patch.col0 : patch.col0 + w][covered] = embedding
        self.written[patch.row0 : patch.row0 + h, patch.col0 : patch.col0 + w][covered] = True

    def recall(self, query: np.ndarray, threshold: float) -> tuple[tuple[int, int], float] | None:
        norms = np.linalg.norm(self.features, axis=2) * np.linalg.norm(query)
        with np.errstate(invalid="ignore", divide="ignore"):
            scores = np.einsum("rcd,d->rc", self.features, query) / norms
        scores[~self.written] = -np.inf
        flat = int(np.argmax(scores))
        best = float(scores.flat[flat])
        if best < threshold:
            return None
        return divmod(flat, scores.shape[1]), best


def random_patch(rng: np.random.Generator, size: int) -> FovPatch:
    h, w = rng.integers(3, 15, size=2)
    row0, col0 = rng.integers(0, size - 15, size=2)
    conf = (rng.random((h, w)) > 0.3).astype(np.float32) * rng.random((h, w), dtype=np.float32)
    return FovPatch(int(row0), int(col0), conf)


@pytest.mark.parametrize("seed", range(5))
def test_recall_equals_dense_reference_on_random_episodes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    size, dim = 60, 16
    memory = FeatureMemory(MapGrid(size, 20), dim, initial_frames=4)
    dense = DenseFeatureMap(size, dim)
    for _ in range(40):
        embedding = rng.normal(size=dim).astype(np.float32)
        patch = random_patch(rng, size)
        memory.add(embedding, patch)
        dense.add(embedding, patch)
    for _ in range(10):
        query = rng.normal(size=dim).astype(np.float32)
        for threshold in (-1.0, 0.3, 0.6):
            expected = dense.recall(query, threshold)
            got = memory.recall(query, threshold)
            if expected is None:
                assert got is None
            else:
                assert got is not None and got.pixel == expected[0]
                assert got.score == pytest.approx(expected[1], abs=1e-5)
    assert memory.nbytes < dense.features.nbytes / 4


def test_recall_on_an_empty_memory_is_none_and_point_is_in_world_frame() -> None:
    memory = FeatureMemory(MapGrid(100, 20), 4)
    assert memory.recall(np.ones(4)) is None
    memory.add(np.array([1.0, 0, 0, 0]), FovPatch(30, 60, np.ones((1, 1), np.float32)))
    result = memory.recall(np.array([1.0, 0.1, 0, 0]))
    assert result is not None and result.pixel == (30, 60) and result.frame_index == 0
    np.testing.assert_allclose(result.point, [0.5, 0.0, 1.0])


def test_embedding_of_wrong_size_is_an_error() -> None:
    memory = FeatureMemory(MapGrid(10, 20), 4)
    with pytest.raises(ValueError, match="4-d"):
        memory.add(np.ones(3), FovPatch(0, 0, np.ones((1, 1), np.float32)))


def test_a_frame_without_features_matches_nothing_and_does_not_hide_the_others() -> None:
    memory = FeatureMemory(MapGrid(40, 20), 4)
    memory.add(np.array([1.0, 0.0, 0.0, 0.0]), FovPatch(0, 0, np.ones((5, 5), np.float32)))
    memory.add(np.zeros(4), FovPatch(10, 10, np.ones((5, 5), np.float32)))
    found = memory.recall(np.array([1.0, 0.0, 0.0, 0.0]), threshold=0.5)
    assert found is not None and found.frame_index == 0 and found.score == pytest.approx(1.0)
    only_empty = FeatureMemory(MapGrid(40, 20), 4)
    only_empty.add(np.zeros(4), FovPatch(0, 0, np.ones((5, 5), np.float32)))
    assert only_empty.recall(np.ones(4), threshold=-1.0) is None
