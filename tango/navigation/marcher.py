"""Second-order fast marching of travel times on a 2-D grid (numba), computing to the bit what scikit-fmm's
`travel_time(phi, speed, dx=1, order=2, narrow=...)` computes, and resumable: a march stopped at a band goes
on to a wider one without marching again what it has frozen.

The method is Sethian's fast marching: cells next to the goal's boundary are frozen at their distance to it
(half a cell here, over the speed), their free neighbours enter a binary heap with the travel time the upwind
quadratic gives from frozen neighbours, and the smallest is frozen again and again, its neighbours' times
recomputed. Keeping scikit-fmm's bits takes its order of operations, which this module follows from its
published scheme (scikit-fmm 2025.06.23): cells next to the boundary are queued in row-major order; every cell
whose time equals the one just popped is frozen in the same batch before any neighbour is updated (so the
order among equal times changes no value; the heap's sift rules are scikit-fmm's all the same); neighbours
are updated row axis first, the lower index first, each followed by a queued cell two cells away behind a
frozen one (the second-order stencil reaches it); along each axis the stencil takes the nearer frozen
neighbour and, when its time is not larger, the frozen cell beyond it (sign flipped across the goal's
boundary; kept from the other side when the nearer neighbour has none, as scikit-fmm keeps it); a negative
discriminant drops one axis at a time and keeps the smaller answer (the first on ties or NaN). Products and
sums are written in scikit-fmm's order (numba contracts no multiply-add). tests/navigation/test_marcher.py
compares the results with scikit-fmm on random maps, band after band, bit for bit.

The two entry points are compiled without numba's reference counting (`_nrt=False`; they allocate nothing):
with it, every inlined helper's array arguments were counted up and down atomically, a third of the march's
time.

Stopping at a band checks the heap's smallest time before popping it (scikit-fmm pops it and drops it), so the
cells frozen, their times and the heap are exactly those of a march with that band, and marching on with a
wider band performs exactly the operations a fresh march with the wider band would perform after them.
Stopping once a target cell is frozen stops between the same batches, so it is a stop at a band too (one that
`march_to` picks from the target's time).
The start's loops visit only the goal cells' box and two cells around it (phi is 1 elsewhere), so past
filling its arrays a march costs what it freezes, not the window's size.
"""

from __future__ import annotations

import numpy as np
from numba import njit

FAR, NARROW, FROZEN, MASK = 0, 1, 2, 3
MAX_DOUBLE = float(np.finfo(np.float64).max)
"""scikit-fmm's "no value" for a stencil's neighbour."""
SMALLEST_SPEED = float(np.finfo(np.float64).eps)
"""Cells slower than this are masked, as scikit-fmm masks them (their times would overflow)."""
ONE_THIRD = 1.0 / 3.0
SECOND_ORDER_WEIGHT = 9.0 / 4.0


@njit(cache=True, nogil=True, inline="always")
def _neighbour(index: int, row: int, col: int, width: int, height: int, axis: int, step: int) -> int:
    """The cell `step` cells from cell `index` (at `row`, `col`) along `axis` (0: rows); -1 outside the grid."""
    if axis == 0:
        return index + step * width if 0 <= row + step < height else -1
    return index + step if 0 <= col + step < width else -1


@njit(cache=True, nogil=True, inline="always")
def _quadratic(
    index: int,
    skipped: int,
    width: int,
    height: int,
    flag: np.ndarray,
    time: np.ndarray,
    phi: np.ndarray,
    speed: np.ndarray,
) -> tuple[bool, float]:
    """The upwind quadratic's larger root from the frozen neighbours along the axes not in the bit set `skipped`:
    (whether its discriminant is non-negative, the root)."""
    row = index // width
    col = index - row * width
    a = b = c = 0.0
    for axis in range(2):
        if skipped & (1 << axis):
            continue
        value1 = MAX_DOUBLE
        value2 = MAX_DOUBLE
        for step in (-1, 1):
            near = _neighbour(index, row, col, width, height, axis, step)
            if near == -1 or flag[near] != FROZEN or not abs(time[near]) < abs(value1):
                continue
            value1 = time[near]
            far = _neighbour(index, row, col, width, height, axis, 2 * step)
            if (
                far != -1
                and flag[far] == FROZEN
                and ((time[far] <= value1 and value1 >= 0) or (time[far] >= value1 and value1 <= 0))
            ):
                value2 = time[far]
                if phi[far] * phi[near] < 0 or phi[far] * phi[index] < 0:
                    value2 *= -1
        if value2 < MAX_DOUBLE:
            extrapolated = ONE_THIRD * (4 * value1 - value2)
            a += SECOND_ORDER_WEIGHT
            b -= 2 * SECOND_ORDER_WEIGHT * extrapolated
            c += SECOND_ORDER_WEIGHT * (extrapolated * extrapolated)
        elif value1 < MAX_DOUBLE:
            a += 1.0
            b -= 2 * value1
            c += value1 * value1
    c -= 1 / (speed[index] * speed[index])
    discriminant = b * b - 4 * a * c
    if discriminant >= 0:
        return True, (-b + np.sqrt(discriminant)) / 2.0 / a
    return False, 0.0


