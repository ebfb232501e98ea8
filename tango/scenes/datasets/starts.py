"""Episode starts whose start-to-goal geodesic distances follow a published distribution.

`DistanceTargets` draws one target distance per episode of a scene, stratified over the quantiles of the
reference distances (HM3D ObjectNav val_mini, `hm3d_reference`), so that even a few episodes per scene spread
over the whole distribution; `sample_start_at` then picks a navigable start whose geodesic distance to the
goal set (its nearest view point) is within `tolerance_m` of the target, from one distance field over the
navigability grid. When no cell is that close (a small scene, a goal near its middle), the reachable cell
nearest in distance is used: the written `geodesic_distance` is always the real one, never the target.

With `min_ratio` (ObjectNav), near-straight starts are rejected as the HM3D ObjectNav episode generator rejects
them (naokiyokoyama/ovon `ovon/dataset/episode_generator.py`, `generate_objectnav_episode_v2`,
`geodesic_to_euclid_min_ratio=1.05`, with habitat-lab's `_ratio_sample_rate`): a candidate whose geodesic /
Euclidean distance to the goal set is below `min_ratio` is kept only with probability 20 (ratio - 0.98)^2.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tango.scenes.datasets.context import SceneContext, StartPose
from tango.scenes.datasets.hm3d_reference import HM3D_OBJECTNAV_VAL_MINI_GEODESIC
from tango.scenes.datasets.pointnav import straight_episode_kept
from tango.types.scene import SceneObject

REFERENCES: dict[str, tuple[float, ...]] = {"hm3d_objectnav_val_mini": HM3D_OBJECTNAV_VAL_MINI_GEODESIC}
"""Named reference distributions of start-to-goal geodesic distances (metres)."""


def reference_distances(name: str) -> np.ndarray:
    """The sorted reference distances called `name` (ValueError naming the known ones otherwise)."""
    if name not in REFERENCES:
        raise ValueError(f"unknown start distance reference {name!r}; known: {sorted(REFERENCES)}")
    return np.sort(np.asarray(REFERENCES[name], dtype=np.float64))


class DistanceTargets:
    """Target start distances for the `count` episodes of one scene: stratified quantiles, shuffled."""

    def __init__(self, reference: np.ndarray, count: int, rng: np.random.Generator):
        levels = (rng.permutation(count) + rng.uniform(size=count)) / max(count, 1)
        self._targets = [float(np.quantile(reference, q)) for q in levels]

    def __len__(self) -> int:
        return len(self._targets)

    def __getitem__(self, index: int) -> float:
        return self._targets[index % len(self._targets)]


def sample_start_at(
    ctx: SceneContext,
    objects: Sequence[SceneObject],
    rng: np.random.Generator,
    target_m: float,
    min_geodesic_m: float,
    tolerance_m: float = 0.25,
    min_ratio: float = 0.0,
) -> StartPose | None:
    """A navigable start about `target_m` (geodesic) from the nearest view point of `objects`, at least
    `min_geodesic_m` from it; None when no reachable cell is that far. With `min_ratio` > 0, candidates are
    tried in random order and near-straight ones rejected by `straight_episode_kept`; when every candidate is
    rejected, the one with the largest geodesic / Euclidean ratio is used."""
    goals = ctx.view_positions(list(objects))
    if not goals:
        return None
    field = ctx.grid.distance_field(goals)
    reachable = np.isfinite(field) & ctx.grid.navigable & (field >= min_geodesic_m)
    if not reachable.any():
        return None
    gap = np.where(reachable, np.abs(field - target_m), np.inf)
    near = np.argwhere(gap <= max(tolerance_m, float(gap.min())))
    if min_ratio > 0.0:
        row, col = _bent_cell(ctx, field, near, goals, rng, min_ratio)
    else:
        row, col = near[int(rng.integers(len(near)))]
    start = ctx.grid.cell_center(int(row), int(col))
    geodesic = ctx.grid.geodesic_distance(start, goals)
    euclid = min(float(np.linalg.norm(start - g)) for g in goals)
    yaw = float(rng.uniform(-math.pi, math.pi))
    return StartPose(tuple(float(v) for v in start), yaw, geodesic, euclid)  # type: ignore[arg-type]


def _bent_cell(
    ctx: SceneContext,
    field: np.ndarray,
    near: np.ndarray,
    goals: list[np.ndarray],
    rng: np.random.Generator,
    min_ratio: float,
) -> tuple[int, int]:
    """The first of the `near` cells, in random order, that the near-straight rejection keeps (else the most
    bent one): geodesic (the distance field at the cell) over the Euclidean distance to the nearest goal."""
    order = near[rng.permutation(len(near))]
    centres = np.array([ctx.grid.cell_center(int(r), int(c)) for r, c in order])
    euclid = np.linalg.norm(centres[:, None, :] - np.asarray(goals)[None, :, :], axis=2).min(axis=1)
    ratios = field[order[:, 0], order[:, 1]] / np.maximum(euclid, 1e-6)
    for (row, col), ratio in zip(order, ratios):
        if straight_episode_kept(float(ratio), min_ratio, rng):
            return int(row), int(col)
    row, col = order[int(np.argmax(ratios))]
    return int(row), int(col)


def episode_start(
    ctx: SceneContext,
    objects: Sequence[SceneObject],
    rng: np.random.Generator,
    targets: DistanceTargets | None,
    index: int,
    min_geodesic_m: float,
    min_ratio: float = 0.0,
) -> StartPose | None:
    """The start of episode `index` of a scene: near its target distance when there are `targets` (rejecting
    near-straight starts below `min_ratio`), else a uniformly random navigable point at least `min_geodesic_m`
    away (the synthetic-v2 rule)."""
    if targets is None:
        return ctx.sample_start(list(objects), rng, min_geodesic_m)
    return sample_start_at(ctx, objects, rng, targets[index], min_geodesic_m, min_ratio=min_ratio)


def scene_targets(reference: str, count: int, rng: np.random.Generator) -> DistanceTargets | None:
    """Targets for `count` episodes from the named reference, or None when `reference` is "" (uniform)."""
    return DistanceTargets(reference_distances(reference), count, rng) if reference else None
