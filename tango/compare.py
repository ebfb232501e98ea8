"""`python -m tango.compare RUN_A RUN_B`: is B better than A on the episodes both ran?

The two runs' episodes are paired by episode id; episodes only one run has are left out (and counted). For
each metric: the mean of A and of B over the shared episodes, the mean difference B - A and its paired
percentile-bootstrap 95% interval (tango.stats; the episodes are resampled, each keeping its pair). For a 0/1
`success`, also the exact McNemar p-value from the discordant pairs. Multi-goal runs (GOAT) also get the
pooled subtask figures of the shared episodes, overall and per goal type, with intervals from resampling
whole episodes. Call B and A different only where the interval excludes zero.

Exit codes: 0 compared; 1 the runs share no episode; 2 a run folder is missing, unreadable, unfinished
(no summary.json, or `complete: false` without --allow-incomplete), or the runs are not comparable (different
tasks or scoring rules, or one episode id naming different scenes).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tango.harness.results import SUMMARY_FILE, ResultsError, check_unique, read_records
from tango.stats import RESAMPLES, SEED, cluster_bootstrap_ci, mcnemar_exact, paired_bootstrap_ci

RULE_KEYS = ("success_distance", "distance_to", "lenient_success_distance")
"""Scoring rules that must agree for two runs' figures to be comparable."""
EXIT_OK, EXIT_NO_SHARED, EXIT_SETUP = 0, 1, 2


class CompareError(ValueError):
    """A run folder that cannot be compared (missing, unreadable, unfinished) or two runs that are not
    comparable; the message is one line."""


@dataclass
class Run:
    """One run folder's episode records (by id) and its summary."""

    path: Path
    records: dict[str, dict[str, Any]]
    summary: dict[str, Any]


@dataclass
class MetricDifference:
    """One metric over the paired units: both means, B - A and its 95% interval; for a 0/1 success the
    discordant counts and the exact McNemar p-value."""

    metric: str
    n: int
    mean_a: float
    mean_b: float
    difference: float
    ci95: list[float] | None
    only_a: int | None = None
    only_b: int | None = None
    mcnemar_p: float | None = None

    @property
    def distinguishable(self) -> bool:
        """Whether the paired interval excludes zero (the rule for calling two figures different)."""
        return self.ci95 is not None and (self.ci95[0] > 0.0 or self.ci95[1] < 0.0)


@dataclass
class Comparison:
    """Everything `tango.compare` reports about two runs."""

    run_a: str
    run_b: str
    task: str
    shared: int
    only_in_a: int
    only_in_b: int
    episodes: list[MetricDifference] = field(default_factory=list)
    subtasks: dict[str, list[MetricDifference]] = field(default_factory=dict)
    method: str = (
        f"paired 95% percentile bootstrap over shared episodes ({RESAMPLES} resamples, seed {SEED}); pooled "
        "subtask figures resample whole episodes; McNemar: exact two-sided binomial test on discordant pairs"
    )


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def load_run(path: Path, allow_incomplete: bool = False) -> Run:
    """A finished run folder's records and summary; CompareError when it is missing or unfinished."""
    if not path.is_dir():
        raise CompareError(f"{path}: no such run folder")
    try:
        records = read_records(path)
        check_unique(records, str(path))
    except ResultsError as error:
        raise CompareError(str(error)) from error
    if not records:
        raise CompareError(f"{path}: no episode records (episodes.jsonl missing or empty)")
    summary_path = path / SUMMARY_FILE
    if not summary_path.is_file():
        raise CompareError(f"{path}: no {SUMMARY_FILE}: the run has not finished (rerun it to resume)")
    try:
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CompareError(f"{summary_path}: not valid JSON ({error})") from error
    if summary.get("complete") is False and not allow_incomplete:
        raise CompareError(
            f"{path}: incomplete run ({summary.get('num_episodes')} of {summary.get('num_planned')} episodes); "
            "rerun it to finish, or pass --allow-incomplete to compare the episodes it has"
        )
    return Run(path, {str(record["episode_id"]): record for record in records}, summary)