@njit(cache=True, nogil=True, inline="always")
def _one_axis(
    index: int,
    skipped: int,
    width: int,
    height: int,
    flag: np.ndarray,
    time: np.ndarray,
    phi: np.ndarray,
    speed: np.ndarray,
) -> float:
    """The root along the axis not in `skipped`; without any axis when that has none; inf when neither has.
    Inlined like the other helpers: as a call of its own it cost the march a fifth of its time."""
    solved, root = _quadratic(index, skipped, width, height, flag, time, phi, speed)
    if solved:
        return root
    solved, root = _quadratic(index, 3, width, height, flag, time, phi, speed)
    return root if solved else np.inf


@njit(cache=True, nogil=True, inline="always")
def _update(
    index: int,
    width: int,
    height: int,
    flag: np.ndarray,
    time: np.ndarray,
    phi: np.ndarray,
    speed: np.ndarray,
) -> float:
    """A cell's travel time from its frozen neighbours; when both axes together give no real root, the smaller
    of each axis alone (the first on ties or NaN). inf means unreachable."""
    solved, root = _quadratic(index, 0, width, height, flag, time, phi, speed)
    if solved:
        return root
    first = _one_axis(index, 1, width, height, flag, time, phi, speed)
    second = _one_axis(index, 2, width, height, flag, time, phi, speed)
    if second < first:
        return second
    return first


@njit(cache=True, nogil=True, inline="always")
def _sift_toward_root(
    key: np.ndarray, order: np.ndarray, slot_at: np.ndarray, top: int, position: int
) -> None:
    """Move the slot at heap position `position` up while its key is smaller than its parent's (not above
    `top`)."""
    item = order[position]
    while position > top:
        parent_position = (position - 1) >> 1
        parent = order[parent_position]
        if not key[item] < key[parent]:
            break
        order[position] = parent
        slot_at[parent] = position
        position = parent_position
    order[position] = item
    slot_at[item] = position


@njit(cache=True, nogil=True, inline="always")
def _sift_to_leaf(
    key: np.ndarray, order: np.ndarray, slot_at: np.ndarray, length: int, position: int
) -> None:
    """Move the slot at `position` down along the smaller children (the right one unless the left is strictly
    smaller) to a leaf, then back up as far as its key allows."""
    top = position
    item = order[position]
    child = 2 * position + 1
    while child < length:
        if child + 1 < length and not key[order[child]] < key[order[child + 1]]:
            child += 1
        order[position] = order[child]
        slot_at[order[child]] = position
        position = child
        child = 2 * position + 1
    order[position] = item
    _sift_toward_root(key, order, slot_at, top, position)


@njit(cache=True, nogil=True, inline="always")
def _push(
    key: np.ndarray,
    cell_of: np.ndarray,
    slot_at: np.ndarray,
    order: np.ndarray,
    counts: np.ndarray,
    cell: int,
    value: float,
) -> int:
    """Queue `cell` with key `value` in a new slot (counts: heap length, slots used); returns the slot."""
    length, slot = counts[0], counts[1]
    order[length] = slot
    cell_of[slot] = cell
    key[slot] = value
    slot_at[slot] = length
    counts[0], counts[1] = length + 1, slot + 1
    _sift_toward_root(key, order, slot_at, 0, length)
    return slot


@njit(cache=True, nogil=True, inline="always")
def _pop(
    key: np.ndarray, cell_of: np.ndarray, slot_at: np.ndarray, order: np.ndarray, counts: np.ndarray
) -> int:
    """Unqueue the root slot and return its cell."""
    cell = cell_of[order[0]]
    length = counts[0] - 1
    order[0] = order[length]
    slot_at[order[0]] = 0
    counts[0] = length
    _sift_to_leaf(key, order, slot_at, length, 0)
    return cell


