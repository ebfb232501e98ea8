"""`python -m tango.navigation.train [--device auto|cpu|cuda] [train.<key>=value ...]`: train a PointGoal policy
(hydra entry point; `--device X` is `train.device=X`).

Settings: configs/train_pointnav.yaml (`train`: tango.navigation.train.config.PointNavTrainConfig; `sim`: the
camera and motion settings the policy is trained for). Several processes: `torchrun --nproc_per_node N -m
tango.navigation.train ...` (DD-PPO with train.phase=ppo; imitation averages its gradients the same way; on GPUs
each process takes cuda:LOCAL_RANK and nccl, on CPUs gloo).
Writes train.output_dir/curves.csv, checkpoints/latest.pth (a rerun resumes from it) and policy.pth.
"""

from __future__ import annotations

import logging
import sys

import hydra
from omegaconf import DictConfig

from tango.config_schema import register_configs
from tango.config_utils import dataclass_from_dict
from tango.devices import DeviceError
from tango.eval import CONFIG_DIR, resolved
from tango.navigation.pointnav_checkpoint import CheckpointError
from tango.navigation.train.config import PointNavTrainConfig
from tango.navigation.train.distributed import start_workers, stop_workers
from tango.navigation.train.trainer import Trainer
from tango.sim.habitat_env import sim_config_from_dict

log = logging.getLogger("tango.navigation.train")
register_configs()
DEVICE_FLAG = "--device"


def device_flag_as_override(argv: list[str]) -> list[str]:
    """`--device X` / `--device=X` rewritten as the hydra override `train.device=X` (other arguments kept)."""
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == DEVICE_FLAG:
            out.append(f"train.device={next(args, '')}")
        elif arg.startswith(DEVICE_FLAG + "="):
            out.append(f"train.device={arg.split('=', 1)[1]}")
        else:
            out.append(arg)
    return out


@hydra.main(version_base="1.3", config_path=CONFIG_DIR, config_name="train_pointnav")
def _hydra_main(cfg: DictConfig) -> None:
    values = resolved(cfg)
    try:
        config = dataclass_from_dict(PointNavTrainConfig, values["train"], "train")
        sim = sim_config_from_dict(values["sim"])
    except ValueError as error:
        log.error("%s", error)
        sys.exit(2)
    try:
        workers = start_workers(config.device)
    except DeviceError as error:
        log.error("%s", error)
        sys.exit(2)
    try:
        final = Trainer(config, sim, workers).run()
    except (CheckpointError, ValueError) as error:
        log.error("%s", error)
        sys.exit(2)
    finally:
        stop_workers(workers)
    if final is not None:
        log.info("wrote %s (resumable state in %s/checkpoints/latest.pth)", final, config.output_dir)


if __name__ == "__main__":
    sys.argv = [sys.argv[0], *device_flag_as_override(sys.argv[1:])]
    _hydra_main()