def check_comparable(a: Run, b: Run, shared: list[str]) -> None:
    """Refuse runs of different tasks or scoring rules, or a shared episode id naming different scenes."""
    task_a, task_b = a.summary.get("task"), b.summary.get("task")
    if task_a != task_b:
        raise CompareError(f"different tasks: {a.path} is {task_a!r}, {b.path} is {task_b!r}")
    for key in RULE_KEYS:
        if a.summary.get(key) != b.summary.get(key):
            raise CompareError(
                f"different scoring rules: {key} {a.summary.get(key)!r} in {a.path}, {b.summary.get(key)!r} in {b.path}"
            )
    for episode_id in shared:
        scene_a, scene_b = a.records[episode_id].get("scene_id"), b.records[episode_id].get("scene_id")
        if scene_a != scene_b:
            raise CompareError(
                f"episode {episode_id!r} is in different scenes ({scene_a!r} vs {scene_b!r}): different datasets"
            )


def difference(metric: str, pairs: list[tuple[float, float]]) -> MetricDifference:
    """The paired comparison of one metric; McNemar when the metric is `success` and every value is 0 or 1."""
    a = [pair[0] for pair in pairs]
    b = [pair[1] for pair in pairs]
    n = len(pairs)
    interval = paired_bootstrap_ci(a, b)
    result = MetricDifference(
        metric, n, sum(a) / n, sum(b) / n, (sum(b) - sum(a)) / n, None if interval is None else list(interval)
    )
    if metric == "success" and all(value in (0.0, 1.0) for value in a + b):
        result.only_a = sum(1 for x, y in pairs if x == 1.0 and y == 0.0)
        result.only_b = sum(1 for x, y in pairs if x == 0.0 and y == 1.0)
        result.mcnemar_p = mcnemar_exact(result.only_a, result.only_b)
    return result


def episode_differences(a: Run, b: Run, shared: list[str]) -> list[MetricDifference]:
    """Each episode metric present in both records of at least one shared episode."""
    pairs: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for episode_id in shared:
        metrics_a = a.records[episode_id].get("metrics") or {}
        metrics_b = b.records[episode_id].get("metrics") or {}
        for name, value in metrics_a.items():
            if _number(value) and _number(metrics_b.get(name)):
                pairs[name].append((float(value), float(metrics_b[name])))
    ordered = sorted(pairs, key=lambda name: (name != "success", name != "spl", name))
    return [difference(name, pairs[name]) for name in ordered]


def _subtask_pairs(
    a: Run, b: Run, shared: list[str]
) -> list[list[tuple[str, dict[str, Any], dict[str, Any]]]]:
    """Per shared episode, its subtasks paired by position (goal type, A's row, B's row); a position whose
    goal types differ is a different subtask and is left out."""
    episodes = []
    for episode_id in shared:
        rows_a = [r for r in a.records[episode_id].get("subtasks") or [] if isinstance(r, dict)]
        rows_b = [r for r in b.records[episode_id].get("subtasks") or [] if isinstance(r, dict)]
        episodes.append(
            [(str(ra.get("goal_type", "unknown")), ra, rb) for ra, rb in zip(rows_a, rows_b)
             if ra.get("goal_type") == rb.get("goal_type")]
        )  # fmt: skip
    return episodes


def _pooled_difference(
    metric: str, episodes: list[list[tuple[str, dict[str, Any], dict[str, Any]]]], goal_type: str | None
) -> MetricDifference | None:
    """A pooled subtask metric's difference over paired subtasks (all, or one goal type), its interval by
    resampling whole episodes (the subtasks of one episode are not independent; no McNemar for them)."""
    sums_a, sums_b, counts = [], [], []
    for rows in episodes:
        kept = [(float(ra[metric]), float(rb[metric])) for kind, ra, rb in rows
                if (goal_type is None or kind == goal_type) and _number(ra.get(metric)) and _number(rb.get(metric))]  # fmt: skip
        sums_a.append(sum(x for x, _ in kept))
        sums_b.append(sum(y for _, y in kept))
        counts.append(len(kept))
    n = sum(counts)
    if n == 0:
        return None
    interval = cluster_bootstrap_ci([y - x for x, y in zip(sums_a, sums_b)], counts)
    mean_a, mean_b = sum(sums_a) / n, sum(sums_b) / n
    return MetricDifference(
        metric, n, mean_a, mean_b, mean_b - mean_a, None if interval is None else list(interval)
    )


SUBTASK_METRICS = ("success", "spl", "soft_spl", "lenient_success", "lenient_spl")