@njit(cache=True, nogil=True, inline="always")
def _set(
    key: np.ndarray, slot_at: np.ndarray, order: np.ndarray, length: int, slot: int, value: float
) -> None:
    """Change a slot's key: sifted to a leaf first when it grew, then toward the root if the slot now at its
    old position has the new key."""
    old = key[slot]
    position = slot_at[slot]
    key[slot] = value
    if value > old:
        _sift_to_leaf(key, order, slot_at, length, position)
    if key[order[position]] == value:
        _sift_toward_root(key, order, slot_at, 0, position)


@njit(cache=True, nogil=True, inline="always")
def _refresh(cell: int, width: int, height: int, grid: tuple, heap: tuple) -> bool:
    """Recompute a queued or far cell's time after a neighbour froze (queueing a far one; a zero time changes
    nothing); False when the cell is unreachable. `grid`: flags, times, phi, speeds; `heap`: keys, cells,
    positions, order, (length, slots used), slot per cell."""
    flag, time, phi, speed = grid
    key, cell_of, slot_at, order, counts, slot_of = heap
    value = _update(cell, width, height, flag, time, phi, speed)
    if value == np.inf:
        return False
    if value != 0:
        if flag[cell] == NARROW:
            _set(key, slot_at, order, counts[0], slot_of[cell], abs(value))
            time[cell] = value
        else:
            time[cell] = value
            flag[cell] = NARROW
            slot_of[cell] = _push(key, cell_of, slot_at, order, counts, cell, abs(value))
    return True


@njit(cache=True, nogil=True, _nrt=False)
def start_march(
    box: np.ndarray,
    width: int,
    height: int,
    flag: np.ndarray,
    time: np.ndarray,
    phi: np.ndarray,
    speed: np.ndarray,
    values: np.ndarray,
    key: np.ndarray,
    cell_of: np.ndarray,
    slot_at: np.ndarray,
    order: np.ndarray,
    counts: np.ndarray,
    slot_of: np.ndarray,
) -> int:
    """Freeze the cells next to the goal's boundary (phi's sign change; `box`: the goal cells' first and last
    row and column, outside which phi is 1 everywhere) at their distance over their speed, and queue the far
    cells next to them in row-major order; returns how many were frozen, -1 when a queued cell is unreachable.
    """
    r0, r1 = max(box[0] - 1, 0), min(box[1] + 1, height - 1)
    c0, c1 = max(box[2] - 1, 0), min(box[3] + 1, width - 1)
    frozen = 0
    for row in range(r0, r1 + 1):
        for col in range(c0, c1 + 1):
            index = row * width + col
            if flag[index] != FAR:
                continue
            borders = False
            total = 0.0
            for axis in range(2):
                nearest = 0.0
                for step in (-1, 1):
                    other = _neighbour(index, row, col, width, height, axis, step)
                    if other != -1 and flag[other] != MASK and phi[index] * phi[other] < 0:
                        borders = True
                        distance = 1.0 * phi[index] / (phi[index] - phi[other])
                        if nearest == 0 or nearest > distance:
                            nearest = distance
                if nearest > 0:
                    total += 1 / nearest / nearest
            if borders:
                distance = -np.sqrt(1 / total) if phi[index] < 0 else np.sqrt(1 / total)
                flag[index] = FROZEN
                time[index] = abs(distance / speed[index])
                values[index] = time[index]
                frozen += 1
    r0, r1, c0, c1 = max(r0 - 1, 0), min(r1 + 1, height - 1), max(c0 - 1, 0), min(c1 + 1, width - 1)
    for row in range(r0, r1 + 1):
        for col in range(c0, c1 + 1):
            index = row * width + col
            for axis in range(2):
                for step in (-1, 1):
                    other = _neighbour(index, row, col, width, height, axis, step)
                    if other != -1 and flag[other] == FROZEN and flag[index] == FAR:
                        flag[index] = NARROW
                        value = _update(index, width, height, flag, time, phi, speed)
                        if value == np.inf:
                            return -1
                        time[index] = value
                        slot_of[index] = _push(key, cell_of, slot_at, order, counts, index, abs(value))
    return frozen


