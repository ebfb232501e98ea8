"""The compatibility set (`pytest -m compat`, run by scripts/test_compat.sh in a second environment holding the
newest numpy and OpenCV): habitat-lab imports through tango under numpy 2 and OpenCV 5 without gym's banner,
pyproject's ranges admit what is installed, and one episode of each Habitat task runs through `tango.eval`.
The main suite deselects these (they assert the newest versions, which the pinned environment does not have)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.agent.synthetic import data_path, tiny_dataset

pytestmark = pytest.mark.compat
ROOT = Path(__file__).resolve().parents[2]
GYM_BANNER = "Gym has been unmaintained"
HABITAT_TASKS = ("objectnav", "ovon", "goat", "openeqa", "pointnav")


def test_this_environment_has_numpy_2_and_opencv_5() -> None:
    import cv2
    import numpy as np

    assert int(np.__version__.split(".")[0]) >= 2, np.__version__
    assert int(cv2.__version__.split(".")[0]) >= 5, cv2.__version__


def test_pyproject_ranges_admit_the_installed_versions() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    checked = []
    for line in project["dependencies"]:
        requirement = Requirement(line)
        try:
            installed = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            continue
        assert requirement.specifier.contains(installed, prereleases=True), f"{line} refuses {installed}"
        checked.append(requirement.name)
    assert {"numpy", "opencv-python-headless", "torch", "habitat-lab"} <= set(checked)


def test_habitat_imports_through_tango_with_opencv_4_colours_and_no_banner() -> None:
    code = (
        "import cv2, numpy as np\n"
        "import tango.sim.habitat_env\n"
        "from habitat.utils.visualizations import maps\n"
        "jet = cv2.applyColorMap(np.arange(246, dtype=np.uint8).reshape(-1, 1), cv2.COLORMAP_JET)[:, 0, ::-1]\n"
        "assert (maps.TOP_DOWN_MAP_COLORS[10:] == jet).all()\n"
        "assert cv2.applyColorMap(np.zeros(2, np.uint8), cv2.COLORMAP_JET).shape == (1, 2, 3)  # restored\n"
        "print('ok')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]
    assert GYM_BANNER not in done.stderr


@pytest.fixture(scope="session")
def dataset_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_dataset(tmp_path_factory.getbasetemp())


@pytest.mark.parametrize("task", HABITAT_TASKS)
def test_one_episode_of_each_habitat_task(task: str, dataset_root: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    command = [
        sys.executable, "-m", "tango.eval", f"task={task}", f"task.data_path={data_path(dataset_root, task)}",
        f"task.scenes_dir={dataset_root / 'scenes'}", "task.max_steps=40", "eval.num_episodes=1",
        "eval.num_workers=1", "eval.progress=false", "eval.report=false", f"eval.output_dir={run_dir}",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TANGO_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert GYM_BANNER not in done.stderr
    (record,) = [json.loads(line) for line in (run_dir / "episodes.jsonl").read_text().splitlines()]
    assert record["status"] == "ok", record["traceback"]
    assert record["num_steps"] > 0
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["num_errors"] == 0 and summary["platform"]["gl_renderer"]
