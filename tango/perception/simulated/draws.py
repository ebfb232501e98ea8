"""Deterministic random draws for simulated perception, keyed by what the camera sees rather than by when.

A draw is a pure function of (seed, scene, camera pose, stream, item): the same pose in the same scene gives the
same perception in every run and for every agent (a real detector is a function of its image, and the image is a
function of the pose in a static scene), so paired comparisons of two agents differ only where the agents
looked from different places. Streams (detection, label, score, ...) and items (object ids, false-positive
slots) are independent of each other, so what one query asks never changes what another query sees.

Uniforms come from a splitmix64 hash, vectorised in numpy: no generator is created per object or frame.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np
from scipy.special import ndtri

from tango.types.observation import Observation

POSE_DECIMALS = 3
"""Camera poses are rounded to this many decimals (1 mm, 1e-3 of a rotation entry) before hashing, so the same
place reached along different paths (float rounding) draws the same perception."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def text_key(*parts: object) -> int:
    """A 64-bit key from any printable parts (seed, scene id, a label, a description)."""
    digest = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def frame_key(seed: int, scene_id: str, obs: Observation) -> int:
    """The key of one view: the seed, the scene and the camera pose (position, orientation, pitch), rounded."""
    pose = np.round(np.asarray(obs.camera_pose, dtype=np.float64), POSE_DECIMALS) + 0.0  # -0.0 -> 0.0
    digest = hashlib.blake2b(digest_size=8)
    digest.update(f"{seed}\x1f{scene_id}\x1f{obs.hfov_deg:.3f}\x1f{obs.height}x{obs.width}".encode())
    digest.update(pose.tobytes())
    return int.from_bytes(digest.digest(), "little")


def _splitmix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on uint64 arrays (array arithmetic wraps modulo 2**64 without warnings)."""
    z = values + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@lru_cache(maxsize=4096)
def _stream(stream: str) -> int:
    return text_key("stream", stream)


def uniforms(key: int, stream: str, items: np.ndarray | list[int]) -> np.ndarray:
    """(N,) uniforms in (0, 1), one per item (an object id, a slot index), for `key` and a named stream."""
    base = _splitmix(np.array([key ^ _stream(stream)], dtype=np.uint64))
    ids = np.asarray(items, dtype=np.int64).astype(np.uint64)
    mixed = _splitmix(_splitmix(ids ^ base) + base)
    return ((mixed >> np.uint64(11)).astype(np.float64) + 0.5) / float(1 << 53)


def normals(key: int, stream: str, items: np.ndarray | list[int]) -> np.ndarray:
    """(N,) standard normal draws, one per item (the inverse normal CDF of `uniforms`)."""
    return np.asarray(ndtri(uniforms(key, stream, items)), dtype=np.float64)
