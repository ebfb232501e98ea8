"""Summary math: means over all attempted episodes with errors as failures, counts, cost, subtasks."""

from __future__ import annotations

from typing import Any

import pytest

from tango.harness.scoring import BaseTask, pool_by_goal_type
from tango.harness.summary import summarize, summary_table


class PooledTask(BaseTask):
    """Neutral scoring that pools subtasks by goal type (as the GOAT, UrbanGround and fake plugins choose to)."""

    def aggregate(self, subtasks: list[dict[str, Any]]) -> dict[str, Any] | None:
        return pool_by_goal_type(subtasks)


POOLED = PooledTask()


def _record(episode_id: str, success: float, steps: int, **fields: object) -> dict[str, object]:
    return {
        "episode_id": episode_id,
        "metrics": {"success": success, "spl": success / 2},
        "num_steps": steps,
        "wall_time_s": 1.0,
        "status": "ok",
        "failure_reason": None,
        **fields,
    }


def test_errors_count_as_failures_in_the_means() -> None:
    records = [
        _record("a", 1.0, 10, llm_calls=2, prompt_tokens=100, completion_tokens=20),
        _record("b", 1.0, 20, llm_calls=1, prompt_tokens=50, completion_tokens=5),
        _record("c", 0.0, 0, status="error", error_type="RuntimeError", failure_reason="RuntimeError: boom"),
        _record("d", 0.0, 30, failure_reason="not_found: too far"),
    ]
    summary = summarize(
        records,
        "fake",
        wall_time_s=6.0,
        configs={
            "task": {
                "name": "fake",
                "plugin": "tango.tasks.fake:FakeTask",
                "success_distance": 0.25,
                "distance_to": "VIEW_POINTS",
            }
        },
    )  # the rules come from the plugin the configs name, loaded now
    assert summary["num_episodes"] == 4
    assert summary["num_errors"] == 1
    assert summary["metrics"]["success"] == pytest.approx(0.5)
    assert summary["metrics"]["spl"] == pytest.approx(0.25)
    assert summary["errors_by_reason"] == {"RuntimeError": 1}
    assert summary["failure_reasons"] == {"not_found": 1}
    assert summary["total_steps"] == 60
    assert summary["steps_per_s"] == pytest.approx(10.0)
    assert summary["steps_per_s_per_worker"] == pytest.approx(15.0)
    assert summary["llm"] == {"calls": 3, "prompt_tokens": 150, "completion_tokens": 25}
    assert summary["success_distance"] == 0.25
    assert summary["distance_to"] == "VIEW_POINTS"
    assert summary["distance_definition"].startswith(
        "geodesic distance from the agent to the nearest view point"
    )


def test_metric_missing_in_some_episodes_reports_its_count() -> None:
    records = [
        {"episode_id": "a", "metrics": {"normalised_match": 100.0, "llm_match": 75.0}},
        {"episode_id": "b", "metrics": {"normalised_match": 0.0}, "extra": {"judge_error": "no mark"}},
    ]
    summary = summarize(records, "openeqa", wall_time_s=1.0)
    assert summary["metrics"] == {"llm_match": 75.0, "normalised_match": 50.0}
    assert summary["metric_counts"] == {"llm_match": 1, "normalised_match": 2}
    assert summary["judge_errors"] == 1


def test_subtasks_are_pooled_per_goal_type_and_shown_in_the_table() -> None:
    records = [
        {
            "episode_id": "a",
            "metrics": {"success": 0.5},
            "subtasks": [
                {"goal_type": "object", "success": 1.0, "spl": 1.0},
                {"goal_type": "image", "success": 0.0, "spl": 0.0},
            ],
        },
        {
            "episode_id": "b",
            "metrics": {"success": 1.0},
            "subtasks": [{"goal_type": "object", "success": 1.0, "spl": 0.5}],
        },
    ]
    summary = summarize(records, "goat", wall_time_s=1.0, scoring=POOLED)
    assert summary["subtasks"]["count"] == 3
    assert summary["subtasks"]["metrics"]["success"] == pytest.approx(2 / 3)
    assert summary["subtasks"]["by_goal_type"]["object"]["metrics"]["spl"] == pytest.approx(0.75)
    rows = [str(cell) for column in summary_table(summary).columns for cell in column._cells]
    assert "  image success (n=1)" in rows


def test_without_a_plugin_a_run_gets_neutral_scoring_no_rules_and_no_pooling() -> None:
    records = [
        {"episode_id": "a", "metrics": {"success": 1.0}, "subtasks": [{"goal_type": "x", "success": 1.0}]}
    ]
    summary = summarize(records, "third_party", wall_time_s=1.0, configs={"task": {"success_distance": 0.5}})
    assert "success_distance" not in summary and "subtasks" not in summary
    assert summary["metrics"] == {"success": 1.0}


def _generation(source: str, **fields: object) -> dict[str, object]:
    return {"program_source": source, "program": "stop()", "cached": False, "fallback_reason": None, **fields}


