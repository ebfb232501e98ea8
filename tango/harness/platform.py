"""What a run ran on, for summary.json's `platform`: the GL renderer of the embedded simulator (e.g. "NVIDIA
H200/PCIe/SSE2" through the GPU's EGL, "llvmpipe (...)" on CPU-only machines), the devices the model components
resolved to (tango.devices: perception, the learned point-goal controller, the hf generator) and the GPUs torch
sees. Asked once per process, after the episodes: a throwaway EGL context answers the renderer question."""

from __future__ import annotations

import functools
from typing import Any

from tango.devices import DeviceError, resolve_device


@functools.lru_cache(maxsize=1)
def gl_renderer() -> str:
    """GL_RENDERER of a fresh headless EGL context (read while it is current), or "unavailable: <reason>"."""
    from tango.sim.render import RendererError, create_gl_context

    try:
        ctx = create_gl_context()
    except RendererError as error:
        return f"unavailable: {error}"
    try:
        with ctx:
            return str(ctx.info["GL_RENDERER"])
    finally:
        ctx.release()


def _device(name: str, key: str) -> str:
    try:
        return resolve_device(name, key)
    except DeviceError as error:
        return f"invalid: {error}"


def platform_info(config: dict[str, Any]) -> dict[str, Any]:
    """The renderer, the resolved device of each model component this config names, and torch's GPUs."""
    import torch

    sim = config.get("sim") or {}
    perception = config.get("perception") or {}
    navigation = (config.get("agent") or {}).get("navigation") or {}
    generator = config.get("generator") or {}
    devices = {
        "perception": _device(str(perception.get("device", "auto")), "perception.device"),
        "pointnav": _device(
            str(navigation.get("pointnav_device", "cpu")), "agent.navigation.pointnav_device"
        ),
    }
    if generator.get("name") == "hf":
        devices["generator"] = _device(str(generator.get("device", "auto")), "generator.device")
    gpus = (
        [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
        if torch.cuda.is_available()
        else []
    )
    return {
        "gl_renderer": gl_renderer() if sim.get("backend", "embedded") == "embedded" else None,
        "devices": devices,
        "cuda_devices": gpus,
        "torch": torch.__version__,
    }
