"""Deterministic choice of which episodes a run (or shard) evaluates, and the seed of each episode."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def select_episodes(episodes: Sequence[T], num_episodes: int, shard: int, num_shards: int) -> list[T]:
    """The first `num_episodes` (all if <= 0), then every `num_shards`-th of them starting at `shard`.

    The union of all shards is exactly the unsharded selection, and no episode is in two shards.
    """
    selected = list(episodes if num_episodes <= 0 else episodes[:num_episodes])
    return selected[shard::num_shards]


def episode_seed(base_seed: int, task: str, episode_id: str) -> int:
    """A 31-bit seed that depends only on the base seed, the task and the episode id (not on worker or order)."""
    digest = hashlib.sha256(f"{base_seed}/{task}/{episode_id}".encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF
