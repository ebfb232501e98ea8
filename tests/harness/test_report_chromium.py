"""report.html opened in headless Chromium (Debian package `chromium`): the page renders one row per episode."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tango.harness.run import run_evaluation
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


@pytest.mark.slow
def test_report_renders_its_rows_in_headless_chromium(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_evaluation(fake_config(run_dir, task={"fail_ids": ["fake-001"]}, num_episodes=4, video=True))
    command = [
        _chromium(),
        *CHROMIUM_FLAGS,
        f"--user-data-dir={tmp_path / 'profile'}",
        "--dump-dom",
        (run_dir / "report.html").as_uri(),
    ]
    result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    dom = result.stdout
    assert dom.count('<tr class="episode') == 4
    assert 'data-episode-id="fake-001"' in dom and "FakeEpisodeError" in dom
    assert 'id="summary"' in dom and 'src="thumbnails/fake-003.png"' in dom
