"""A third-party package adds a primitive through the `tango.primitives` entry-point group (installed as a
.dist-info on sys.path, no network) and it shows up in the prompt and runs in a program."""

from __future__ import annotations

import sys

import pytest

from tango.primitives import REGISTRY, RegistryError, get_toolbox, isolated
from tango.primitives.context import AgentContext
from tango.programs import Interpreter, parse
from tango.programs.prompt import build_prompt

PLUGIN_MODULE = '''
"""A tiny third-party primitive plugin."""
from tango.primitives import primitive


@primitive
def wave_hello(ctx, times: int) -> str:
    """Wave at the person in front of the robot a number of times."""
    return "hello " * times
'''


def install_plugin(root):
    package = root / "tango_wave_plugin"
    package.mkdir()
    (package / "__init__.py").write_text(PLUGIN_MODULE)
    dist_info = root / "tango_wave_plugin-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: tango-wave-plugin\nVersion: 0.1\n")
    (dist_info / "entry_points.txt").write_text("[tango.primitives]\nwave = tango_wave_plugin\n")


def test_an_installed_plugin_primitive_is_in_the_prompt_and_callable(tmp_path, monkeypatch):
    install_plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    with isolated():
        box = get_toolbox("habitat")
        assert box.get("wave_hello") is not None
        assert "wave_hello(times: int) -> str" in build_prompt(box).system
        program = parse("return wave_hello(2)\n")
        result = Interpreter(box).run(program, AgentContext(agent=None))
        assert result.value == "hello hello "
    assert REGISTRY.toolboxes["habitat"].get("wave_hello") is None
    monkeypatch.delitem(sys.modules, "tango_wave_plugin", raising=False)


def test_a_broken_plugin_is_reported_by_name(tmp_path, monkeypatch):
    dist_info = tmp_path / "broken_plugin-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (dist_info / "entry_points.txt").write_text("[tango.primitives]\nbroken = no_such_module_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with (
        isolated(),
        pytest.raises(RegistryError, match="plugin 'broken' \\(no_such_module_xyz\\) failed to load"),
    ):
        get_toolbox("habitat")
