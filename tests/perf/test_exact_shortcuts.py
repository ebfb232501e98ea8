"""Faster versions of numpy reductions used every frame give numpy's results to the bit."""

from __future__ import annotations

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
