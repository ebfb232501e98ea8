"""RUN_DIR/report.html: the page a researcher opens first.

At the top the configuration (task, perception and which components read ground truth, generator and model,
controller, success radius, sensors, program sources), then the results, inline SVG charts (success and SPL
by goal type, success by episode length, failure causes), and one compact row per episode or subtask that can
be sorted and filtered, with the real goal, the failure cause, a top-down map, the video and the program
behind a click. Everything from results is HTML-escaped; the page loads nothing from the network, and
images and videos are linked by paths relative to the run directory, so the folder can be copied as is.
"""

from __future__ import annotations

import html
import json
import logging
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tango.harness.episode import recorded_scoring
from tango.harness.report_charts import Group, count_bars, rate_bars
from tango.harness.report_rows import Row, episode_rows, row_html
from tango.harness.report_style import SCRIPT, STYLE
from tango.harness.scoring import TaskScoring
from tango.stats import ratio_cis

LOG = logging.getLogger(__name__)
REPORT_FILE = "report.html"
SHOWN_ELSEWHERE = {
    "configs",
    "metrics",
    "metric_counts",
    "ci95",
    "ci95_method",
    "subtasks",
    "task",
    "oracle_components",
    "program_sources",
}
MAX_GROUPS = 8
LENGTH_BINS = 5
COLUMNS = ("episode", "sub", "goal type", "goal", "outcome", "SPL", "steps", "dist. (m)", "why it failed",
           "map", "video", "program")  # fmt: skip


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True, default=str)
    return str(value)


def _described(section: dict[str, Any]) -> str:
    """A component description: its name, each component's kind, its other plain settings."""
    name = section.get("name", "?")
    kinds = [f"{k}: {v['kind']}" for k, v in section.items() if isinstance(v, dict) and "kind" in v]
    plain = [f"{k}={_value(v)}" for k, v in section.items() if k not in ("name", "oracle_components")
             and not isinstance(v, (dict, list)) and v not in (None, "")]  # fmt: skip
    return "; ".join([str(name)] + [", ".join(group) for group in (kinds, plain) if group])


def _generator(generator: dict[str, Any]) -> str:
    keys = ("name", "model", "base_url", "temperature", "max_replans")
    return ", ".join(f"{key}={generator[key]}" for key in keys if generator.get(key) not in (None, ""))


def _controller(controller: dict[str, Any]) -> str:
    exploration = controller.get("exploration") or {}
    text = _described(controller)
    if exploration:
        text += (
            f"; exploration by {exploration.get('frontier_policy', '?')} frontiers, explored area by "
            f"{exploration.get('explored_method', '?')}"
        )
    return text


def _sensors(sim: dict[str, Any]) -> str:
    sensors = ", ".join(sim.get("sensors") or [])
    return (
        f"{sim.get('width', '?')}x{sim.get('height', '?')} px, hfov {sim.get('hfov', '?')}°, camera at "
        f"{sim.get('camera_height', '?')} m; {sensors} ({sim.get('backend', '?')} simulator)"
    )


STANDARD_SECTIONS = {"task", "eval", "agent", "sim", "perception", "generator", "hydra"}