def subtask_differences(a: Run, b: Run, shared: list[str]) -> dict[str, list[MetricDifference]]:
    """Pooled subtask figures ('all' and each goal type) of the shared episodes; empty for single-goal tasks."""
    episodes = _subtask_pairs(a, b, shared)
    goal_types = sorted({kind for rows in episodes for kind, _, _ in rows})
    if not goal_types:
        return {}
    groups: dict[str, list[MetricDifference]] = {}
    for label, goal_type in [("all", None)] + [(kind, kind) for kind in goal_types]:
        found = [_pooled_difference(metric, episodes, goal_type) for metric in SUBTASK_METRICS]
        groups[label] = [item for item in found if item is not None]
    return groups


def compare_runs(a: Run, b: Run) -> Comparison:
    """Pair the runs' episodes and compare every metric (CompareError when they are not comparable)."""
    shared = sorted(set(a.records) & set(b.records))
    check_comparable(a, b, shared)
    comparison = Comparison(
        str(a.path), str(b.path), str(a.summary.get("task")), len(shared),
        len(set(a.records) - set(b.records)), len(set(b.records) - set(a.records)),
    )  # fmt: skip
    if shared:
        comparison.episodes = episode_differences(a, b, shared)
        comparison.subtasks = subtask_differences(a, b, shared)
    return comparison


def _row(item: MetricDifference) -> str:
    interval = "      (none)      " if item.ci95 is None else f"[{item.ci95[0]:+.4f}, {item.ci95[1]:+.4f}]"
    verdict = "differ" if item.distinguishable else "same within interval"
    text = (
        f"  {item.metric:<18} {item.n:>5} {item.mean_a:>9.4f} {item.mean_b:>9.4f} {item.difference:>+9.4f} "
        f"{interval}  {verdict}"
    )
    if item.mcnemar_p is not None:
        text += f"; McNemar p={item.mcnemar_p:.4g} (A only {item.only_a}, B only {item.only_b})"
    return text


HEADER = f"  {'metric':<18} {'n':>5} {'A':>9} {'B':>9} {'B - A':>9} 95% interval of B - A"


def format_comparison(comparison: Comparison) -> str:
    """The comparison as text: the pairing, then a row per metric (episodes, then pooled subtasks)."""
    lines = [
        f"A: {comparison.run_a}",
        f"B: {comparison.run_b}",
        (
            f"task {comparison.task}: {comparison.shared} shared episodes; left out: "
            f"{comparison.only_in_a} only in A, {comparison.only_in_b} only in B"
        ),
    ]
    if not comparison.shared:
        return "\n".join(lines + ["nothing to compare: the runs share no episode"])
    lines += ["per episode (mean over shared episodes):", HEADER] + [
        _row(item) for item in comparison.episodes
    ]
    for label, items in comparison.subtasks.items():
        lines += [f"subtasks pooled, {label} (n = paired subtasks):"] + [_row(item) for item in items]
    lines.append(comparison.method)
    return "\n".join(lines)


def as_json(comparison: Comparison) -> dict[str, Any]:
    """The comparison as a JSON-ready dict (each difference with its `distinguishable` flag)."""
    data = asdict(comparison)
    data["episodes"] = [
        {**asdict(item), "distinguishable": item.distinguishable} for item in comparison.episodes
    ]
    data["subtasks"] = {
        label: [{**asdict(item), "distinguishable": item.distinguishable} for item in items]
        for label, items in comparison.subtasks.items()
    }
    return data


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns the exit code the module docstring lists."""
    parser = argparse.ArgumentParser(prog="python -m tango.compare", description=__doc__.splitlines()[0])
    parser.add_argument("run_a", type=Path, help="the baseline run folder (A)")
    parser.add_argument("run_b", type=Path, help="the run compared with it (B); differences are B - A")
    parser.add_argument("--allow-incomplete", action="store_true", help="compare unfinished runs' episodes")
    parser.add_argument("--json", type=Path, help="also write the comparison to this JSON file")
    args = parser.parse_args(argv)
    try:
        a = load_run(args.run_a, args.allow_incomplete)
        b = load_run(args.run_b, args.allow_incomplete)
        comparison = compare_runs(a, b)
    except CompareError as error:
        print(f"compare: {error}", file=sys.stderr)
        return EXIT_SETUP
    print(format_comparison(comparison))
    if args.json is not None:
        args.json.write_text(json.dumps(as_json(comparison), indent=2) + "\n", encoding="utf-8")
    return EXIT_OK if comparison.shared else EXIT_NO_SHARED


if __name__ == "__main__":
    sys.exit(main())
