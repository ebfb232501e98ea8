"""UrbanGround run settings (configs/task/urban.yaml, top-level key `urban`), validated with clear errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tango.config_utils import dataclass_from_dict
from tango.urban.kinds import BY_PREFIX, KINDS, RUNGS

AGENTS = ("program", "mllm", "random")
SIGN_READERS = ("ocr", "oracle", "none")
MAP_READERS = ("pixels",)
DEFAULT_MAX_STEPS = {
    "LQ": 30,
    "OQ": 30,
    "SQ": 80,
    "SN": 40,
    "LN": 150,
    "IN": 80,
    "CN": 100,
    "PS": 120,
    "II": 120,
    "SF": 200,
    "MP": 200,
    "DCR": 160,
    "PL": 150,
    "RN": 40,
    "NTN": 40,
}


class UrbanConfigError(ValueError):
    """An urban setting is unknown or out of range; the message names the key."""


@dataclass
class GenerateConfig:
    """The task set written on first use when `task_dir` is empty: district seed and tasks per kind."""

    seed: int = 0
    per_kind: int = 8


@dataclass
class PerceptionSettings:
    """How the program agent reads the world: signs (`ocr`: Tesseract OCR of the screenshot; `oracle`: the
    stand-in's ground truth, a named oracle; `none`: it reads no signs) and the map (`pixels`: classifies
    map-view pixels by the published legend)."""

    signs: str = "ocr"
    map: str = "pixels"


@dataclass
class UrbanConfig:
    """Which tasks (city folder, rung, kinds), which agent, step limits, screenshots and the client."""

    city_dir: str = ""
    rung: str = "all"
    kinds: list[str] = field(default_factory=list)
    agent: str = "program"
    max_steps: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_MAX_STEPS))
    on_time_grace_s: float = 60.0
    width: int = 640
    height: int = 480
    timeout_s: float = 30.0
    retries: int = 2
    perception: PerceptionSettings = field(default_factory=PerceptionSettings)
    generate: GenerateConfig = field(default_factory=GenerateConfig)
    llm: dict[str, Any] = field(default_factory=dict)
    judge: dict[str, Any] = field(default_factory=dict)
    mllm_show_state: bool = False
    mllm_history: int = 8
    variants: str = "none"

    def __post_init__(self) -> None:
        if self.rung not in ("all", *RUNGS):
            raise UrbanConfigError(f"urban.rung={self.rung!r}; choose one of {['all', *RUNGS]}")
        if self.variants not in ("none", "all"):
            raise UrbanConfigError(f"urban.variants={self.variants!r}; none (the files as they are) or all")
        if self.agent not in AGENTS:
            raise UrbanConfigError(f"urban.agent={self.agent!r}; choose one of {list(AGENTS)}")
        unknown = sorted(set(self.kinds) - set(BY_PREFIX))
        if unknown:
            raise UrbanConfigError(f"urban.kinds has unknown prefixes {unknown}; known: {sorted(BY_PREFIX)}")
        if self.perception.signs not in SIGN_READERS:
            raise UrbanConfigError(
                f"urban.perception.signs={self.perception.signs!r}; one of {list(SIGN_READERS)}"
            )
        if self.perception.map not in MAP_READERS:
            raise UrbanConfigError(
                f"urban.perception.map={self.perception.map!r}; one of {list(MAP_READERS)}"
            )
        missing = sorted({kind.prefix for kind in KINDS} - set(self.max_steps))
        if missing:
            raise UrbanConfigError(f"urban.max_steps lacks {missing}")

    def steps_for(self, prefix: str, base: str = "") -> int:
        """The step limit of a kind; a variant without its own entry gets its base kind's."""
        return int(self.max_steps.get(prefix) or self.max_steps[base or prefix])

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> UrbanConfig:
        return dataclass_from_dict(cls, values, "urban", UrbanConfigError)
