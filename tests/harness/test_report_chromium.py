"""report.html opened in headless Chromium (Debian package `chromium`): the page renders one row per episode,
its script runs (filters count the rows), and a GOAT run's page shows the configuration, the charts, the
failure causes, the real goals (description text, goal pictures) and a non-blank screenshot."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tango.analysis.breakdown import write_breakdown
from tango.harness.run import run_evaluation
from tests.agent.synthetic import eval_config, read_jsonl, tiny_dataset
from tests.harness.conftest import fake_config

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str:
    """The chromium binary; installed with apt-get when missing and running as root, else the test skips."""
    found = shutil.which("chromium")
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.skip("chromium is not installed (apt-get install chromium, as root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(
        ["apt-get", "install", "-y", "-q", "chromium"], check=True, env=env, capture_output=True, timeout=900
    )
    found = shutil.which("chromium")
    if not found:
        pytest.skip("apt-get install chromium did not provide a chromium binary")
    return found


def _chromium_run(tmp_path: Path, *arguments: str) -> str:
    command = [_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *arguments]
    result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@pytest.mark.slow
def test_report_renders_its_rows_in_headless_chromium(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_evaluation(fake_config(run_dir, task={"fail_ids": ["fake-001"]}, num_episodes=4, video=True))
    dom = _chromium_run(tmp_path, "--dump-dom", (run_dir / "report.html").as_uri())
    assert dom.count('<tr class="episode') == 4
    assert 'data-episode-id="fake-001"' in dom and "FakeEpisodeError" in dom
    assert 'id="summary"' in dom and 'src="thumbnails/fake-003.png"' in dom
    assert "4 of 4 rows" in dom  # written by the page's script


@pytest.mark.slow
def test_a_goat_report_shows_configuration_charts_causes_and_real_goals(tmp_path: Path) -> None:
    root = tiny_dataset(tmp_path)
    run_dir = tmp_path / "goat"
    config = eval_config(
        root, "goat", run_dir, "eval.num_episodes=1", "task.max_steps=30", "eval.report=true"
    )
    run_evaluation(config, analyse=write_breakdown)
    dom = _chromium_run(tmp_path, "--dump-dom", (run_dir / "report.html").as_uri())
    subtasks = read_jsonl(run_dir / "episodes.jsonl")[0]["subtasks"]
    assert (
        dom.count('<tr class="episode') == len(subtasks) and f"{len(subtasks)} of {len(subtasks)} rows" in dom
    )
    assert (
        'id="config"' in dom
        and "oracle components" in dom
        and "success_distance = 1" in dom
        and "hfov" in dom
    )
    assert dom.count('<svg class="chart"') >= 2 and 'id="breakdown"' in dom
    described = [s["goal"] for s in subtasks if s["goal_type"] == "description"]
    pictured = [s["goal_image_path"] for s in subtasks if s["goal_type"] == "image"]
    assert described and pictured, "the tiny GOAT episode has a description and an image subtask"
    assert all(text in dom for text in described) and "the object described in" not in dom
    assert all(f'src="{path}"' in dom and (run_dir / path).is_file() for path in pictured)
    assert "<details><summary>program</summary>" in dom
    shot = tmp_path / "report.png"
    _chromium_run(tmp_path, "--hide-scrollbars", "--window-size=1400,1600", f"--screenshot={shot}",
                  (run_dir / "report.html").as_uri())  # fmt: skip
    pixels = np.asarray(Image.open(shot).convert("L"))
    assert pixels.shape == (1600, 1400) and pixels.std() > 20
