"""`python -m tango.eval task=urban` end to end on a small generated city (results contract, oracle named,
route thumbnail, resume), and the validator passing every task of the generated set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tango.urban.validate import validate_city


def test_the_eval_cli_runs_the_program_agent_and_resumes(city: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "tango.eval",
        "task=urban",
        f"urban.city_dir={city}",
        "urban.kinds=[SN,LQ]",
        "eval.num_episodes=2",
        f"eval.output_dir={out}",
        "eval.progress=false",
    ]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=900)
    records = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    summary = json.loads((out / "summary.json").read_text())
    assert sorted(r["episode_id"] for r in records) == [
        "LQ-000001",
        "SN-000001",
    ]  # (workers finish in any order)
    assert summary["oracle_components"] == [] and summary["success_distance"] == 15.0  # signs by OCR
    assert summary["sensor_presets"] == ["urban-screenshot"]
    assert summary["sensors"] == {"preset": "urban-screenshot", "width": 640, "height": 480}
    assert set(summary["subtasks"]["by_goal_type"]) == {"LandmarkQA", "ShortNav"}
    for record in records:
        assert record["program_source"] == "template" and record["extra"]["route"]
        assert (out / record["thumbnail_path"]).is_file() and (out / record["trace_path"]).is_file()
        assert record["perception"]["oracle_components"] == [] and record["perception"]["signs"] == "ocr"
        assert record["extra"]["urban_evaluator"] == f"{record['extra']['kind']}Evaluator"
        assert record["extra"]["urbanground"]["success"] == bool(record["metrics"]["success"])
        assert "spl" not in record["extra"]["urbanground"] and (
            "spl" in record["extra"]["tango_extras"] or record["extra"]["kind"] != "ShortNav"
        )
    assert "thumbnails/SN-000001.png" in (out / "report.html").read_text()
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=900)
    assert len((out / "episodes.jsonl").read_text().splitlines()) == 2  # resumed: nothing ran twice


def test_the_generated_task_set_of_every_rung_passes_its_validator(city: Path, tmp_path: Path) -> None:
    verdicts = validate_city(city, log_path=tmp_path / "server.log")
    rungs = {v.task_id.split("-", 1)[0] for v in verdicts}
    assert {"LQ", "OQ", "SN", "CN", "DCR", "MP", "SF", "PS", "II", "RN", "NTN"} <= rungs
    failed = [v for v in verdicts if not v.ok]
    assert not failed, failed
    assert all(v.steps <= v.limit for v in verdicts)
