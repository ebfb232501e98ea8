"""A small tree in the published layout: published data never scores silently.

mazes/, paths/{task}/ (one file named as the published extractor names them, `{maze}_L{L}_junc{j}.jsonl`) and
images/maze_nodes_LFR/5x5/{maze}/ with the published toolkit's file names; the 15x15 maze has no images, as
the card ships renders for sizes 5-13 only. Episodes the run cannot play are harness errors with their cause.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from rich.console import Console

from tango.benchmarks.graphnav.breakdown import breakdown
from tango.benchmarks.graphnav.episodes import write_episodes
from tango.benchmarks.graphnav.generate import EpisodeGenConfig, draw_episodes
from tango.benchmarks.graphnav.keygraph import build_key_graph
from tango.benchmarks.graphnav.maze import write_maze
from tango.benchmarks.graphnav.mazegen import MazeGenConfig, generate_maze
from tango.benchmarks.graphnav.validate import validate_dataset
from tango.harness.run import run_evaluation
from tests.graphnav.support import EXAMPLE_NAME, EXAMPLE_TEXT, example_maze
from tests.graphnav.test_formats import EXAMPLE_LINE
from tests.graphnav.test_runner import _config
from tests.support.chat_server import ChatServer

FROM = ("North", "East", "South", "West")


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("published")
    (root / "mazes").mkdir()
    (root / "mazes" / f"{EXAMPLE_NAME}.txt").write_text(EXAMPLE_TEXT)
    lfrb = dict(
        EXAMPLE_LINE, episode_id="2", constraints={**EXAMPLE_LINE["constraints"], "visibility": "LFRB"}
    )
    shortcut = root / "paths" / "shortcut" / f"{EXAMPLE_NAME}_L5_junc2.jsonl"
    shortcut.parent.mkdir(parents=True)
    shortcut.write_text(json.dumps(EXAMPLE_LINE) + "\n" + json.dumps(lfrb) + "\n")
    # The extractor writes one file per junction target and numbers each file's episodes from the start again.
    again = dict(EXAMPLE_LINE, constraints={**EXAMPLE_LINE["constraints"], "min_junctions_on_ideal": 3})
    shortcut.with_name(f"{EXAMPLE_NAME}_L5_junc3.jsonl").write_text(json.dumps(again) + "\n")
    folder = root / "images" / "maze_nodes_LFR" / "5x5" / EXAMPLE_NAME
    folder.mkdir(parents=True)
    _, graph = example_maze()
    for index, (x, y) in enumerate(graph.nodes):
        tint = np.full((12, 36, 3), 20 * index, np.uint8)
        for side in FROM:
            Image.fromarray(tint).save(folder / f"{EXAMPLE_NAME}_X{x}_Y{y}_From{side}_LFR.png")
        Image.fromarray(tint[:, :12]).save(folder / f"{EXAMPLE_NAME}_X{x}_Y{y}_overview.png")
    rng = np.random.default_rng(2)
    drawn: dict[str, list[Any]] = {}
    while any(len(drawn.get(task, [])) < 2 for task in ("repeated", "shortcut")):
        big = generate_maze(15, MazeGenConfig(), rng)
        big_graph = build_key_graph(big)
        drawn = {
            t: draw_episodes(big, big_graph, t, 2, EpisodeGenConfig(), rng) for t in ("repeated", "shortcut")
        }
    write_maze(big, root / "mazes")
    for task, episodes in drawn.items():
        write_episodes(episodes, root / "paths" / task / f"{big.name}.jsonl")
    return root


def _run(root: Path, run_dir: Path, overrides: list[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    config = _config(
        [
            f"eval.output_dir={run_dir}",
            f"graphnav.data_root={root}",
            "eval.progress=false",
            "eval.report=false",
            *overrides,
        ]
    )
    quiet = Console(file=io.StringIO())
    run_evaluation(config, console=quiet, table_console=quiet)
    records = [json.loads(line) for line in (run_dir / "episodes.jsonl").read_text().splitlines()]
    return records, json.loads((run_dir / "summary.json").read_text())


def test_published_tree_validates_with_the_documented_exception(published: Path) -> None:
    report = validate_dataset(published).to_json()
    assert report["ok"] and report["checked"] == 7
    assert report["exceptions"]["card_junction_contradiction"]["count"] == 3  # the three worked-example lines


def test_program_agent_on_published_renders_records_errors_not_zeros(published: Path, tmp_path: Path) -> None:
    records, summary = _run(published, tmp_path / "run", [])
    assert len(records) == 7 and all(r["status"] == "error" for r in records)
    causes = {r["episode_id"]: r["error_type"] for r in records}
    assert len(causes) == 7  # ids stay unique across the extractor's per-junction files
    assert summary["num_errors"] == 7
    assert summary["errors_by_reason"] == {"NoRecognizer": 2, "MissingImages": 4, "ConditionMismatch": 1}
    assert causes[f"shortcut/{EXAMPLE_NAME}/L5_junc2/0"] == "NoRecognizer"  # the oracle cannot read renders
    assert causes[f"shortcut/{EXAMPLE_NAME}/L5_junc3/0"] == "NoRecognizer"
    assert causes[f"shortcut/{EXAMPLE_NAME}/L5_junc2/2"] == "ConditionMismatch"  # LFRB: no back view here
    missing = next(r for r in records if r["error_type"] == "MissingImages")
    assert "15x15" in missing["failure_reason"] and "sizes 5-13" in missing["failure_reason"]
    assert summary["metrics"]["success"] == 0.0 and "dps" in summary["metrics"]
    rows = breakdown(records)
    assert {(r["task"], r["maze_size"]): r["errors"] for r in rows} == {
        ("repeated", 15): {"MissingImages": 2},
        ("shortcut", 5): {"NoRecognizer": 2, "ConditionMismatch": 1},
        ("shortcut", 15): {"MissingImages": 2},
    }


def test_vlm_agent_runs_published_renders_and_the_rest_are_errors(published: Path, tmp_path: Path) -> None:
    with ChatServer(default_text="R") as server:
        llm = f"++graphnav.llm={{model: m, base_url: '{server.base_url}', api_key: x, max_retries: 0}}"
        records, summary = _run(
            published, tmp_path / "vlm", ["graphnav.agent=vlm", "graphnav.task=shortcut", llm]
        )
        assert server.requests  # the VLM saw the published renders
    by_id = {r["episode_id"]: r for r in records}
    played = [r for r in records if r["status"] == "ok"]
    assert len(played) == 2  # "R" at (1,4) facing east takes the shortcut
    assert all(r["metrics"]["success"] == 1.0 and r["metrics"]["spl"] == 1.0 for r in played)
    assert all(r["metrics"]["dps"] == pytest.approx(1.0) for r in played)
    assert summary["errors_by_reason"] == {"ConditionMismatch": 1, "MissingImages": 2}
    mismatch = next(r for r in by_id.values() if r["error_type"] == "ConditionMismatch")
    assert "visibility='LFRB'" in mismatch["failure_reason"]
    assert summary["metrics"]["success"] == pytest.approx(2 / 5) and summary["metric_counts"]["dps"] == 5


def test_measure_counts_published_errors_and_reports_the_card_metrics(
    published: Path, tmp_path: Path
) -> None:
    from tango.benchmarks.graphnav.config import GenerateConfig, GraphNavConfig
    from tango.benchmarks.graphnav.measure import measure

    on_published = measure(GraphNavConfig(data_root=str(published)), ["program"])
    assert on_published["program_errors"] == {"NoRecognizer": 2, "MissingImages": 4, "ConditionMismatch": 1}
    assert on_published["program"]["shortcut"] == {
        "sr": 0.0,
        "spl": 0.0,
        "dps": 0.0,
        "sr_by_size": {"5": 0.0, "15": 0.0},
    }
    generated = GraphNavConfig(
        data_root=str(tmp_path / "gen"),
        resolution=48,
        generate=GenerateConfig(sizes=[5, 7], episodes_per_task=1),
    )
    result = measure(generated, ["program", "random"])
    assert result["episodes"] == 6 and result["program_errors"] == {} and result["random_errors"] == {}
    assert set(result["program"]["repeated"]) == {"sr", "pfs", "sr_by_size"}
    assert result["program"]["shortcut"]["sr"] == 1.0 and 0.0 < result["program"]["shortcut"]["dps"] <= 1.0
