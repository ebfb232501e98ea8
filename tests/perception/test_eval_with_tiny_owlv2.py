"""`python -m tango.eval task=objectnav perception=owlv2 perception.detector.path=DIR` with a tiny random-weight
OWLv2: the wiring is real end to end (results meaningless) and the results record the detector and its path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tango.scenes.datasets.generate import DatasetConfig, generate_dataset

REPO = Path(__file__).resolve().parents[2]


def test_eval_objectnav_runs_with_a_tiny_random_owlv2(tmp_path: Path, tiny_owlv2: Path) -> None:
    data = tmp_path / "ds"
    generate_dataset(data, DatasetConfig(num_scenes=1, seed=3))
    run_dir = tmp_path / "run"
    command = [
        sys.executable, "-m", "tango.eval", "task=objectnav", "perception=owlv2",
        f"perception.detector.path={tiny_owlv2}", "perception.device=cpu",
        f"task.data_path={data / 'objectnav' / 'val' / 'val.json.gz'}", f"task.scenes_dir={data / 'scenes'}",
        "task.max_steps=40", "eval.num_episodes=1", f"eval.output_dir={run_dir}", "eval.progress=false",
        "eval.report=false",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    episode = json.loads((run_dir / "episodes.jsonl").read_text().splitlines()[0])
    assert episode["failure_reason"] is None
    perception = episode["perception"]
    assert perception["name"] == "owlv2"
    assert perception["detector"] == {**perception["detector"], "kind": "owlv2", "path": str(tiny_owlv2)}
    assert "detector" not in perception["oracle_components"]
