"""`python -m tango.programs check FILE` and `prompt --task`, run as a user runs them."""

from __future__ import annotations

import subprocess
import sys


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tango.programs", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_prints_the_canonical_program(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(
        "Program:\nexplore_scene()\nbed = detect(\u201cbed\u201d)\nif is_found(bed):\n    stop()\n"
    )
    done = run_cli("check", str(path))
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout
        == "while explore_scene():\n    bed = detect('bed')\n    if is_found(bed):\n        stop()\n"
    )


def test_check_reports_the_error_with_its_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("x = detect('a')\ny = open('/etc/passwd')\n")
    done = run_cli("check", str(path))
    assert done.returncode == 1
    assert done.stderr.strip() == f"{path}:2: calling 'open' is not allowed"


def test_prompt_prints_the_full_goat_prompt():
    done = run_cli("prompt", "--task", "goat", "--instruction", "Find the bed.")
    assert done.returncode == 0
    assert "navigate_to(" in done.stdout and "goal_image" in done.stdout
    assert done.stdout.count("Question:") == 16 and done.stdout.endswith(
        "Question: Find the bed.\nProgram:\n"
    )
