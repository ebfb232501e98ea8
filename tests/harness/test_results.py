"""episodes.jsonl writing and reading: durable appends, truncated tails, duplicates."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tango.harness.results import ResultsError, ResultsWriter, read_records


def test_append_then_reopen_knows_finished_episodes(tmp_path: Path) -> None:
    writer = ResultsWriter(tmp_path)
    writer.append({"episode_id": "a", "metrics": {"success": 1.0}})
    writer.append({"episode_id": "b", "metrics": {"success": 0.0}})
    reopened = ResultsWriter(tmp_path)
    assert reopened.finished_ids == {"a", "b"}
    assert [r["episode_id"] for r in read_records(tmp_path)] == ["a", "b"]


def test_truncated_last_line_is_discarded_and_cut_before_appending(tmp_path: Path) -> None:
    writer = ResultsWriter(tmp_path)
    writer.append({"episode_id": "a"})
    with (tmp_path / "episodes.jsonl").open("a") as handle:
        handle.write('{"episode_id": "b", "metr')
    assert [r["episode_id"] for r in read_records(tmp_path)] == ["a"]
    resumed = ResultsWriter(tmp_path)
    assert resumed.finished_ids == {"a"}
    resumed.append({"episode_id": "b"})
    lines = (tmp_path / "episodes.jsonl").read_text().splitlines()
    assert [json.loads(line)["episode_id"] for line in lines] == ["a", "b"]


def test_second_write_of_an_episode_is_refused(tmp_path: Path) -> None:
    writer = ResultsWriter(tmp_path)
    writer.append({"episode_id": "a"})
    with pytest.raises(ResultsError, match="already recorded"):
        writer.append({"episode_id": "a"})


def test_file_with_duplicates_is_rejected_naming_them(tmp_path: Path) -> None:
    (tmp_path / "episodes.jsonl").write_text('{"episode_id": "x"}\n{"episode_id": "x"}\n')
    with pytest.raises(ResultsError, match="'x'"):
        ResultsWriter(tmp_path)


def test_corrupt_middle_line_is_an_error_with_its_line_number(tmp_path: Path) -> None:
    (tmp_path / "episodes.jsonl").write_text('{"episode_id": "x"}\nnot json\n{"episode_id": "y"}\n')
    with pytest.raises(ResultsError, match="episodes.jsonl:2"):
        read_records(tmp_path)


def test_non_finite_numbers_are_written_as_null(tmp_path: Path) -> None:
    writer = ResultsWriter(tmp_path)
    writer.append({"episode_id": "a", "metrics": {"spl": math.nan, "x": math.inf}})
    assert read_records(tmp_path)[0]["metrics"] == {"spl": None, "x": None}
