"""`perception=owlv2` with tiny random-weight models (the wiring is real end to end, results meaningless): the eval
command runs and records its components, and no ground truth reaches the agent on a GOAT episode: no frame has a
semantic image, no remembered or recalled object carries an annotated instance id, and the results list no
oracle component (a memory fed from ground truth would show up in all three)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tango.agent.habitat_agent import HabitatAgent
from tango.agent.sim_session import SimSession
from tango.harness.run import run_evaluation
from tango.scenes.datasets.generate import DatasetConfig, generate_dataset
from tango.types.goals import ObjectHandle
from tango.types.observation import Observation
from tests.agent.synthetic import eval_config, read_jsonl
from tests.perception.test_no_ground_truth import tiny_overrides
from tests.support.chat_server import ChatServer

REPO = Path(__file__).resolve().parents[2]
INSTANCE_KEY = re.compile(r"#\d+$")


def test_eval_objectnav_runs_with_a_tiny_random_owlv2(tmp_path: Path, tiny: dict[str, str]) -> None:
    data = tmp_path / "ds"
    generate_dataset(data, DatasetConfig(num_scenes=1, seed=3))
    run_dir = tmp_path / "run"
    command = [
        sys.executable, "-m", "tango.eval", "task=objectnav", "perception=owlv2",
        *tiny_overrides("owlv2", tiny, "http://127.0.0.1:9"),
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
    assert perception["detector"] == {**perception["detector"], "kind": "owlv2", "path": tiny["owlv2"]}
    assert perception["oracle_components"] == []
    assert json.loads((run_dir / "summary.json").read_text())["oracle_components"] == []


def test_goat_with_owlv2_finds_nothing_through_ground_truth(
    dataset_root: Path, tiny: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    handles: list[ObjectHandle] = []
    frames: list[Observation] = []
    for name in ("detect", "recall", "match_image", "match_description"):
        original = getattr(HabitatAgent, name)

        def recording(self: HabitatAgent, target: Any, _original: Any = original) -> list[ObjectHandle]:
            found = _original(self, target)
            handles.extend(found)
            return found  # type: ignore[no-any-return]

        monkeypatch.setattr(HabitatAgent, name, recording)
    step = SimSession.step
    monkeypatch.setattr(
        SimSession, "step", lambda self, action: frames.append(step(self, action)) or frames[-1]
    )
    with ChatServer(default_text="red") as chat:
        overrides = tiny_overrides("owlv2", tiny, chat.base_url)
        config = eval_config(
            dataset_root, "goat", tmp_path, "perception=owlv2", "task.max_steps=25", *overrides
        )
        run_evaluation(config)
    (record,) = read_jsonl(tmp_path / "episodes.jsonl")
    assert record["status"] == "ok", record["traceback"]
    assert len(record["subtasks"]) >= 3 and frames, "the episode did not run its subtasks"
    assert all(frame.semantic is None for frame in frames), "the semantic sensor was on"
    leaked = [h for h in handles if INSTANCE_KEY.search(h.object_id)]
    assert not leaked, f"objects found through annotated instance ids: {leaked[:3]}"
    assert record["perception"]["oracle_components"] == []
    assert json.loads((tmp_path / "summary.json").read_text())["oracle_components"] == []
