"""Walking routes on a walkable raster (the true one for reference routes, the agent's own map reading for its
plans) and following a route through the app's actions, closed loop on the reported position.

Plans keep a metre from obstacles where the raster allows (eroded masks first), cells along closure lines
are blocked, and paths are string-pulled waypoints. Following turns with `look` only when the heading is off by
more than 4 degrees and sprints in chunks of at most 2 s, re-aiming at every chunk; corners are
reached within 0.8 m, so a thin railing between a flight of stairs and the walkway is never cut.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import ndimage

from tango.sim.navgrid import NavGrid
from tango.urban.server.world import SPRINT_M_S

Point = tuple[float, float]


@dataclass(frozen=True)
class Grid:
    """A walkable mask with its georeference: row 0 at `top_y` (north), column 0 at `origin_x` (west)."""

    walkable: np.ndarray
    origin_x: float
    top_y: float
    resolution: float

    def cell(self, east: float, north: float) -> tuple[int, int]:
        return (
            math.floor((self.top_y - north) / self.resolution),
            math.floor((east - self.origin_x) / self.resolution),
        )

    def navgrid(self, mask: np.ndarray | None = None) -> NavGrid:
        return NavGrid(
            self.walkable if mask is None else mask, (self.origin_x, -self.top_y), self.resolution, 0.0
        )


def block_lines(grid: Grid, lines: Sequence[Sequence[Point]], width_m: float = 1.0) -> np.ndarray:
    """The walkable mask with every cell within `width_m` of a polyline removed."""
    blocked = np.zeros(grid.walkable.shape, bool)
    for line in lines:
        for (ax, ay), (bx, by) in itertools.pairwise(line):
            samples = max(2, int(math.hypot(bx - ax, by - ay) / (grid.resolution / 2)) + 1)
            for t in np.linspace(0.0, 1.0, samples):
                row, col = grid.cell(ax + (bx - ax) * t, ay + (by - ay) * t)
                if 0 <= row < blocked.shape[0] and 0 <= col < blocked.shape[1]:
                    blocked[row, col] = True
    if width_m > grid.resolution:
        blocked = ndimage.binary_dilation(blocked, iterations=round(width_m / grid.resolution))
    return grid.walkable & ~blocked


def plan(
    grid: Grid,
    start: Point,
    goal: Point,
    avoid: Sequence[Sequence[Point]] = (),
    goal_tolerance_m: float = 3.0,
) -> list[Point]:
    """Waypoints from start to goal (or the nearest walkable point within `goal_tolerance_m` of it) on the
    walkable cells, avoiding the lines; [] when unreachable."""
    mask = block_lines(grid, avoid) if avoid else grid.walkable
    margins = [ndimage.binary_erosion(mask, iterations=k) for k in (2, 1)]
    for candidate in (*margins, mask):
        if not candidate.any():
            continue
        navgrid = grid.navgrid(candidate)
        start3 = np.array([start[0], 0.0, -start[1]])
        goal3 = np.array([goal[0], 0.0, -goal[1]])
        path = navgrid.shortest_path(start3, goal3)
        if path and math.hypot(path[-1][0] - goal[0], -path[-1][2] - goal[1]) <= goal_tolerance_m:
            points = [(float(p[0]), float(-p[2])) for p in path]
            points[0] = start
            return points
    return []


def route_length(points: Sequence[Point]) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(points))


def heading_to(a: Point, b: Point) -> float:
    """Compass heading (degrees clockwise from north) from a to b."""
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360.0


def turn_between(yaw: float, heading: float) -> float:
    """The signed turn (degrees, positive right) from yaw to heading, in [-180, 180)."""
    return (heading - yaw + 180.0) % 360.0 - 180.0


Stepper = Callable[[dict[str, Any]], tuple[Point, float]]


def follow(
    step: Stepper,
    position: Point,
    yaw: float,
    waypoints: Sequence[Point],
    arrive_m: float = 1.2,
    should_stop: Callable[[], bool] = lambda: False,
    max_actions: int = 10_000,
) -> tuple[str, Point, float]:
    """Walk the waypoints with look + sprint actions; `step(action)` performs one and returns (position, yaw).

    Returns (outcome, position, yaw): outcome is "arrived", "blocked" (no progress twice), "stopped"
    (should_stop said so) or "action_limit".
    """
    actions, stuck = 0, 0
    for index, waypoint in enumerate(waypoints[1:], start=1):
        tolerance = arrive_m if index == len(waypoints) - 1 else 0.8
        while math.hypot(waypoint[0] - position[0], waypoint[1] - position[1]) > tolerance:
            if should_stop():
                return "stopped", position, yaw
            if actions >= max_actions:
                return "action_limit", position, yaw
            turn = turn_between(yaw, heading_to(position, waypoint))
            if abs(turn) > 4.0:
                position, yaw = step({"action": "look", "yaw": round(turn, 2), "pitch": 0})
                actions += 1
                continue
            distance = math.hypot(waypoint[0] - position[0], waypoint[1] - position[1])
            seconds = round(min(2.0, max(0.1, distance / SPRINT_M_S)), 2)
            before = position
            position, yaw = step({"action": "sprint", "dir": "forward", "seconds": seconds})
            actions += 1
            if math.hypot(position[0] - before[0], position[1] - before[1]) < 0.2:
                stuck += 1
                if stuck >= 2:
                    return "blocked", position, yaw
            else:
                stuck = 0
            if should_stop():
                return "stopped", position, yaw
    return "arrived", position, yaw