@njit(cache=True, nogil=True, _nrt=False)
def continue_march(
    band: float,
    target: int,
    width: int,
    height: int,
    flag: np.ndarray,
    time: np.ndarray,
    phi: np.ndarray,
    speed: np.ndarray,
    values: np.ndarray,
    key: np.ndarray,
    cell_of: np.ndarray,
    slot_at: np.ndarray,
    order: np.ndarray,
    counts: np.ndarray,
    slot_of: np.ndarray,
    batch: np.ndarray,
) -> bool:
    """Freeze queued cells in increasing time, each batch of equal times before updating their neighbours,
    until the smallest queued time exceeds `band` (0: no band), the cell `target` (-1: none) is frozen, or none
    is queued; frozen cells get their time in `values`. False when a cell turned out unreachable."""
    grid = (flag, time, phi, speed)
    heap = (key, cell_of, slot_at, order, counts, slot_of)
    while counts[0] > 0:
        value = key[order[0]]
        if (band != 0 and abs(value) > band) or (target >= 0 and flag[target] == FROZEN):
            return True
        size = 0
        while True:
            cell = _pop(key, cell_of, slot_at, order, counts)
            flag[cell] = FROZEN
            values[cell] = time[cell]
            batch[size] = cell
            size += 1
            if counts[0] == 0 or value != key[order[0]]:
                break
        for k in range(size):
            cell = batch[k]
            row = cell // width
            col = cell - row * width
            for axis in range(2):
                for step in (-1, 1):
                    other = _neighbour(cell, row, col, width, height, axis, step)
                    if other == -1 or flag[other] == MASK:
                        continue
                    if flag[other] != FROZEN:
                        if not _refresh(other, width, height, grid, heap):
                            return False
                        continue
                    far = _neighbour(cell, row, col, width, height, axis, 2 * step)
                    if far != -1 and flag[far] == NARROW and not _refresh(far, width, height, grid, heap):
                        return False
    return True


class TravelTimes:
    """Travel times in cells from the goal cells' boundary through the free cells at the given per-cell speed
    (scikit-fmm's `travel_time` of phi = -1 on the goal cells and 1 elsewhere, masked off the free cells), with
    the goal cells themselves at 0; marched up to a band, and on to wider ones, by `march`."""

    def __init__(self, free: np.ndarray, goal_cells: np.ndarray, speed: np.ndarray) -> None:
        self.shape = (int(free.shape[0]), int(free.shape[1]))
        size = self.shape[0] * self.shape[1]
        speeds = np.array(speed, dtype=np.float64).reshape(size)  # (a copy: the caller's may change)
        self._goal = np.flatnonzero(goal_cells)
        masked = speeds < SMALLEST_SPEED
        masked |= ~free.reshape(size)
        flag = masked.view(np.int8) * np.int8(MASK)  # (FAR is 0)
        phi = np.ones(size)
        phi[self._goal] = -1.0
        self.values = np.full(size, np.inf)
        self._arrays = (
            flag,
            np.zeros(size),
            phi,
            speeds,
            self.values,
            np.empty(size),
            np.empty(size, np.int64),
            np.empty(size, np.int64),
            np.empty(size, np.int64),
            np.zeros(2, np.int64),
            np.empty(size, np.int64),
        )  # (flags, times, phi, speeds, values; heap: keys, cells, positions, order, counts; slot per cell)
        self._batch = np.empty(size, np.int64)
        rows, cols = np.flatnonzero(goal_cells.any(axis=1)), np.flatnonzero(goal_cells.any(axis=0))
        if len(rows):
            box = np.array([rows[0], rows[-1], cols[0], cols[-1]], np.int64)
            if start_march(box, self.shape[1], self.shape[0], *self._arrays) < 0:
                raise RuntimeError("fast marching: a cell next to the goal has no travel time")
        # (without a frozen cell nothing is queued: every time stays inf, where scikit-fmm says "no zero contour")
        self.values[self._goal] = 0.0

    def march(self, band: float) -> np.ndarray:
        """Freeze every cell up to travel time `band` (0: every reachable cell) and return the (height, width)
        times, inf where not (yet) reached; the same array every call, filled further."""
        return self._march(band, -1)

    def march_to(self, cell: int, margin: float) -> np.ndarray:
        """Freeze the flat index `cell` (or every reachable cell, when it is not), then every cell up to its
        time plus `margin`, and return the times as `march` does: a read of the cell and of what its time is
        compared with then sees the complete march's values."""
        if self.values[cell] == np.inf:
            self._march(0.0, cell)
        if self.values[cell] < np.inf and self.queued:
            self._march(float(self.values[cell]) + margin, -1)
        return self.values.reshape(self.shape)

    @property
    def queued(self) -> bool:
        """Whether cells are still queued (False: the march is complete)."""
        return bool(self._arrays[9][0] > 0)

    def _march(self, band: float, target: int) -> np.ndarray:
        if not continue_march(band, target, self.shape[1], self.shape[0], *self._arrays, self._batch):
            raise RuntimeError("fast marching: a cell has no travel time")
        self.values[self._goal] = 0.0
        return self.values.reshape(self.shape)
