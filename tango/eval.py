"""`python -m tango.eval task=goat eval.num_episodes=N eval.output_dir=DIR`: evaluate a task (hydra entry point).

Writes DIR/episodes.jsonl, DIR/summary.json and DIR/report.html (see DESIGN.md and tango.harness); rerunning
the same command with the same DIR resumes. Configs live in configs/ (eval.yaml and its groups): presets over
the structured configs that tango.config_schema registers with hydra's ConfigStore when this module loads.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import hydra
from omegaconf import DictConfig, OmegaConf

from tango.config_schema import register_configs
from tango.harness.config import ConfigError
from tango.harness.episode import PluginError
from tango.harness.results import ResultsError
from tango.harness.run import RunError, run_evaluation

CONFIG_DIR = str(Path(__file__).resolve().parent.parent / "configs")

log = logging.getLogger("tango.eval")
register_configs()


def resolved(cfg: DictConfig) -> dict[str, Any]:
    """The composed config as plain containers with interpolations resolved."""
    container = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(container, dict)
    return {str(key): value for key, value in container.items()}


@hydra.main(version_base="1.3", config_path=CONFIG_DIR, config_name="eval")
def _hydra_main(cfg: DictConfig) -> None:
    try:
        run_evaluation(resolved(cfg))
    except (ConfigError, PluginError, ResultsError, RunError) as error:
        log.error("%s", error)
        sys.exit(2)


def main() -> None:
    """Console-script entry point (`tango-eval`)."""
    _hydra_main()


if __name__ == "__main__":
    main()
