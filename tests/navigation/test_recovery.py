"""The controllers' shared recovery: blocked forward steps and left/right turn loops queue a turn-away."""

from __future__ import annotations

import numpy as np

from tango.navigation.actions import MOVE_FORWARD, TURN_LEFT, TURN_RIGHT
from tango.navigation.recovery import CollisionRecovery

HERE = np.zeros(3)


def queued(recovery: CollisionRecovery) -> list[str]:
    actions = []
    while (action := recovery.next_action()) is not None:
        actions.append(action)
    return actions


def test_three_blocked_steps_queue_turns_one_way_then_a_forward_step() -> None:
    recovery = CollisionRecovery(3, np.random.default_rng(1))
    recovery.blocked(HERE)
    recovery.blocked(HERE)
    assert recovery.next_action() is None
    recovery.blocked(HERE)
    actions = queued(recovery)
    assert actions[-1] == MOVE_FORWARD and 2 <= len(actions) - 1 <= 5
    assert len(set(actions[:-1])) == 1 and actions[0] in (TURN_LEFT, TURN_RIGHT)


def test_a_step_that_moved_restarts_the_collision_count() -> None:
    recovery = CollisionRecovery(3, np.random.default_rng(1))
    for _ in range(5):
        recovery.blocked(HERE)
        recovery.blocked(HERE)
        recovery.moved()
    assert recovery.next_action() is None


def test_alternating_turns_queue_a_recovery_but_turns_one_way_do_not() -> None:
    recovery = CollisionRecovery(3, np.random.default_rng(1), after_oscillations=6)
    for _ in range(12):
        recovery.turned(TURN_LEFT, HERE)
    assert recovery.next_action() is None
    for turn in [TURN_RIGHT, TURN_LEFT] * 2:
        recovery.turned(turn, HERE)
    assert recovery.next_action() is None  # with the left before them, five alternating turns
    recovery.turned(TURN_RIGHT, HERE)
    assert queued(recovery)[-1] == MOVE_FORWARD


def test_zero_limits_disable_recovery() -> None:
    recovery = CollisionRecovery(0, np.random.default_rng(1), after_oscillations=0)
    for step in range(10):
        recovery.blocked(HERE)
        recovery.turned(TURN_LEFT if step % 2 else TURN_RIGHT, HERE)
    assert recovery.next_action() is None
