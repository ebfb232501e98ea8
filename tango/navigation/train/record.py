"""What a training run leaves in its output folder: curves.csv (one row per update), checkpoints/latest.pth
(resumable: weights, optimiser, counters), checkpoints/policy_<env steps>.pth at each validation and
policy.pth at the end (the weights alone, in the layout agent.navigation.pointnav_checkpoint loads).

Every tensor is written from the CPU and read with map_location, so a run trained on a GPU resumes on the CPU
and the other way round."""

from __future__ import annotations

import csv
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from tango.navigation.pointnav_checkpoint import checkpoint_dict, policy_from_checkpoint
from tango.navigation.pointnav_policy import RecurrentPointNavPolicy

CURVE_FIELDS = (
    "update",
    "env_steps",
    "wall_s",
    "cpu_s",
    "phase",
    "loss",
    "teacher_agreement",
    "beta",
    "value_loss",
    "entropy",
    "reward",
    "train_episodes",
    "train_success",
    "train_spl",
    "val_episodes",
    "val_success",
    "val_spl",
    "steps_per_s",
)
RESUME_KEY = "resume"


@dataclass
class Progress:
    """Counters that survive a resume: updates, environment steps, episodes, wall and CPU seconds (CPU summed
    over processes)."""

    update: int = 0
    env_steps: int = 0
    episodes: int = 0
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0


class Curves:
    """Appends rows to curves.csv (the header once); each row is written and closed at once, so a killed run
    keeps its curve. Rows after `resumed_at` (updates a killed run made after its last checkpoint, which the
    resumed run makes again) are dropped."""

    def __init__(self, path: Path, resumed_at: int = 0) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        kept: list[dict[str, str]] = []
        if path.exists():
            with open(path, newline="") as fh:
                kept = [row for row in csv.DictReader(fh) if int(row["update"]) <= resumed_at]
        with open(path, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=CURVE_FIELDS)
            writer.writeheader()
            writer.writerows(kept)

    def write(self, row: dict[str, Any]) -> None:
        with open(self.path, "a", newline="") as fh:
            csv.DictWriter(fh, fieldnames=CURVE_FIELDS).writerow(
                {key: _cell(row.get(key)) for key in CURVE_FIELDS}
            )


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    return round(value, 5) if isinstance(value, float) else value


def save_atomic(data: dict[str, Any], path: Path) -> None:
    """torch.save to a temporary file renamed into place (a kill never leaves half a checkpoint)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        torch.save(data, tmp)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def save_resumable(
    path: Path,
    policy: RecurrentPointNavPolicy,
    optimizer: torch.optim.Optimizer,
    progress: Progress,
    config: dict[str, Any],
    metadata: dict[str, Any],
) -> None:
    """The policy checkpoint plus what a resumed run needs."""
    data = checkpoint_dict(policy, config, metadata)
    data[RESUME_KEY] = {"optimizer": on_cpu(optimizer.state_dict()), "progress": vars(progress).copy()}
    save_atomic(data, path)


def load_resumable(
    path: Path, policy: RecurrentPointNavPolicy, optimizer: torch.optim.Optimizer
) -> Progress | None:
    """Restore weights, optimiser and counters from a run's latest checkpoint onto the policy's device (the
    optimiser's state follows its parameters); None when there is none."""
    if not path.is_file():
        return None
    device = next(policy.parameters()).device
    data = torch.load(path, map_location=device, weights_only=False)
    policy.load_state_dict(policy_from_checkpoint(data, path).state_dict())
    optimizer.load_state_dict(data[RESUME_KEY]["optimizer"])
    return Progress(**data[RESUME_KEY]["progress"])


def on_cpu(value: Any) -> Any:
    """`value` (nested dicts, lists and tuples of tensors and plain values) with every tensor copied to the CPU."""
    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, dict):
        return {key: on_cpu(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(on_cpu(item) for item in value)
    return value
