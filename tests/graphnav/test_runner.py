"""`task=graphnav` through the harness: hydra config, a generated set on first use, results, resume, breakdown."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf
from rich.console import Console

from tango.benchmarks.graphnav.breakdown import breakdown
from tango.benchmarks.graphnav.config import GraphNavConfig, GraphNavConfigError
from tango.benchmarks.graphnav.runner import GraphNavRunner, run_episode
from tango.config_schema import register_configs
from tango.harness.run import run_evaluation
from tests.graphnav.support import EXAMPLE_NAME, EXAMPLE_TEXT, example_episode
from tests.support.chat_server import ChatServer, Reply

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs"


def _config(overrides: list[str]) -> dict[str, Any]:
    register_configs()
    defaults = OmegaConf.load(CONFIG_DIR / "eval.yaml").defaults
    missing = [
        f"~{group}"
        for entry in defaults
        if isinstance(entry, dict)
        for group, name in entry.items()
        if group != "task" and not (CONFIG_DIR / group / f"{name}.yaml").is_file()
    ]
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        cfg = compose(config_name="eval", overrides=["task=graphnav", *missing, *overrides])
    container = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(container, dict)
    return {str(k): v for k, v in container.items()}


def test_eval_runs_generates_and_resumes(tmp_path: Path) -> None:
    overrides = [
        f"eval.output_dir={tmp_path / 'run'}",
        f"graphnav.data_root={tmp_path / 'data'}",
        "eval.progress=false",
        "eval.report=false",
        "graphnav.generate.sizes=[5,7]",
        "graphnav.generate.episodes_per_task=1",
        "graphnav.resolution=48",
        "graphnav.condition=C2",
    ]
    config = _config(overrides)
    assert config["graphnav"]["agent"] == "program" and config["graphnav"]["recognition"] == "oracle"
    quiet = Console(file=io.StringIO())
    run_evaluation(config, console=quiet, table_console=quiet)
    assert (tmp_path / "data" / "mazes").is_dir()
    records = [json.loads(line) for line in (tmp_path / "run" / "episodes.jsonl").read_text().splitlines()]
    assert len(records) == 6
    for record in records:
        assert record["program_source"] == "template" and "build_cognitive_graph()" in record["program"]
        assert record["metrics"]["success"] == 1.0 and record["failure_reason"] is None
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["metrics"]["success"] == 1.0 and summary["num_errors"] == 0
    assert summary["sensors"] == {"preset": "graphnav-auto", "resolution": 48}
    assert summary["metric_counts"]["dps"] == 2 and summary["metric_counts"]["pfs"] == 4  # DPS: shortcut only
    rows = breakdown(records)
    assert {(r["task"], r["condition"], r["maze_size"]) for r in rows} == {
        (t, "C2", s) for t in ("repeated", "reversed", "shortcut") for s in (5, 7)
    }
    assert all(("pfs" in r) == (r["task"] != "shortcut") for r in rows)
    run_evaluation(config, console=quiet, table_console=quiet)
    assert len((tmp_path / "run" / "episodes.jsonl").read_text().splitlines()) == 6


def test_config_errors_name_the_key() -> None:
    with pytest.raises(GraphNavConfigError, match="graphnav.condition"):
        GraphNavConfig.from_dict({"condition": "C9"})
    with pytest.raises(GraphNavConfigError, match="unknown graphnav.env"):
        GraphNavConfig.from_dict({"env": {"budget": 3}})
    assert GraphNavConfig.from_dict({"task": "shortcut"}).tasks == ("shortcut",)
    with pytest.raises(GraphNavConfigError, match=r"graphnav.generate.sizes: \[6\] not among the card's"):
        GraphNavConfig.from_dict({"generate": {"sizes": [5, 6]}})
    with pytest.raises(GraphNavConfigError, match="graphnav.sizes"):
        GraphNavConfig.from_dict({"sizes": [19]})
    assert GraphNavConfig().generate.sizes == [5, 7, 9, 11, 13, 15, 17]


LLM_SHORTCUT = """Program:
build_cognitive_graph()
here = localize()
goal = goal_place()
route = plan_route(here, goal)
if len(route) > 0 and follow(route):
    return
navigate_to(goal)
"""


def test_llm_generator_programs_run_and_bad_ones_fall_back_to_the_template(tmp_path: Path) -> None:
    config = GraphNavConfig(data_root=str(tmp_path), resolution=48)
    (tmp_path / "mazes").mkdir()
    (tmp_path / "mazes" / f"{EXAMPLE_NAME}.txt").write_text(EXAMPLE_TEXT)
    with ChatServer() as server:
        server.queue(Reply(LLM_SHORTCUT), Reply("import os"))
        generator = {
            "name": "openai",
            "model": "m",
            "base_url": server.base_url,
            "api_key": "x",
            "cache_dir": "",
            "max_attempts": 1,
            "max_retries": 0,
        }
        runner = GraphNavRunner(config, generator)
        shortcut = run_episode(example_episode("shortcut", 0, 3), config, runner)
        repeated = run_episode(example_episode("repeated", 0, 4), config, runner)
        runner.close()
        assert "plan_route(" in json.dumps(server.requests[0])  # the graphnav API is in the prompt
    assert shortcut.program_source == "llm" and "plan_route(here, goal)" in shortcut.program
    assert shortcut.metrics["success"] == 1.0 and shortcut.metrics["spl"] == 1.0
    assert repeated.program_source == "template" and repeated.generation is not None
    assert repeated.generation["program"] is None and repeated.metrics["success"] == 1.0


def test_default_data_root_is_generated_once_under_the_cache(tmp_path: Path, monkeypatch) -> None:
    from tango.benchmarks.graphnav.config import GenerateConfig
    from tango.benchmarks.graphnav.runner import ensure_dataset

    monkeypatch.setenv("TANGO_CACHE", str(tmp_path))
    config = GraphNavConfig(generate=GenerateConfig(sizes=[5], episodes_per_task=1))
    root = ensure_dataset(config)
    assert root == tmp_path / "graphnav-v2" and len(list((root / "mazes").glob("*.txt"))) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graphnav-v2"]  # no scratch folder left behind
    stamp = (root / "mazes").stat().st_mtime_ns
    assert ensure_dataset(config) == root and (root / "mazes").stat().st_mtime_ns == stamp
