"""`python -m tango.eval task=goat eval.num_episodes=N eval.output_dir=DIR`: evaluate a task (hydra entry point).

Writes DIR/episodes.jsonl, DIR/summary.json and DIR/report.html (see DESIGN.md and tango.harness); rerunning
the same command with the same DIR resumes. Configs live in configs/ (eval.yaml and its groups): presets over
the structured configs that tango.config_schema registers with hydra's ConfigStore when this module loads.

A mistake in the configuration, a path or a dataset, and a setup mistake found before the first episode (a
missing optional extra, a model path that does not exist, an unreachable endpoint, a missing GPU:
tango.preflight) end the run with one line naming the key, file, episode or field and the fix, and exit code 2; `--verbose` (or HYDRA_FULL_ERROR=1) shows the full traceback instead. SIGINT and
SIGTERM end it with 130 and 143 after writing summary.json (complete: false).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import hydra
from hydra.errors import HydraException
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from tango.analysis.breakdown import write_breakdown
from tango.config_schema import register_configs
from tango.formats.fields import DatasetError
from tango.harness.config import ConfigError
from tango.harness.dirlock import OutputDirBusy
from tango.harness.episode import PluginError
from tango.harness.registry import TaskRegistryError
from tango.harness.results import ResultsError
from tango.harness.run import RunError, run_evaluation
from tango.preflight import PreflightError, preflight
from tango.programs.generators.config import GeneratorError
from tango.scenes.datasets.default import prepare_default_dataset

CONFIG_DIR = str(Path(__file__).resolve().parent.parent / "configs")
VERBOSE_FLAG = "--verbose"
FULL_ERROR_ENV = "HYDRA_FULL_ERROR"
USER_ERROR_EXIT = 2
USER_ERRORS = (
    ConfigError,
    DatasetError,
    GeneratorError,
    OutputDirBusy,
    PluginError,
    PreflightError,
    ResultsError,
    RunError,
    TaskRegistryError,
)
"""What a user's configuration, paths or data can be wrong in; anything else is a bug and keeps its traceback."""

register_configs()  # registers the built-in tasks too (tango.config_schema.register_builtin_tasks)
_verbose = [False]


def resolved(cfg: DictConfig) -> dict[str, Any]:
    """The composed config as plain containers with interpolations resolved."""
    container = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(container, dict)
    return {str(key): value for key, value in container.items()}


def one_line(error: BaseException) -> str:
    """The message of a user error (and of the config error that caused it) on one line."""
    message = str(error).split("Config search path:")[
        0
    ]  # hydra's list of search paths says nothing useful here
    text = " ".join(line.strip() for line in message.splitlines() if line.strip()) or type(error).__name__
    cause = str(error.__cause__ or "").strip()
    if isinstance(error.__cause__, OmegaConfBaseException) and cause:
        text += f": {cause.splitlines()[0]}"
    return text


@hydra.main(version_base="1.3", config_path=CONFIG_DIR, config_name="eval")
def _hydra_main(cfg: DictConfig) -> None:
    try:
        config = resolved(cfg)
        preflight(config)
        run_evaluation(config, analyse=write_breakdown, prepare=prepare_default_dataset)
    except USER_ERRORS as error:
        if _verbose[0]:
            raise
        _refuse(error)
    except KeyboardInterrupt as stop:
        sys.exit(getattr(stop, "exit_code", 130))


def main() -> None:
    """Console-script entry point (`tango-eval`)."""
    _verbose[0] = VERBOSE_FLAG in sys.argv[1:] or bool(os.environ.get(FULL_ERROR_ENV))
    sys.argv = [arg for arg in sys.argv if arg != VERBOSE_FLAG]
    os.environ[FULL_ERROR_ENV] = "1"  # hydra then raises config errors here instead of printing them itself
    try:
        _hydra_main()
    except (HydraException, OmegaConfBaseException) as error:
        if _verbose[0]:
            raise
        _refuse(error)


def _refuse(error: BaseException) -> None:
    """End with the one-line message of a user error on stderr and exit code 2."""
    sys.stderr.write(f"tango.eval: error: {one_line(error)}\n")
    sys.exit(USER_ERROR_EXIT)


if __name__ == "__main__":
    main()
