"""`python -m tango.compare`: pairing by episode id, paired intervals, McNemar, exit codes, on run folders
built here whose answers are computed by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tango.compare import compare_runs, load_run, main
from tango.stats import mcnemar_exact


def _write_run(folder: Path, records: list[dict[str, Any]], task: str = "objectnav", **summary: Any) -> Path:
    folder.mkdir(parents=True)
    with (folder / "episodes.jsonl").open("w") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")
    content = {"task": task, "complete": True, "success_distance": 0.1, "distance_to": "VIEW_POINTS",
               "num_episodes": len(records), "num_planned": len(records), **summary}  # fmt: skip
    (folder / "summary.json").write_text(json.dumps(content))
    return folder


def _episode(episode_id: str, success: float, spl: float | None = None, scene: str = "s0") -> dict[str, Any]:
    return {"episode_id": episode_id, "scene_id": scene, "status": "ok",
            "metrics": {"success": success, "spl": success / 2 if spl is None else spl}}  # fmt: skip


def _runs(tmp_path: Path) -> tuple[Path, Path]:
    # 12 shared episodes: both succeed on 3, A alone on 1, B alone on 6, neither on 2;
    # A also has "a-only", B also has "b-only1" and "b-only2" (left out of the pairing)
    outcomes = [(1, 1)] * 3 + [(1, 0)] + [(0, 1)] * 6 + [(0, 0)] * 2
    a = [_episode(f"e{i}", x) for i, (x, _) in enumerate(outcomes)] + [_episode("a-only", 1.0)]
    b = [_episode(f"e{i}", y) for i, (_, y) in enumerate(outcomes)] + [
        _episode("b-only1", 0.0),
        _episode("b-only2", 1.0),
    ]
    return _write_run(tmp_path / "a", a), _write_run(tmp_path / "b", b)


def test_pairs_shared_episodes_and_computes_mcnemar_by_hand(tmp_path: Path) -> None:
    run_a, run_b = _runs(tmp_path)
    comparison = compare_runs(load_run(run_a), load_run(run_b))
    assert (comparison.shared, comparison.only_in_a, comparison.only_in_b) == (12, 1, 2)
    success = comparison.episodes[0]
    assert success.metric == "success"
    assert success.n == 12
    assert success.mean_a == pytest.approx(4 / 12)
    assert success.mean_b == pytest.approx(9 / 12)
    assert success.difference == pytest.approx(5 / 12)
    assert (success.only_a, success.only_b) == (1, 6)
    # 2 * P(X <= 1), X ~ Bin(7, 1/2) = 2 * (1 + 7) / 128
    assert success.mcnemar_p == pytest.approx(16 / 128)
    assert success.ci95 is not None and success.ci95[0] <= 5 / 12 <= success.ci95[1]
    spl = next(item for item in comparison.episodes if item.metric == "spl")
    assert spl.difference == pytest.approx(5 / 24)
    assert spl.mcnemar_p is None


def test_cli_prints_pairing_difference_interval_and_p(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_a, run_b = _runs(tmp_path)
    out_json = tmp_path / "cmp.json"
    assert main([str(run_a), str(run_b), "--json", str(out_json)]) == 0
    text = capsys.readouterr().out
    assert "12 shared episodes; left out: 1 only in A, 2 only in B" in text
    assert f"McNemar p={16 / 128:.4g} (A only 1, B only 6)" in text
    saved = json.loads(out_json.read_text())
    assert saved["shared"] == 12
    assert saved["episodes"][0]["mcnemar_p"] == pytest.approx(0.125)


def test_interval_excluding_zero_is_called_a_difference(tmp_path: Path) -> None:
    # 40 shared episodes, B succeeds on 20 more, A on none more: clearly different
    a = [_episode(f"e{i}", 0.0) for i in range(40)]
    b = [_episode(f"e{i}", 1.0 if i < 20 else 0.0) for i in range(40)]
    comparison = compare_runs(
        load_run(_write_run(tmp_path / "a", a)), load_run(_write_run(tmp_path / "b", b))
    )
    success = comparison.episodes[0]
    assert success.ci95 is not None and success.ci95[0] > 0.0
    assert success.distinguishable
    assert success.mcnemar_p == pytest.approx(mcnemar_exact(0, 20))


def test_identical_runs_do_not_differ(tmp_path: Path) -> None:
    records = [_episode(f"e{i}", float(i % 2)) for i in range(10)]
    comparison = compare_runs(
        load_run(_write_run(tmp_path / "a", records)), load_run(_write_run(tmp_path / "b", records))
    )
    success = comparison.episodes[0]
    assert success.ci95 == [0.0, 0.0]
    assert not success.distinguishable
    assert success.mcnemar_p == 1.0


def test_goat_pools_paired_subtasks_and_gives_no_mcnemar_for_fractions(tmp_path: Path) -> None:
    def goat(episode_id: str, outcomes: list[tuple[str, float]]) -> dict[str, Any]:
        rows = [{"goal_type": kind, "success": s, "spl": s} for kind, s in outcomes]
        return {"episode_id": episode_id, "scene_id": "s", "metrics": {"success": sum(s for _, s in outcomes) / len(outcomes)},
                "subtasks": rows}  # fmt: skip

    a = [
        goat("g0", [("object", 1.0), ("image", 0.0)]),
        goat("g1", [("object", 0.0), ("image", 0.0), ("object", 1.0)]),
    ]
    b = [
        goat("g0", [("object", 1.0), ("image", 1.0)]),
        goat("g1", [("object", 1.0), ("image", 0.0), ("object", 1.0)]),
    ]
    comparison = compare_runs(
        load_run(_write_run(tmp_path / "a", a, task="goat")),
        load_run(_write_run(tmp_path / "b", b, task="goat")),
    )
    episode_success = comparison.episodes[0]
    assert episode_success.mcnemar_p is None  # per-episode success is a fraction of subtasks
    assert episode_success.difference == pytest.approx(((1.0 - 0.5) + (2 / 3 - 1 / 3)) / 2)
    pooled = {item.metric: item for item in comparison.subtasks["all"]}
    assert pooled["success"].n == 5
    assert pooled["success"].difference == pytest.approx(2 / 5)
    by_image = {item.metric: item for item in comparison.subtasks["image"]}
    assert by_image["success"].n == 2
    assert by_image["success"].difference == pytest.approx(1 / 2)


def test_setup_mistakes_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_a, run_b = _runs(tmp_path)
    assert main([str(tmp_path / "missing"), str(run_b)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no such run folder" in error

    unfinished = _write_run(tmp_path / "unfinished", [_episode("e0", 1.0)], complete=False, num_planned=5)
    assert main([str(unfinished), str(run_b)]) == 2
    assert "incomplete run (1 of 5 episodes)" in capsys.readouterr().err
    assert main([str(unfinished), str(run_b), "--allow-incomplete"]) == 0
    capsys.readouterr()

    no_summary = _write_run(tmp_path / "no_summary", [_episode("e0", 1.0)])
    (no_summary / "summary.json").unlink()
    assert main([str(run_a), str(no_summary)]) == 2
    assert "no summary.json" in capsys.readouterr().err

    other_radius = _write_run(tmp_path / "radius", [_episode("e0", 1.0)], success_distance=1.0)
    assert main([str(run_a), str(other_radius)]) == 2
    assert "different scoring rules: success_distance" in capsys.readouterr().err

    other_scene = _write_run(tmp_path / "scene", [_episode("e0", 1.0, scene="s9")])
    assert main([str(run_a), str(other_scene)]) == 2
    assert "different datasets" in capsys.readouterr().err


def test_runs_sharing_no_episode_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_a = _write_run(tmp_path / "a", [_episode("x", 1.0)])
    run_b = _write_run(tmp_path / "b", [_episode("y", 1.0)])
    assert main([str(run_a), str(run_b)]) == 1
    assert "share no episode" in capsys.readouterr().out
