"""Config presets as the eval command composes them (configs/<group>/<name>.yaml over its schema)."""

from __future__ import annotations

from typing import Any

from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from tango.eval import CONFIG_DIR


def preset(group: str, name: str, *overrides: str) -> dict[str, Any]:
    """The resolved `group` section of `python -m tango.eval <group>=<name> overrides...`."""
    with initialize_config_dir(config_dir=CONFIG_DIR, version_base="1.3"):
        cfg = compose(config_name="eval", overrides=[f"{group}={name}", *overrides])
    section = OmegaConf.to_container(cfg[group], resolve=True)
    assert isinstance(section, dict)
    return {str(key): value for key, value in section.items()}
