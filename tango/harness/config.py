"""The `eval.*` settings of `python -m tango.eval` (the `schema/eval` structured config), validated with clear errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tango.config_utils import dataclass_from_dict
from tango.harness.parallelism import AUTO, parse_workers


class ConfigError(ValueError):
    """An eval setting is unknown or out of range; the message names the key."""


@dataclass
class EvalConfig:
    """How many episodes, where results go, and how the run is split and parallelised.

    `num_episodes` <= 0 means all episodes of the split. `num_workers` is a number of worker processes or
    "auto": one per usable core, as many as the available memory holds (tango.harness.parallelism). Shards take every `num_shards`-th episode of the
    selected list starting at `shard`. `seed` is the base of the per-episode seeds. On resume, episodes that
    raised (or crashed an earlier run) are kept as results unless `retry_errors` (e.g. after an LLM server
    outage) runs them again. A second run on a locked `output_dir` exits, or waits with `wait_for_lock`.
    """

    output_dir: str
    num_episodes: int = -1
    num_workers: int | str = AUTO
    shard: int = 0
    num_shards: int = 1
    seed: int = 0
    video: bool = False
    video_fps: int = 10
    resume: bool = True
    retry_errors: bool = False
    wait_for_lock: bool = False
    progress: bool = True
    report: bool = True

    def __post_init__(self) -> None:
        if not self.output_dir:
            raise ConfigError("eval.output_dir must be set")
        try:
            parse_workers(self.num_workers)
        except ValueError as error:
            raise ConfigError(str(error)) from error
        if self.num_shards < 1:
            raise ConfigError(f"eval.num_shards must be >= 1, got {self.num_shards}")
        if not 0 <= self.shard < self.num_shards:
            raise ConfigError(f"eval.shard must be in [0, {self.num_shards}), got {self.shard}")
        if self.video_fps < 1:
            raise ConfigError(f"eval.video_fps must be >= 1, got {self.video_fps}")

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> EvalConfig:
        """Build from the `eval` node of the resolved config; unknown keys are an error."""
        return dataclass_from_dict(cls, values, "eval", ConfigError)
