"""Load models once per process and reuse them; choose the device and dtype (cuda + fp16 when available)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import torch

from tango.devices import resolve_device
from tango.errors import ComponentError

T = TypeVar("T")

_CACHE: dict[tuple[Any, ...], Any] = {}
_LOCK = threading.Lock()


class ModelLoadError(ComponentError):
    """A model that could not be loaded; the message names the path and the cause."""


@dataclass(frozen=True)
class Placement:
    """Where a model runs and in which floating-point type."""

    device: str
    dtype: torch.dtype


def placement(device: str = "auto", half: bool = True) -> Placement:
    """`auto` picks cuda when present (tango.devices.resolve_device); fp16 only on cuda and only when `half`."""
    resolved = resolve_device(device, "perception.device")
    dtype = torch.float16 if half and resolved.startswith("cuda") else torch.float32
    return Placement(resolved, dtype)


def cached(key: tuple[Any, ...], load: Callable[[], T]) -> T:
    """The model stored under `key`, loading it with `load()` the first time in this process."""
    with _LOCK:
        if key not in _CACHE:
            _CACHE[key] = load()
        return _CACHE[key]  # type: ignore[no-any-return]


def clear_cache() -> None:
    """Forget every cached model (benchmarks build large models one at a time)."""
    with _LOCK:
        _CACHE.clear()


def cached_count() -> int:
    """How many models this process holds (for tests and benchmarks)."""
    return len(_CACHE)


def load_pretrained(loader: Callable[[str], T], path: str, what: str) -> T:
    """Call `loader(path)` (a `from_pretrained`), turning any failure into a ModelLoadError naming `path`."""
    if not path:
        raise ModelLoadError(f"{what}: no model path or hub id configured")
    try:
        return loader(path)
    except (OSError, ValueError, KeyError, RuntimeError) as error:
        where = "local folder" if Path(path).exists() else "hub id (offline: must be in the HF cache)"
        raise ModelLoadError(f"{what}: cannot load {path!r} ({where}): {error}") from error
