"""GraphNav run settings (configs/task/graphnav.yaml, key `graphnav`), validated with clear errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tango.benchmarks.graphnav.conditions import CONDITIONS
from tango.benchmarks.graphnav.episodes import TASKS
from tango.benchmarks.graphnav.mazegen import SIZES, check_sizes
from tango.config_utils import dataclass_from_dict


class GraphNavConfigError(ValueError):
    """A graphnav setting is unknown or out of range; the message names the key."""


@dataclass
class EnvConfig:
    """Step budget and invalid-action allowance (the reason for the default: tango.benchmarks.graphnav.env)."""

    step_budget_factor: float = 2.0
    step_budget_slack: int = 4
    max_invalid_actions: int = 10


@dataclass
class GenerateConfig:
    """The small synthetic set written on first use when data_root has no mazes/ (the card's odd sizes)."""

    sizes: list[int] = field(default_factory=lambda: list(SIZES))
    mazes_per_size: int = 1
    episodes_per_task: int = 2
    seed: int = 0


@dataclass
class ClipConfig:
    """open_clip model for image-embedding landmark recognition (weights from a local file; none downloaded);
    `device` is auto|cpu|cuda|cuda:N (tango.devices)."""

    model: str = "ViT-B-32"
    pretrained: str = ""
    match_threshold: float = 0.9
    device: str = "cpu"


@dataclass
class GraphNavConfig:
    """Which episodes (data, task, condition, sizes), which agent and recognition, views and budgets."""

    data_root: str = ""
    task: str = "all"
    condition: str = "C3"
    agent: str = "program"
    recognition: str = "oracle"
    views: str = "auto"
    sizes: list[int] = field(default_factory=list)
    max_episodes_per_maze: int = 0
    resolution: int = 128
    env: EnvConfig = field(default_factory=EnvConfig)
    generate: GenerateConfig = field(default_factory=GenerateConfig)
    clip: ClipConfig = field(default_factory=ClipConfig)
    llm: dict[str, Any] = field(default_factory=dict)

    @property
    def tasks(self) -> tuple[str, ...]:
        return TASKS if self.task == "all" else (self.task,)

    def __post_init__(self) -> None:
        choices = {
            "task": ("all", *TASKS),
            "condition": tuple(CONDITIONS),
            "agent": ("program", "random", "vlm"),
            "recognition": ("oracle", "clip"),
            "views": ("auto", "render", "dataset"),
        }
        for key, allowed in choices.items():
            if getattr(self, key) not in allowed:
                raise GraphNavConfigError(
                    f"graphnav.{key}={getattr(self, key)!r}; choose one of {list(allowed)}"
                )
        for key, sizes in (("graphnav.sizes", self.sizes), ("graphnav.generate.sizes", self.generate.sizes)):
            try:
                check_sizes(sizes, key)
            except ValueError as error:
                raise GraphNavConfigError(str(error)) from None

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> GraphNavConfig:
        """Build from the resolved `graphnav` node; unknown keys are an error."""
        return dataclass_from_dict(cls, values, "graphnav", GraphNavConfigError)
