"""Point-goal controller without learned weights: fast marching on the obstacle map, followed with discrete
actions; replans when the map blocks its path and recovers when a forward step does not move the agent."""

from __future__ import annotations

import numpy as np

from tango.mapping.obstacle_map import ObstacleMap
from tango.navigation.actions import MOVE_FORWARD, STOP, TURN_LEFT, TURN_RIGHT
from tango.navigation.config import NavigationConfig
from tango.navigation.fmm_planner import (
    DistanceField,
    clearance_speed,
    disk,
    distance_field,
    line_is_free,
    reachable_from,
)
from tango.navigation.recovery import CollisionRecovery

WINDOW_MARGIN_PX = 40


def heading_to(position: np.ndarray, target: np.ndarray) -> float:
    """Yaw (habitat convention: 0 faces -z, left positive) that faces target from position."""
    return float(np.arctan2(-(target[0] - position[0]), -(target[2] - position[2])))


def wrap_angle(angle: float) -> float:
    """Angle wrapped to [-pi, pi)."""
    return float((angle + np.pi) % (2 * np.pi) - np.pi)


def planar_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Distance in the floor plane (x, z)."""
    return float(np.hypot(a[0] - b[0], a[2] - b[2]))


def mark_blocked_step(omap: ObstacleMap, position: np.ndarray, yaw: float) -> None:
    """Mark the cells just ahead of the agent as (withdrawable) collisions: a forward step did not move it."""
    forward = np.array([-np.sin(yaw), 0.0, -np.cos(yaw)])
    right = np.array([np.cos(yaw), 0.0, -np.sin(yaw)])
    ahead = position + forward * (omap.config.agent_radius + 0.05)
    offsets = np.linspace(-0.05, 0.05, 3)
    omap.mark_collision(ahead[None, :] + offsets[:, None] * right[None, :])


def plan_window(omap: ObstacleMap, start: np.ndarray, goal_px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where plans are made: the map window around the start and goal pixels and everything explored, plus a
    margin, as (its corner (row, col), its navigable cells with the agent's own footprint counted free)."""
    rows, cols = [start[0], goal_px[0]], [start[1], goal_px[1]]
    if omap.explored_bounds is not None:
        rows += [omap.explored_bounds[0], omap.explored_bounds[1] - 1]
        cols += [omap.explored_bounds[2], omap.explored_bounds[3] - 1]
    size = omap.grid.size
    r0, r1 = max(0, min(rows) - WINDOW_MARGIN_PX), min(size, max(rows) + WINDOW_MARGIN_PX + 1)
    c0, c1 = max(0, min(cols) - WINDOW_MARGIN_PX), min(size, max(cols) + WINDOW_MARGIN_PX + 1)
    corner = np.array([r0, c0])
    traversable = omap.navigable[r0:r1, c0:c1] | disk(
        (r1 - r0, c1 - c0), start - corner, omap.inflation_px + 1
    )
    return corner, traversable


