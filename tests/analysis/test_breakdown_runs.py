"""The failure breakdown on real runs of the tiny dataset: crafted programs get the cause that defines them,
every failure of a run gets exactly one cause, and "in view" agrees with the simulator's semantic sensor."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tango.agent.sim_session import SimSession
from tango.analysis import causes
from tango.analysis.breakdown import BREAKDOWN_FILE, analyse_run, failed_cases, write_breakdown
from tango.analysis.ground import RunGroundTruth
from tango.formats.nav_episodes import resolve_scene_path
from tango.harness.run import run_evaluation
from tango.inspect import main as inspect_main
from tango.sim.habitat_env import sim_config_from_dict
from tango.sim.scene import load_annotations
from tango.trace.reader import read_trace, segments
from tango.types.poses import yaw_to_quaternion
from tests.agent.synthetic import eval_config, plugin, read_jsonl


def _far_point(root: Path, episode: Any) -> list[float]:
    """The centre of the annotated object farthest from every goal of the episode (a wrong target)."""
    scene = resolve_scene_path(episode.scene_id, root / "scenes")
    objects = load_annotations(scene.with_name(scene.name.removesuffix(".glb") + ".annotations.json")).objects
    goals = np.array([g.position for g in episode.goals])
    far = max(objects, key=lambda o: float(np.min(np.linalg.norm(goals - o.center, axis=1))))
    return [round(float(v), 2) for v in far.center]


@pytest.fixture(scope="module")
def objectnav_run(dataset_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two ObjectNav episodes: one program that fails on line 2, one that heads for the wrong object and stops."""
    out = tmp_path_factory.mktemp("objectnav_breakdown")
    specs = plugin("objectnav").list_episodes(eval_config(dataset_root, "objectnav", out))[:2]
    assert len({s.instruction for s in specs}) == 2, (
        "the tiny dataset's first two episodes share an instruction"
    )
    far = _far_point(dataset_root, specs[1].payload)
    programs = [
        {"task": "objectnav", "instruction": specs[0].instruction, "program": "look_around()\nx = [1][3]\n"},
        {
            "task": "objectnav",
            "instruction": specs[1].instruction,
            "program": f"navigate_to({far})\nstop()\n",
        },
    ]
    replay = out / "programs.jsonl"
    replay.write_text("".join(json.dumps(p) + "\n" for p in programs))
    config = eval_config(
        dataset_root, "objectnav", out / "run", "eval.num_episodes=2", "generator=replay",
        f"generator.replay_path={replay}", "task.max_steps=120",
    )  # fmt: skip
    run_evaluation(config)
    return out / "run"


def test_crafted_failures_get_the_cause_that_defines_them(objectnav_run: Path) -> None:
    breakdown = analyse_run(objectnav_run)
    by_episode = {case["episode_id"]: case for case in breakdown["cases"]}
    records = sorted(read_jsonl(objectnav_run / "episodes.jsonl"), key=lambda r: r["episode_id"])
    assert by_episode[records[0]["episode_id"]]["cause"] == causes.PROGRAM_ERROR
    assert "runtime_error" in by_episode[records[0]["episode_id"]]["detail"]
    wrong = by_episode[records[1]["episode_id"]]
    assert wrong["cause"] == causes.FALSE_DETECTION and "last navigation target" in wrong["detail"]
    assert breakdown["failures"] == 2 == sum(breakdown["causes"].values())


@pytest.mark.parametrize("task", ["goat", "openeqa"])
def test_every_failure_of_a_run_gets_exactly_one_cause(task: str, dataset_root: Path, tmp_path: Path) -> None:
    config = eval_config(dataset_root, task, tmp_path, "eval.num_episodes=2", "task.max_steps=30")
    run_evaluation(config)
    breakdown = write_breakdown(tmp_path)
    records = read_jsonl(tmp_path / "episodes.jsonl")
    scoring = plugin(task)
    expected = [(case["episode_id"], case["subtask"]) for r in records for case in failed_cases(r, scoring)]
    assert expected, f"{task}: a 30-step budget should fail something"
    assert [(c["episode_id"], c["subtask"]) for c in breakdown["cases"]] == sorted(expected)
    assert sum(breakdown["causes"].values()) == breakdown["failures"] == len(expected)
    assert all(case["cause"] in causes.CAUSES and case["detail"] for case in breakdown["cases"])
    assert json.loads((tmp_path / BREAKDOWN_FILE).read_text())["causes"] == breakdown["causes"]
    assert breakdown["notes"] == []


def test_in_view_agrees_with_the_simulators_semantic_sensor(dataset_root: Path, tmp_path: Path) -> None:
    """Every pose of a GOAT run, rendered by the simulator (semantic sensor) and by the analysis: whether any
    pixel of each goal instance shows must agree for nearly every pose (the analysis renders a smaller frame)."""
    config = eval_config(dataset_root, "goat", tmp_path, "eval.num_episodes=1", "task.max_steps=40")
    run_evaluation(config)
    summary = json.loads((tmp_path / "summary.json").read_text())
    record = read_jsonl(tmp_path / "episodes.jsonl")[0]
    parts = segments(read_trace(tmp_path / record["trace_path"]))
    truth = RunGroundTruth(summary["configs"])
    spec = truth.episodes[record["episode_id"]]
    poses = [(s.index, pose) for s in parts for pose in s.poses]
    session = SimSession(sim_config_from_dict(dict(summary["configs"]["sim"])))
    scene_file = resolve_scene_path(spec.scene_id, truth.scenes_dir)
    simulated = []
    for index, pose in poses:
        obs = session.start(scene_file, pose[:3], yaw_to_quaternion(pose[3]))
        ids = truth.goals(record["episode_id"])[index].object_ids
        simulated.append([bool((obs.semantic == int(i)).any()) for i in ids])
    session.close()
    truth.min_pixels = 1
    scene = truth.scene(record["episode_id"])
    assert scene is not None
    analysed = [
        [scene.seen_from(i, [pose]) is not None for i in truth.goals(record["episode_id"])[index].object_ids]
        for index, pose in poses
    ]
    truth.close()
    pairs = [(a, b) for sim_row, ours in zip(simulated, analysed) for a, b in zip(sim_row, ours)]
    agree = sum(a == b for a, b in pairs)
    assert any(a for a, _ in pairs) and agree >= 0.97 * len(pairs), f"{agree} of {len(pairs)} agree"


def test_inspect_shows_each_program_line_with_counts_and_the_breakdown(
    objectnav_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = sorted(read_jsonl(objectnav_run / "episodes.jsonl"), key=lambda r: r["episode_id"])[1]
    assert inspect_main([str(objectnav_run), "--episode", record["episode_id"]]) == 0
    out = capsys.readouterr().out
    assert "line   runs  calls  steps  time s  source" in out
    assert "navigate_to(" in out and "STOP #1" in out
    assert inspect_main([str(objectnav_run), "--breakdown"]) == 0
    out = capsys.readouterr().out
    assert "false_detection" in out and "program_error" in out and "total" in out
