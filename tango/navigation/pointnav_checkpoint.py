"""PointNav checkpoints: the architectures by name, and loading / saving in habitat-baselines' layout.

A checkpoint is habitat-baselines' DD-PPO dict `{"state_dict": {"actor_critic.<name>": tensor}, "config": ...}`
or a plain state dict (VLFM's pointnav_weights.pth). tango adds `tango_pointnav` (architecture, depth size and
range, motion settings, training record) beside them; a checkpoint without it is the ResNet-18 policy, so
habitat-baselines' and VLFM's files load unchanged and ours load in their code by key.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from tango.errors import ComponentError
from tango.navigation.pointnav_net import PointNavPolicy
from tango.navigation.pointnav_policy import RecurrentPointNavPolicy
from tango.navigation.pointnav_small import SmallMapPointNavPolicy, SmallPointNavPolicy

ARCHITECTURES: dict[str, Callable[[], RecurrentPointNavPolicy]] = {
    PointNavPolicy.architecture: PointNavPolicy,
    SmallPointNavPolicy.architecture: SmallPointNavPolicy,
    SmallMapPointNavPolicy.architecture: SmallMapPointNavPolicy,
}
METADATA_KEY = "tango_pointnav"
STATE_PREFIX = "actor_critic."
PROJECT_ROOT = Path(__file__).resolve().parents[2]


class CheckpointError(ComponentError):
    """A PointNav checkpoint that is missing or does not fit the policy architecture."""


def build_policy(architecture: str) -> RecurrentPointNavPolicy:
    """A randomly initialised policy of a named architecture."""
    if architecture not in ARCHITECTURES:
        raise CheckpointError(
            f"unknown PointNav architecture {architecture!r}; known: {sorted(ARCHITECTURES)}"
        )
    return ARCHITECTURES[architecture]()


def resolve_checkpoint_path(path: str | Path) -> Path:
    """A relative path as given when it exists from the working directory, else under the project root (where
    `checkpoints/` lives), so the default checkpoint is found from any directory."""
    given = Path(path)
    if given.is_absolute() or given.exists():
        return given
    beside_project = PROJECT_ROOT / given
    return beside_project if beside_project.exists() else given


def extract_state_dict(checkpoint: Any, path: Path) -> dict[str, torch.Tensor]:
    """The policy weights of a habitat-baselines checkpoint ({"state_dict": ..., "config": ...}) or of a plain
    state dict (VLFM's pointnav_weights.pth); DDP `module.`/`actor_critic.` prefixes are removed."""
    state = checkpoint.get("state_dict", checkpoint) if isinstance(checkpoint, dict) else None
    if not isinstance(state, dict):
        raise CheckpointError(
            f"{path}: expected a state dict or a dict with 'state_dict', got {type(checkpoint)}"
        )
    cleaned = {}
    for key, value in state.items():
        for prefix in ("module.", STATE_PREFIX):
            key = key.removeprefix(prefix)
        cleaned[key] = value
    return cleaned


def checkpoint_metadata(checkpoint: Any) -> dict[str, Any]:
    """tango's record in a checkpoint (empty for habitat-baselines' and VLFM's files)."""
    metadata = checkpoint.get(METADATA_KEY) if isinstance(checkpoint, dict) else None
    return dict(metadata) if isinstance(metadata, dict) else {}


def read_checkpoint(path: str | Path) -> Any:
    """The unpickled checkpoint file; CheckpointError naming the file when it is absent."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"{path}: PointNav checkpoint not found (see checkpoints/README.md)")
    return torch.load(path, map_location="cpu", weights_only=False)


def policy_from_checkpoint(checkpoint: Any, path: Path) -> RecurrentPointNavPolicy:
    """The policy a loaded checkpoint describes, with its weights; names and shapes must match exactly."""
    architecture = str(checkpoint_metadata(checkpoint).get("architecture", PointNavPolicy.architecture))
    policy = build_policy(architecture)
    state = extract_state_dict(checkpoint, path)
    expected = policy.state_dict()
    missing = sorted(set(expected) - set(state))
    if missing:
        raise CheckpointError(
            f"{path}: missing {len(missing)} {architecture} policy weights, e.g. {missing[:3]}"
        )
    wrong = [k for k in expected if tuple(state[k].shape) != tuple(expected[k].shape)]
    if wrong:
        raise CheckpointError(f"{path}: shape mismatch for {wrong[:3]}")
    policy.load_state_dict({k: state[k] for k in expected})
    return policy


def load_pointnav_policy(path: str | Path, device: str = "cpu") -> RecurrentPointNavPolicy:
    """Build the policy and load a checkpoint into it; raises CheckpointError naming the file and the problem."""
    path = resolve_checkpoint_path(path)
    return policy_from_checkpoint(read_checkpoint(path), path).to(device).eval()


def checkpoint_dict(
    policy: RecurrentPointNavPolicy, config: dict[str, Any], metadata: dict[str, Any]
) -> dict[str, Any]:
    """habitat-baselines' layout (`actor_critic.` keys, `config`) plus tango's record with the architecture."""
    state = {STATE_PREFIX + key: value.detach().cpu().clone() for key, value in policy.state_dict().items()}
    record = {**metadata, "architecture": policy.architecture, "depth_size": policy.depth_size}
    return {"state_dict": state, "config": config, METADATA_KEY: record}
