"""navigate_to's stall rule (tango.agent.progress.DriveProgress): a detour is progress, a wall near the point and
a plan with no way through are stalls."""

from __future__ import annotations

import math

from tango.agent.progress import DriveProgress

PATIENCE = 40


def _drive(plan: list[float], straight: list[float]) -> int | None:
    """The step at which the drive is judged stalled, None if it never is."""
    progress = DriveProgress(progress_step=0.1, patience=PATIENCE, detour_growth=0.5, near=1.6)
    for step, (remaining, distance) in enumerate(zip(plan, straight)):
        if progress.stalled(remaining, distance):
            return step
    return None


def test_a_detour_longer_than_the_patience_is_driven_to_its_end() -> None:
    """Toward a point 8 m away the plan shrinks, then a wall turns up: the new plan is 12 m, and the agent must
    first walk away from the point for 60 steps before the plan drops below its earlier best."""
    plan = (
        [8.0 - 0.25 * i for i in range(12)]
        + [12.0 - 0.05 * i for i in range(60)]
        + [9.0 - 0.25 * i for i in range(30)]
    )
    straight = (
        [8.0 - 0.2 * i for i in range(12)]
        + [5.6 + 0.02 * i for i in range(60)]
        + [6.8 - 0.2 * i for i in range(30)]
    )
    assert _drive(plan, straight) is None


def test_without_a_detour_no_shrinking_plan_is_a_stall() -> None:
    plan = [5.0] * 100
    assert _drive(plan, [5.0] * 100) == PATIENCE + 1  # step 0 sets the best; the count then runs out


def test_a_growing_plan_near_the_point_is_a_stall() -> None:
    """Within `near` of the point, a plan that keeps growing means the point is behind a wall on this side: the
    drive stops there instead of touring the home."""
    plan = [1.2 + 0.6 * i for i in range(100)]
    assert _drive(plan, [1.0] * 100) is not None


def test_a_plan_with_no_way_through_stalls() -> None:
    plan = [6.0, 5.0] + [math.inf] * 100
    assert _drive(plan, [6.0] * 102) is not None
