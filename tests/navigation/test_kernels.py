"""The controller's compiled kernels (tango/navigation/kernels.py) against straightforward references on random
inputs (segment_is_free through line_is_free in test_exact_planner_shortcuts.py)."""

from __future__ import annotations

import numpy as np

from tango.navigation.kernels import descend_cells


def _descend_reference(padded: np.ndarray, r: int, c: int, max_cells: int) -> np.ndarray:
    """Steepest descent with numpy's argmin over each 3 x 3 block of the field padded with inf."""
    path = [(r, c)]
    for _ in range(max_cells):
        current = padded[r + 1, c + 1]
        if current <= 0:
            break
        block = padded[r : r + 3, c : c + 3]
        best = int(block.argmin())
        if not block.flat[best] < current:
            break
        r, c = r + best // 3 - 1, c + best % 3 - 1
        path.append((r, c))
    return np.array(path, np.int64)


def test_descend_cells_follows_numpys_argmin() -> None:
    rng = np.random.default_rng(6)
    for trial in range(300):
        shape = (int(rng.integers(1, 40)), int(rng.integers(1, 40)))
        goal = rng.integers(0, shape, 2)
        rows, cols = np.indices(shape)
        field = np.hypot(rows - goal[0], cols - goal[1]) * rng.uniform(0.5, 2.0)
        if trial % 3 == 0:  # ties: integer values
            field = np.floor(field)
        field[rng.random(shape) < 0.15] = np.inf
        field[rng.random(shape) < 0.01] = np.nan
        field[rng.random(shape) < 0.05] = rng.uniform(-1.0, 0.5)
        padded = np.pad(field, 1, constant_values=np.inf)
        start = rng.integers(0, shape, 2)
        max_cells = int(rng.integers(0, 80))
        expected = _descend_reference(padded, int(start[0]), int(start[1]), max_cells)
        found = descend_cells(field, int(start[0]), int(start[1]), max_cells)
        assert found.dtype == np.int64
        assert np.array_equal(found, expected), trial
