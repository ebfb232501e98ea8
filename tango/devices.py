"""Where models run: one resolver for every `device` setting (perception.device, agent.navigation.pointnav_device,
generator.device, train.device, ...), so `auto` means the same everywhere.

Accepted names: `auto` (the first CUDA GPU when torch sees one, else the CPU), `cpu`, `cuda` and `cuda:N`.
torch is imported only to answer `auto` or to check that a requested GPU exists.
"""

from __future__ import annotations

import re

DEVICE_PATTERN = re.compile(r"^(auto|cpu|cuda(:\d+)?)$")


class DeviceError(ValueError):
    """A device setting that names no device, or a GPU this machine does not have."""


def cuda_device_count() -> int:
    """How many CUDA GPUs torch sees (0 without a CUDA build or driver)."""
    import torch

    return int(torch.cuda.device_count()) if torch.cuda.is_available() else 0


def check_device_name(name: str, key: str = "device") -> str:
    """`name` when it is a device name this module accepts; DeviceError naming `key` otherwise (no torch)."""
    if not DEVICE_PATTERN.match(name):
        raise DeviceError(f"{key} must be auto, cpu, cuda or cuda:N, got {name!r}")
    return name


def resolve_device(name: str, key: str = "device", gpus: int | None = None) -> str:
    """The torch device string for a setting: `auto` -> "cuda" with a GPU, else "cpu"; `cuda`/`cuda:N` only
    when that GPU exists (DeviceError naming `key` otherwise). `gpus` overrides the count torch reports."""
    check_device_name(name, key)
    if name == "cpu":
        return "cpu"
    count = cuda_device_count() if gpus is None else gpus
    if name == "auto":
        return "cuda" if count > 0 else "cpu"
    index = int(name.partition(":")[2] or 0)
    if index >= count:
        found = f"{count} CUDA GPU(s)" if count else "no CUDA GPU"
        raise DeviceError(f"{key}={name}, but torch sees {found} here: use {key}=auto or {key}=cpu")
    return name