def test_summary_names_the_oracle_components_and_counts_program_sources() -> None:
    oracle = {"name": "oracle", "oracle_components": ["detector", "memory"]}
    records = [
        _record("a", 1.0, 5, perception=oracle, generation=_generation("llm")),
        _record("b", 1.0, 5, perception={"name": "mix", "oracle_components": ["room"]},
                generation=_generation("llm", cached=True)),
        _record("c", 0.0, 5, perception={"name": "owlv2", "oracle_components": []},
                generation={"subtasks": [_generation("template"), _generation("template", fallback_reason="bad"),
                                         _generation("llm", program=None)]}),
        _record("d", 0.0, 0, status="error", program_source="", generation=None),
    ]  # fmt: skip
    summary = summarize(records, "goat", wall_time_s=1.0)
    assert summary["oracle_components"] == ["detector", "memory", "room"]
    assert summary["program_sources"] == {
        "model": 1, "cache": 1, "template": 1, "fallback": 1, "replay": 0, "none": 2,
    }  # fmt: skip
    table_rows = [str(cell) for column in summary_table(summary).columns for cell in column._cells]
    assert "detector, memory, room" in table_rows


def test_a_run_without_oracles_says_so() -> None:
    records = [_record("a", 1.0, 5, perception={"name": "owlv2", "oracle_components": []})]
    assert summarize(records, "objectnav", wall_time_s=1.0)["oracle_components"] == []


def test_every_mean_has_a_95_interval_that_contains_it() -> None:
    records = [_record(f"e{i:02d}", 1.0 if i % 3 else 0.0, 10) for i in range(30)]
    records[4]["metrics"]["llm_match"] = 50.0
    summary = summarize(records, "objectnav", wall_time_s=1.0)
    assert set(summary["ci95"]) == set(summary["metrics"])
    for name, (lo, hi) in summary["ci95"].items():
        assert lo <= summary["metrics"][name] <= hi
    assert summary["ci95"]["llm_match"] == [50.0, 50.0]  # one episode has it: nothing to resample
    assert summary["ci95"]["success"][1] - summary["ci95"]["success"][0] > 0.2  # 30 episodes, SR 2/3
    assert "10000 resamples" in summary["ci95_method"]
    rows = [str(cell) for column in summary_table(summary).columns for cell in column._cells]
    lo, hi = summary["ci95"]["success"]
    assert f"{summary['metrics']['success']:.4f} [{lo:.4f}, {hi:.4f}]" in rows


def test_pooled_subtask_intervals_resample_whole_episodes() -> None:
    # 20 episodes of 4 subtasks, each episode all-success or all-failure: the pooled interval must be as wide as
    # that of 20 units, not 80
    records = [
        {"episode_id": f"e{i:02d}", "metrics": {"success": float(i % 2)},
         "subtasks": [{"goal_type": "object" if j % 2 else "image", "success": float(i % 2)} for j in range(4)]}
        for i in range(20)
    ]  # fmt: skip
    summary = summarize(records, "goat", wall_time_s=1.0, scoring=POOLED)
    pooled = summary["subtasks"]
    assert pooled["ci95"]["success"] == pytest.approx(summary["ci95"]["success"], abs=0.051)
    for group in pooled["by_goal_type"].values():
        lo, hi = group["ci95"]["success"]
        assert lo <= group["metrics"]["success"] <= hi
        assert hi - lo > 0.3


def test_report_shows_each_interval_beside_its_mean() -> None:
    from tango.harness.report import metrics_table

    records = [
        {"episode_id": f"e{i}", "metrics": {"success": float(i % 2)},
         "subtasks": [{"goal_type": "object", "success": float(i % 2)}]}
        for i in range(6)
    ]  # fmt: skip
    summary = summarize(records, "goat", wall_time_s=1.0, scoring=POOLED)
    page = metrics_table(summary)
    lo, hi = summary["ci95"]["success"]
    assert f'0.5 <span class="ci" title="95% bootstrap interval">[{lo:.4g}, {hi:.4g}]</span>' in page
    assert page.count('class="ci"') == 3  # episodes, pooled subtasks, the one goal type
    assert "percentile bootstrap over episodes" in page


def test_report_charts_draw_each_rate_with_its_interval_resampling_episodes() -> None:
    from tango.harness.report import goal_groups
    from tango.harness.report_charts import rate_bars
    from tango.harness.report_rows import Row
    from tango.stats import bootstrap_ci

    # 10 episodes of 2 image subtasks each, both succeeded in 5 episodes and failed in 5
    rows = [
        Row(f"e{i}", j, "image", "bed", "x", score=float(i % 2), spl=float(i % 2) / 2)
        for i in range(10)
        for j in range(2)
    ]
    rows += [Row(f"e{i}", 2, "object", "chair", "x", score=1.0, spl=1.0) for i in range(10)]
    groups = {group.label: group for group in goal_groups(rows)}
    image = groups["image"]
    assert image.values == (0.5, 0.25)
    episodes_only = [0.0, 1.0] * 5  # one value per episode: what resampling whole episodes must give
    assert image.intervals[0] == pytest.approx(bootstrap_ci(episodes_only))
    assert groups["object"].intervals[0] == (1.0, 1.0)
    svg = rate_bars("success", ("success", "SPL"), list(groups.values()))
    assert svg.count('<g class="ci"') == 4
    lo, hi = image.intervals[0]
    assert f"0.500 [{lo:.3f}, {hi:.3f}] (n=20)" in svg
