"""summary.json: per-metric means over all attempted episodes (errors scored as failures), each with its 95%
interval (`ci95`, tango.stats: percentile bootstrap over episodes), counts, cost."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from rich.table import Table

from tango.harness.episode import recorded_scoring
from tango.harness.scoring import TaskScoring
from tango.stats import RESAMPLES, SEED, ratio_cis

PROGRAM_SOURCES = ("model", "cache", "template", "fallback", "replay", "none")
CI_METHOD = (
    f"95% percentile bootstrap over episodes ({RESAMPLES} resamples, seed {SEED}); pooled subtask figures "
    "resample whole episodes (a cluster bootstrap: an episode's subtasks are not independent)"
)


def program_source_kind(generation: dict[str, Any] | None, program_source: str) -> str:
    """How one program came about: written by a model now (`model`), read from the program cache (`cache`),
    a template (`template`), the template fallback after invalid model replies (`fallback`), a replayed file
    (`replay`), or none (generation failed or the episode raised before it)."""
    if generation is None:
        return program_source if program_source in PROGRAM_SOURCES else "none"
    if generation.get("program") is None:
        return "none"
    if generation.get("fallback_reason"):
        return "fallback"
    if generation.get("cached"):
        return "cache"
    source = str(generation.get("program_source") or "")
    return source if source in ("template", "replay") else "model"


def program_sources(records: list[dict[str, Any]]) -> dict[str, int]:
    """Counts of program kinds over every program the run executed (one per GOAT subtask)."""
    counts = Counter({kind: 0 for kind in PROGRAM_SOURCES})
    for record in records:
        generation = record.get("generation")
        subtasks = generation.get("subtasks") if isinstance(generation, dict) else None
        if isinstance(subtasks, list):
            counts.update(program_source_kind(g, "") for g in subtasks)
        else:
            counts[program_source_kind(generation, str(record.get("program_source") or ""))] += 1
    return dict(counts)


def oracle_components(records: list[dict[str, Any]]) -> list[str]:
    """Every component that read ground truth in any episode (from each record's perception description)."""
    names: set[str] = set()
    for record in records:
        perception = record.get("perception")
        if isinstance(perception, dict):
            names.update(perception.get("oracle_components") or [])
    return sorted(names)


def sensor_presets(records: list[dict[str, Any]]) -> list[str]:
    """The sensor presets (cameras) the episodes ran with, sorted; 'unknown' for a record without one."""
    return sorted({str((record.get("sensors") or {}).get("preset", "unknown")) for record in records})


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _intervals(
    sums: list[list[float]], counts: list[list[float]], names: list[str]
) -> dict[str, list[float]]:
    """`ci95` of each named column (tango.stats.ratio_cis: one row per episode, resampled together)."""
    found = ratio_cis(sums, counts) if names else []
    return {name: list(interval) for name, interval in zip(names, found) if interval is not None}


def episode_intervals(records: list[dict[str, Any]]) -> dict[str, list[float]]:
    """`ci95` of each episode metric's mean, over the episodes that have the metric."""
    names = sorted({k for r in records for k, v in (r.get("metrics") or {}).items() if _number(v)})
    rows = [r.get("metrics") or {} for r in records]
    sums = [[float(m[k]) if _number(m.get(k)) else 0.0 for k in names] for m in rows]
    counts = [[1.0 if _number(m.get(k)) else 0.0 for k in names] for m in rows]
    return _intervals(sums, counts, names)


def subtask_intervals(
    records: list[dict[str, Any]], goal_types: list[str]
) -> dict[str, dict[str, list[float]]]:
    """`ci95` of each pooled subtask metric, over all subtasks ("") and per goal type, resampling episodes whole
    (per episode, a metric's sum and count over its subtasks of the group)."""
    episodes = [[r for r in record.get("subtasks") or [] if isinstance(r, dict)] for record in records]
    names = sorted({k for rows in episodes for row in rows for k, v in row.items() if _number(v)})
    columns = [(group, name) for group in ["", *goal_types] for name in names]
    sums, counts = [], []
    for rows in episodes:
        sums.append([0.0] * len(columns))
        counts.append([0.0] * len(columns))
        for row in rows:
            kind = str(row.get("goal_type", "unknown"))
            for j, (group, name) in enumerate(columns):
                if (not group or group == kind) and _number(row.get(name)):
                    sums[-1][j] += float(row[name])
                    counts[-1][j] += 1.0
    labels = [f"{group}\t{name}" for group, name in columns]
    found = _intervals(sums, counts, labels)
    grouped: dict[str, dict[str, list[float]]] = {group: {} for group in ["", *goal_types]}
    for label, interval in found.items():
        group, name = label.split("\t")
        grouped[group][name] = interval
    return grouped


def _failure_category(reason: str) -> str:
    """The part of a failure reason before the first colon, used to group reasons."""
    return reason.split(":", 1)[0].strip()


def summarize(
    records: list[dict[str, Any]],
    task: str,
    wall_time_s: float,
    configs: dict[str, Any] | None = None,
    num_planned: int | None = None,
    scoring: TaskScoring | None = None,
) -> dict[str, Any]:
    """The run summary of these records, scored by the task's `scoring` (its plugin; by default the one the
    `configs` name, tango.harness.episode.recorded_scoring): its rules and its pooled subtask figures.

    Metric means are over every attempted episode: the harness gives an episode that raised its task's failure
    metrics (e.g. success 0), so an error lowers the mean instead of vanishing from it. A metric that some
    episodes lack (e.g. an LLM-Match score the judge could not give) is averaged over those that have it, and
    `metric_counts` says over how many. `ci95` holds each mean's 95% interval (`ci95_method` says how), and so
    do the pooled and per-goal-type subtask figures of multi-goal tasks.
    """
    scoring = scoring if scoring is not None else recorded_scoring(configs)
    records = sorted(
        records, key=lambda record: str(record["episode_id"])
    )  # sums independent of finish order
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for record in records:
        for name, value in (record.get("metrics") or {}).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                sums[name] += float(value)
                counts[name] += 1
    errors = [record for record in records if record.get("status") == "error"]
    failure_reasons = Counter(
        _failure_category(str(record["failure_reason"]))
        for record in records
        if record.get("failure_reason") and record.get("status") != "error"
    )
    total_steps = sum(int(record.get("num_steps") or 0) for record in records)
    episode_time = sum(float(record.get("wall_time_s") or 0.0) for record in records)
    subtasks = [subtask for record in records for subtask in record.get("subtasks") or []]
    summary: dict[str, Any] = {
        "task": task,
        "num_episodes": len(records),
        "num_planned": num_planned if num_planned is not None else len(records),
        "num_ok": len(records) - len(errors),
        "num_errors": len(errors),
        "errors_by_reason": dict(Counter(str(record.get("error_type") or "error") for record in errors)),
        "failure_reasons": dict(failure_reasons),
        "judge_errors": sum(1 for record in records if (record.get("extra") or {}).get("judge_error")),
        "metrics": {name: sums[name] / counts[name] for name in sorted(sums)},
        "metric_counts": {name: counts[name] for name in sorted(counts)},
        "ci95": episode_intervals(records),
        "ci95_method": CI_METHOD,
        "total_steps": total_steps,
        "wall_time_s": wall_time_s,
        "episode_time_s": episode_time,
        "steps_per_s": total_steps / wall_time_s if wall_time_s > 0 else 0.0,
        "steps_per_s_per_worker": total_steps / episode_time if episode_time > 0 else 0.0,
        "episodes_per_hour": 3600.0 * len(records) / wall_time_s if wall_time_s > 0 else 0.0,
        "llm": {
            "calls": sum(int(record.get("llm_calls") or 0) for record in records),
            "prompt_tokens": sum(int(record.get("prompt_tokens") or 0) for record in records),
            "completion_tokens": sum(int(record.get("completion_tokens") or 0) for record in records),
        },
        **scoring.scoring_rules((configs or {}).get("task")),
        "oracle_components": oracle_components(records),
        "sensor_presets": sensor_presets(records),
        "sensors": next((record["sensors"] for record in records if record.get("sensors")), None),
        "program_sources": program_sources(records),
        "configs": configs or {},
    }
    pooled = scoring.aggregate(subtasks) if subtasks else None
    if pooled is not None:
        by_goal_type = pooled.get("by_goal_type") or {}
        intervals = subtask_intervals(records, list(by_goal_type))
        pooled["ci95"] = intervals[""]
        for goal_type, group in by_goal_type.items():
            group["ci95"] = intervals[goal_type]
        summary["subtasks"] = pooled
    return summary


def with_interval(value: float, interval: list[float] | None) -> str:
    """A mean with its 95% interval, as the table and report show it: 0.7500 [0.6000, 0.9000]."""
    return f"{value:.4f}" if not interval else f"{value:.4f} [{interval[0]:.4f}, {interval[1]:.4f}]"


def summary_table(summary: dict[str, Any], causes: dict[str, int] | None = None) -> Table:
    """A rich table of the summary's metrics and counts, printed at the end of a run, with the failure causes
    of the run's breakdown when there is one."""
    table = Table(title=f"tango eval: {summary['task']}", show_header=True)
    table.add_column("measure")
    table.add_column("value [95% interval]", justify="right")
    table.add_row("episodes", f"{summary['num_episodes']} ({summary['num_errors']} errors)")
    intervals = summary.get("ci95") or {}
    for name, value in summary["metrics"].items():
        table.add_row(name, with_interval(value, intervals.get(name)))
    subtasks = summary.get("subtasks")
    if subtasks:
        table.add_row("subtasks", str(subtasks["count"]))
        for name in ("success", "spl"):
            if name in subtasks["metrics"]:
                shown = with_interval(subtasks["metrics"][name], (subtasks.get("ci95") or {}).get(name))
                table.add_row(f"subtask {name}", shown)
        for goal_type, group in subtasks["by_goal_type"].items():
            for name in ("success", "spl"):
                if name in group["metrics"]:
                    shown = with_interval(group["metrics"][name], (group.get("ci95") or {}).get(name))
                    table.add_row(f"  {goal_type} {name} (n={group['count']})", shown)
    for reason, count in sorted(summary["errors_by_reason"].items()):
        table.add_row(f"error: {reason}", str(count))
    for reason, count in sorted(summary["failure_reasons"].items()):
        table.add_row(f"failure: {reason}", str(count))
    if causes:
        table.add_row(
            "failure causes", ", ".join(f"{cause} {n}" for cause, n in causes.items() if n) or "none"
        )
    table.add_row("oracle components", ", ".join(summary["oracle_components"]) or "none")
    table.add_row("sensors", ", ".join(summary.get("sensor_presets") or []) or "unknown")
    sources = {kind: n for kind, n in summary["program_sources"].items() if n}
    table.add_row("programs", ", ".join(f"{kind} {n}" for kind, n in sources.items()) or "none")
    table.add_row("steps/s", f"{summary['steps_per_s']:.1f}")
    table.add_row("wall time (s)", f"{summary['wall_time_s']:.1f}")
    llm = summary["llm"]
    if llm["calls"]:
        table.add_row(
            "LLM calls / tokens", f"{llm['calls']} / {llm['prompt_tokens'] + llm['completion_tokens']}"
        )
    return table