def config_rows(summary: dict[str, Any], records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The configuration a reader needs to trust the numbers, one labelled line each: perception, generator,
    controller and simulator as the runner described them in its records (what ran), every summary field whose
    name starts with `success` (radius, distance definition), and the sections a task owns (e.g. graphnav)."""
    configs = summary.get("configs") or {}
    ran = records[0] if records else {}
    task = configs.get("task") or {}
    oracles = summary.get("oracle_components") or []
    success = [
        f"{k} = {_value(v)}" for k, v in sorted(summary.items()) if k.startswith("success") and v is not None
    ]
    sources = summary.get("program_sources") or {}
    perception, generator = (
        ran.get("perception") or {},
        ran.get("generator") or configs.get("generator") or {},
    )
    rows = [
        ("task", ", ".join(f"{k}={_value(v)}" for k, v in task.items() if k != "plugin")),
        ("success", "; ".join(success) or "not recorded"),
        ("perception", _described(perception) if perception else ""),
        ("oracle components", ", ".join(oracles) if oracles else "none (no component read ground truth)"),
        ("generator", _generator(generator)),
        ("controller", _controller(ran["controller"]) if isinstance(ran.get("controller"), dict) else ""),
        ("sensors", _sensors(ran["sim"]) if isinstance(ran.get("sim"), dict) else ""),
        ("program sources", ", ".join(f"{kind} {n}" for kind, n in sources.items() if n) or "none"),
    ]
    for name, section in configs.items():
        if name not in STANDARD_SECTIONS and isinstance(section, dict):
            rows.append((name, ", ".join(f"{k}={_value(v)}" for k, v in section.items())))
    return [(label, text) for label, text in rows if text]


def _table(rows: list[tuple[str, str]], table_id: str) -> str:
    body = "".join(f"<tr><th>{_e(label)}</th><td>{_e(text)}</td></tr>" for label, text in rows)
    return f'<table class="kv" id="{table_id}">{body}</table>'


def _interval(interval: Any) -> str:
    """A 95% interval beside its mean, or nothing when the summary has none (older runs)."""
    if not isinstance(interval, list) or len(interval) != 2:
        return ""
    return f' <span class="ci" title="95% bootstrap interval">[{_value(interval[0])}, {_value(interval[1])}]</span>'


def metrics_table(summary: dict[str, Any]) -> str:
    """Each metric's mean over episodes (with n) and its 95% interval, and for multi-goal tasks over all
    subtasks and per goal type (intervals from resampling whole episodes); the method below the table."""
    counts = summary.get("metric_counts") or {}
    episodes = summary.get("metrics") or {}
    subtasks = summary.get("subtasks") or {}
    columns: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("episodes", episodes, summary.get("ci95") or {})
    ]
    if subtasks:
        columns.append(
            (
                f"subtasks (n={subtasks.get('count')})",
                subtasks.get("metrics") or {},
                subtasks.get("ci95") or {},
            )
        )
        for goal_type, group in (subtasks.get("by_goal_type") or {}).items():
            columns.append(
                (f"{goal_type} (n={group.get('count')})", group.get("metrics") or {}, group.get("ci95") or {})
            )
    names = list(episodes) + [n for _, values, _ in columns[1:] for n in values if n not in episodes]
    head = "".join(f"<th>{_e(title)}</th>" for title, _, _ in columns)
    body = ""
    for name in dict.fromkeys(names):
        cells = []
        for index, (_, values, intervals) in enumerate(columns):
            value = values.get(name)
            text = "" if value is None else _value(value) + _interval(intervals.get(name))
            if index == 0 and value is not None:
                text += f' <span class="dim">n={counts.get(name, "?")}</span>'
            cells.append(f"<td>{text}</td>")
        body += f"<tr><th>{_e(name)}</th>{''.join(cells)}</tr>"
    method = summary.get("ci95_method")
    note = f'<p class="note">[lo, hi]: {_e(method)}</p>' if method else ""
    return (
        f'<table class="metrics" id="summary"><thead><tr><th>metric</th>{head}</tr></thead>{body}</table>'
        + note
    )


def run_fields(summary: dict[str, Any]) -> str:
    """Every other field of summary.json, compactly (fields added later show up here too)."""
    items = [
        f"<span><b>{_e(key)}</b> {_e(_value(value))}</span>"
        for key, value in sorted(summary.items())
        if key not in SHOWN_ELSEWHERE and not key.startswith("success")
    ]
    return f'<p class="fields">{" · ".join(items)}</p>'


def goal_groups(rows: list[Row]) -> list[Group]:
    """Success and SPL per goal type; with one goal type, per goal when goals repeat (ObjectNav categories),
    else one group. The largest groups are drawn."""
    key = (lambda row: row.goal_type) if len({row.goal_type for row in rows}) > 1 else (lambda row: row.goal)
    grouped: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        grouped[key(row)].append(row)
    if len(grouped) > 1 and max(len(members) for members in grouped.values()) < 2:
        types = {row.goal_type for row in rows}
        grouped = {(types.pop() if len(types) == 1 else "") or "all": rows}
    largest = sorted(grouped.items(), key=lambda item: -len(item[1]))[:MAX_GROUPS]
    return [
        Group(
            label, len(members), (_mean([r.score for r in members]), _mean([r.spl for r in members])),
            group_intervals(members, ("score", "spl")),
        )
        for label, members in sorted(largest)
    ]  # fmt: skip


def _mean(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def group_intervals(rows: list[Row], fields: tuple[str, ...]) -> tuple[tuple[float, float] | None, ...]:
    """The 95% interval of each field's mean over these rows, resampling whole episodes (a GOAT episode's
    subtasks are not independent; an ObjectNav episode is one row): tango.stats.ratio_cis."""
    by_episode: dict[str, list[list[float]]] = {}
    for row in rows:
        sums_counts = by_episode.setdefault(row.episode_id, [[0.0] * len(fields), [0.0] * len(fields)])
        for j, name in enumerate(fields):
            value = getattr(row, name)
            if value is not None:
                sums_counts[0][j] += float(value)
                sums_counts[1][j] += 1.0
    if not by_episode:
        return tuple(None for _ in fields)
    found = ratio_cis([s for s, _ in by_episode.values()], [c for _, c in by_episode.values()])
    return tuple(found)


def _length_groups(rows: list[Row]) -> list[Group]:
    """Success rate in equal-width bins of the steps each episode or subtask took."""
    steps = [row.steps for row in rows if row.steps is not None]
    if not steps:
        return []
    width = max(1, -(-(max(steps) + 1) // LENGTH_BINS))
    bins: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        if row.steps is not None:
            bins[row.steps // width].append(row)
    return [Group(f"{b * width}-{(b + 1) * width - 1}", len(m), (_mean([r.score for r in m]),),
                  group_intervals(m, ("score",)))
            for b, m in sorted(bins.items())]  # fmt: skip


def charts(rows: list[Row], breakdown: dict[str, Any] | None) -> str:
    by_type = rate_bars("success and SPL by goal", ("success", "SPL"), goal_groups(rows))
    by_length = rate_bars("success by steps taken", ("success",), _length_groups(rows))
    found = breakdown or {}
    causes = count_bars(f"why {_count(found.get('failures', 0), found.get('unit', 'episode'))} failed",
                        list((found.get("causes") or {}).items()))  # fmt: skip
    return f'<div class="charts">{by_type}{by_length}{causes}</div>'


def breakdown_section(breakdown: dict[str, Any] | None) -> str:
    if breakdown is None:
        return "<p>No failure breakdown (python -m tango.inspect RUN --breakdown).</p>"
    meanings = breakdown.get("cause_meanings") or {}
    rows = [(cause, f"{n}: {meanings.get(cause, '')}") for cause, n in breakdown["causes"].items() if n]
    notes = "".join(f'<p class="note">{_e(note)}</p>' for note in breakdown.get("notes") or [])
    total = f"<p>{_count(breakdown['failures'], 'failed ' + breakdown['unit'])}, one cause each (docs/traces.md).</p>"
    return total + _table(rows, "breakdown") + notes


def filters(rows: list[Row]) -> str:
    causes = sorted({row.cause for row in rows if row.cause})
    options = "".join(f'<option value="{_e(c)}">{_e(c)}</option>' for c in causes)
    return (
        '<div class="filters"><input id="filter-text" type="search" placeholder="filter rows by any text">'
        '<select id="filter-outcome"><option value="">all outcomes</option><option>success</option>'
        "<option>failure</option><option>error</option></select>"
        f'<select id="filter-cause"><option value="">all causes</option>{options}</select>'
        '<span id="shown"></span></div>'
    )


def render_report(
    summary: dict[str, Any],
    records: list[dict[str, Any]],
    breakdown: dict[str, Any] | None = None,
    scoring: TaskScoring | None = None,
) -> str:
    """The report page as a string; `scoring` is the task's (by default the plugin the summary's configs name),
    whose outcome decides which episodes passed."""
    scoring = scoring if scoring is not None else recorded_scoring(summary.get("configs"))
    rows = episode_rows(records, breakdown, scoring.outcome)
    title = f"tango eval: {summary.get('task')}"
    status = (f"{summary.get('num_episodes')} episodes, {summary.get('num_errors')} errors"
              f"{'' if summary.get('complete', True) else ' (incomplete)'}")  # fmt: skip
    header = "".join(f'<th data-col="{i}">{_e(name)}</th>' for i, name in enumerate(COLUMNS))
    body = "".join(row_html(row) for row in rows)
    raw = html.escape(json.dumps(summary, indent=2, sort_keys=True, default=str))
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
        f"<style>{STYLE}</style></head><body>"
        f'<h1>{_e(title)}</h1><p class="status">{_e(status)}</p>'
        f"<h2>Configuration</h2>{_table(config_rows(summary, records), 'config')}"
        f"<h2>Results</h2>{charts(rows, breakdown)}{metrics_table(summary)}{run_fields(summary)}"
        f"<h2>Failure causes</h2>{breakdown_section(breakdown)}"
        f"<h2>Episodes</h2>{filters(rows)}"
        '<p class="legend">map: <span style="color:#1e6eff">path</span>, <span style="color:#1eb43c">goals</span>,'
        ' <span style="color:#e61e1e">agent</span>, <span style="color:#ff8c00">objects it found</span>,'
        ' <span style="color:#00c8ff">frontiers</span>; dark = obstacles, light = explored</p>'
        f'<table id="episodes"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'
        f"<details><summary>summary.json as written</summary><pre>{raw}</pre></details>"
        f"<script>{SCRIPT}</script></body></html>\n"
    )


FailureAnalysis = Callable[[Path, TaskScoring], dict[str, Any] | None]
"""Writes RUN_DIR/breakdown.json and returns it: the failure analysis the entry point hands the harness
(tango.analysis.breakdown.write_breakdown); the harness itself knows no benchmark's ground truth."""


