"""The field-of-view rays the explored area is swept with, as map-pixel offsets cached per heading."""

from __future__ import annotations

import numpy as np

CACHED_HEADINGS = 64
"""Headings whose offsets are kept (a few hundred KB each); the agent turns in fixed steps, so it revisits them."""


class RayFan:
    """Offsets along rays across the horizontal field of view, one pixel apart up to `max_len_px`.

    For a camera heading `yaw` the rays point at `yaw + linspace(-hfov / 2, hfov / 2, n)` and a ray's cells are
    (row, col) = rint(origin + (cos a * s, -sin a * s)) for steps s = 0, step, 2 step, ...: `products` returns
    the (cos a * s, sin a * s) tables, computed once per heading (forward moves keep it) and shared read-only.
    """

    def __init__(self, max_len_px: float, step_px: float) -> None:
        self.max_len_px = max_len_px
        self.steps = np.arange(0.0, max_len_px + step_px, step_px)
        self._tables: dict[tuple[float, float], tuple[np.ndarray, np.ndarray]] = {}

    @property
    def reach_px(self) -> float:
        """No offset is farther than this from the origin along either axis, after rounding."""
        return float(self.steps[-1]) + 1.0

    def products(self, yaw: float, hfov_deg: float) -> tuple[np.ndarray, np.ndarray]:
        """(cos a * s, sin a * s), each (rays, steps) float64, for the rays of a camera at heading `yaw`."""
        key = (yaw, hfov_deg)
        tables = self._tables.get(key)
        if tables is None:
            half_fov = np.deg2rad(hfov_deg) / 2.0
            num_rays = int(np.ceil(2.0 * half_fov * self.max_len_px)) + 1
            angles = yaw + np.linspace(-half_fov, half_fov, num_rays)
            down = np.cos(angles)[:, None] * self.steps[None, :]
            left = np.sin(angles)[:, None] * self.steps[None, :]
            down.flags.writeable = left.flags.writeable = False
            if len(self._tables) >= CACHED_HEADINGS:
                self._tables.clear()
            tables = self._tables[key] = (down, left)
        return tables
