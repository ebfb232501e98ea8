"""configs/agent/default.yaml mirrors the AgentConfig dataclasses field for field, with the same defaults."""

from __future__ import annotations

from pathlib import Path

from omegaconf import OmegaConf

from tango.navigation.config import AgentConfig

CONFIG = Path(__file__).resolve().parents[2] / "configs" / "agent" / "default.yaml"


def test_agent_yaml_matches_dataclass_defaults() -> None:
    from_yaml = OmegaConf.load(CONFIG)
    structured = OmegaConf.structured(AgentConfig)
    merged = OmegaConf.merge(structured, from_yaml)  # raises on unknown keys or wrong types
    assert OmegaConf.to_container(merged) == OmegaConf.to_container(structured)
    assert set(from_yaml.keys()) == {"map", "navigation", "explore"}
    for group in ("map", "navigation", "explore"):
        assert set(from_yaml[group].keys()) == set(structured[group].keys()), group