class FmmController:
    """Follows fast-marching travel-time fields on the obstacle map's navigable layer to a point goal; cells near
    obstacles are slower, so plans keep their distance where there is room.

    After each `act`: `unreachable` says the goal cannot be reached on the current map (the plan then leads to
    the reachable cell nearest to it), `remaining_distance` is the plan's cost from the agent in metres at full
    speed (at least the path length), `replans` counts plans made since `reset`.
    """

    def __init__(self, config: NavigationConfig | None = None, seed: int = 0) -> None:
        self.config = config or NavigationConfig()
        self._recovery = CollisionRecovery(self.config.recovery_after_collisions, np.random.default_rng(seed))
        self.reset()

    def reset(self) -> None:
        """Forget the plan, the collision count and the recovery queue (new episode or new goal)."""
        self._field: DistanceField | None = None
        self._goal: np.ndarray | None = None
        self._goal_radius_px = 0
        self._last_position: np.ndarray | None = None
        self._last_action: str | None = None
        self._recovery.reset()
        self.unreachable = False
        self.replans = 0
        self.remaining_distance = float("inf")

    def act(
        self, position: np.ndarray, yaw: float, goal: np.ndarray, omap: ObstacleMap, stop_radius: float
    ) -> str:
        """Next discrete action toward goal (world point); STOP once within stop_radius in the floor plane."""
        position, goal = np.asarray(position, float), np.asarray(goal, float)
        self._note_motion(position, yaw, omap)
        if planar_distance(position, goal) <= stop_radius:
            return self._emit(STOP, position)
        recovery = self._recovery.next_action()
        if recovery is not None:
            return self._emit(recovery, position)
        waypoint = self._waypoint(position, goal, omap, stop_radius)
        if waypoint is None:
            return self._emit(self._recovery.random_turn(), position)
        error = wrap_angle(heading_to(position, waypoint) - yaw)
        if abs(error) > np.deg2rad(self.config.turn_angle) / 2:
            return self._emit(TURN_LEFT if error > 0 else TURN_RIGHT, position)
        return self._emit(MOVE_FORWARD, position)

    def executed(self, action: str) -> None:
        """Record that `action` was executed instead of the one `act` returned (the controller labelling
        another driver's steps), so a blocked step is recognised from what the agent really did."""
        if action != self._last_action:
            self._last_action = action
            self._recovery.cancel()

    def _emit(self, action: str, position: np.ndarray) -> str:
        self._last_action = action
        self._last_position = position.copy()
        return action

    def _note_motion(self, position: np.ndarray, yaw: float, omap: ObstacleMap) -> None:
        """Detect a blocked forward step: mark the blocked cells ahead, and start a recovery after repeats."""
        if self._last_action != MOVE_FORWARD or self._last_position is None:
            return
        if planar_distance(position, self._last_position) >= self.config.stuck_displacement:
            self._recovery.moved()
            return
        mark_blocked_step(omap, position, yaw)
        self._recovery.blocked(position)

    def _waypoint(
        self, position: np.ndarray, goal: np.ndarray, omap: ObstacleMap, stop_radius: float
    ) -> np.ndarray | None:
        """A point along the planned path within the lookahead and in line of sight; the goal itself when near."""
        grid = omap.grid
        start = grid.world_to_pixel(position[None])[0]
        if not grid.in_bounds(start[None])[0]:
            return None
        goal_radius_px = max(1, int(stop_radius * grid.pixels_per_meter))
        if self._needs_plan(start, goal, goal_radius_px, omap):
            self._plan(start, goal, goal_radius_px, omap)
        assert self._field is not None
        self.remaining_distance = self._field.at(start) / grid.pixels_per_meter
        lookahead_px = max(1, int(self.config.lookahead * grid.pixels_per_meter))
        path = self._field.descend(start, max_cells=2 * lookahead_px)
        if len(path) < 2:
            return goal if planar_distance(position, goal) < self.config.lookahead else None
        if self._field.at(path[-1]) <= 0 and planar_distance(position, goal) <= self.config.lookahead:
            return goal
        corner = np.maximum(start - lookahead_px - 1, 0)
        local = omap.navigable[
            corner[0] : start[0] + lookahead_px + 2, corner[1] : start[1] + lookahead_px + 2
        ]
        local = local | disk(local.shape, start - corner, omap.inflation_px + 1)
        return grid.pixel_to_world(
            _farthest_visible(path, start, corner, local, lookahead_px)[None].astype(float),
            float(position[1]),
        )[0]

    def _needs_plan(
        self, start: np.ndarray, goal: np.ndarray, goal_radius_px: int, omap: ObstacleMap
    ) -> bool:
        if self._field is None or self._goal is None or planar_distance(goal, self._goal) > 0.05:
            return True
        if goal_radius_px != self._goal_radius_px:
            return True
        if not np.isfinite(self._field.at(start)):
            return True
        path = self._field.descend(
            start, max_cells=int(2 * self.config.lookahead * omap.grid.pixels_per_meter)
        )
        if len(path) < 2:
            return False
        cells = path[1:]
        free = omap.navigable[cells[:, 0], cells[:, 1]]
        if free.all():  # nothing on the path is blocked
            return False
        near_start = np.hypot(*(cells - start).T) <= omap.inflation_px + 1
        goal_px = omap.grid.world_to_pixel(goal[None])[0]
        near_goal = np.hypot(*(cells - goal_px).T) <= goal_radius_px + omap.inflation_px
        near_goal &= ~omap.obstacles[cells[:, 0], cells[:, 1]]
        return bool(np.any(~free & ~near_start & ~near_goal))

    def _plan(self, start: np.ndarray, goal: np.ndarray, goal_radius_px: int, omap: ObstacleMap) -> None:
        """Distance field to the cells within the stop radius of the goal (so goals inside furniture are
        reached from its edge); to the reachable cell nearest the goal when none of them can be reached."""
        goal_px = np.clip(omap.grid.world_to_pixel(goal[None])[0], 0, omap.grid.size - 1)
        (r0, c0), traversable = plan_window(omap, start, goal_px)
        r1, c1 = r0 + traversable.shape[0], c0 + traversable.shape[1]
        local_start, local_goal = start - [r0, c0], goal_px - [r0, c0]
        # The inflation is conservative: near the goal the agent may pass between obstacles closer than it allows.
        near_goal = disk(traversable.shape, local_goal, goal_radius_px + omap.inflation_px)
        traversable |= near_goal & ~omap.obstacles[r0:r1, c0:c1]
        goal_cells = disk(traversable.shape, local_goal, goal_radius_px)
        speed = clearance_speed(omap.obstacles[r0:r1, c0:c1], 2.0 * omap.inflation_px + 2)
        field = distance_field(traversable, goal_cells, r0, c0, speed)
        self.unreachable = not np.isfinite(field.at(start))
        if self.unreachable:
            reachable = reachable_from(traversable, local_start)
            cells = np.argwhere(reachable)
            nearest = cells[np.argmin(np.hypot(*(cells - local_goal).T))]
            field = distance_field(traversable, disk(traversable.shape, nearest, 1), r0, c0, speed)
        self._field = field
        self._goal = goal.copy()
        self._goal_radius_px = goal_radius_px
        self.replans += 1


def _farthest_visible(
    path: np.ndarray, start: np.ndarray, corner: np.ndarray, local: np.ndarray, lookahead_px: int
) -> np.ndarray:
    """The last cell of path[1:] before the first one beyond the lookahead that is in straight line of sight of
    start through `local` (a window of the map whose cell (0, 0) is `corner`); path[1] when none is."""
    cells = path[1:]
    beyond = np.flatnonzero(np.hypot(cells[:, 0] - start[0], cells[:, 1] - start[1]) > lookahead_px)
    within = cells[: beyond[0]] if len(beyond) else cells
    for cell in within[::-1]:
        if line_is_free(local, start - corner, cell - corner):
            return cell
    return cells[0]