def read_breakdown(
    run_dir: Path, scoring: TaskScoring, analyse: FailureAnalysis | None
) -> dict[str, Any] | None:
    """The failure breakdown of the run, computed now by `analyse` (None without one, or with a warning when it
    cannot be computed)."""
    if analyse is None:
        return None
    try:
        return analyse(run_dir, scoring)
    except Exception as error:  # noqa: BLE001 - the report is written without it; the log says why
        LOG.warning("no failure breakdown for %s: %s: %s", run_dir, type(error).__name__, error)
        return None


def write_report(
    run_dir: Path,
    summary: dict[str, Any],
    records: list[dict[str, Any]],
    scoring: TaskScoring | None = None,
    analyse: FailureAnalysis | None = None,
) -> dict[str, Any] | None:
    """Analyse the failures with `analyse` (RUN_DIR/breakdown.json) and write RUN_DIR/report.html, judged by the
    task's `scoring` (by default the plugin the summary's configs name); the breakdown (None without `analyse`
    or when it could not be computed)."""
    scoring = scoring if scoring is not None else recorded_scoring(summary.get("configs"))
    breakdown = read_breakdown(Path(run_dir), scoring, analyse)
    page = render_report(summary, records, breakdown, scoring)
    (Path(run_dir) / REPORT_FILE).write_text(page, encoding="utf-8")
    return breakdown
