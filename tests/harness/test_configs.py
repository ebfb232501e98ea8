"""configs/: eval.yaml composes for every task, sim=habitat loads without habitat-sim, the SLURM launcher composes."""

from __future__ import annotations

from typing import Any

import pytest
from hydra import compose, initialize_config_dir
from hydra.utils import get_class
from omegaconf import OmegaConf

from tango.config_schema import register_configs
from tango.harness.config import ConfigError, EvalConfig
from tests.harness.conftest import CONFIG_DIR

TASKS = sorted(path.stem for path in (CONFIG_DIR / "task").glob("*.yaml"))


def _compose(overrides: list[str], hydra_node: bool = False) -> Any:
    register_configs()
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        return compose(config_name="eval", overrides=overrides, return_hydra_config=hydra_node)


@pytest.mark.parametrize("task", TASKS)
def test_eval_config_composes_for_every_task(task: str) -> None:
    cfg = _compose([f"task={task}"])
    assert cfg.task.name == task
    assert "plugin" in cfg.task
    settings = OmegaConf.to_container(cfg.eval, resolve=True)
    assert isinstance(settings, dict)
    eval_cfg = EvalConfig.from_dict(settings)
    assert eval_cfg.output_dir.startswith(f"runs/{task}/")
    assert eval_cfg.num_workers == "auto" and eval_cfg.num_shards == 1


def test_default_task_is_goat() -> None:
    assert _compose([]).task.name == "goat"


def test_habitat_sim_config_loads_without_habitat_sim() -> None:
    cfg = _compose(["task=goat", "sim=habitat"])
    assert OmegaConf.to_container(cfg, resolve=True)


def test_slurm_launcher_config_composes_over_the_submitit_plugin() -> None:
    overrides = [
        "hydra/launcher=slurm",
        "hydra.launcher.partition=gpu",
        "task=ovon",
    ]
    cfg = _compose(overrides, hydra_node=True)
    launcher = OmegaConf.to_container(cfg.hydra.launcher, resolve=False)
    assert isinstance(launcher, dict)
    assert get_class(str(launcher["_target_"])).__name__ == "SlurmLauncher"
    assert launcher["partition"] == "gpu"
    assert cfg.hydra.launcher.name == "tango-ovon"
    assert cfg.hydra.launcher.timeout_min == 240 and cfg.hydra.launcher.gpus_per_node == 1
    assert cfg.hydra.launcher.signal_delay_s == 120  # a key only the plugin schema defines


def test_eval_config_rejects_unknown_and_out_of_range_settings() -> None:
    with pytest.raises(ConfigError, match="num_worker"):
        EvalConfig.from_dict({"output_dir": "x", "num_worker": 2})
    with pytest.raises(ConfigError, match="eval.shard"):
        EvalConfig(output_dir="x", shard=3, num_shards=2)
    with pytest.raises(ConfigError, match="num_workers"):
        EvalConfig(output_dir="x", num_workers=0)
    with pytest.raises(ConfigError, match="num_workers"):
        EvalConfig(output_dir="x", num_workers="all")
