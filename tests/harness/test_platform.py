"""summary.json's `platform`: the GL renderer read from a current EGL context (moderngl returns "" and caches it
when none is current, which is what left bench.py sim's field empty) and the devices the components resolved to."""

from __future__ import annotations

from tango.harness.platform import gl_renderer, platform_info
from tango.sim.render import create_gl_context


def test_the_renderer_is_named_and_matches_a_context_of_our_own() -> None:
    name = gl_renderer()
    assert name and not name.startswith("unavailable"), name
    ctx = create_gl_context()
    try:
        with ctx:
            assert ctx.info["GL_RENDERER"] == name
    finally:
        ctx.release()


def test_devices_are_resolved_per_component_and_bad_names_say_so() -> None:
    config = {
        "perception": {"device": "cpu"},
        "agent": {"navigation": {"pointnav_device": "gpu"}},
        "generator": {"name": "hf", "device": "cpu"},
        "sim": {"backend": "habitat"},
    }
    info = platform_info(config)
    assert info["devices"]["perception"] == "cpu" and info["devices"]["generator"] == "cpu"
    assert info["devices"]["pointnav"].startswith("invalid: agent.navigation.pointnav_device must be")
    assert info["gl_renderer"] is None  # habitat-sim renders, not our EGL context
    assert isinstance(info["cuda_devices"], list) and info["torch"]
