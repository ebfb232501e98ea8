"""RUN_DIR/report.html: a static page with the run summary and one row per episode.

Everything from results is HTML-escaped; thumbnails and videos are linked by their paths relative to the
run directory, so the folder can be copied or served as is.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

REPORT_FILE = "report.html"

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 4px 6px; vertical-align: top; font-size: 13px; }
tr.error { background: #fdd; } tr.failed { background: #fff3d6; }
pre { margin: 0; max-width: 40em; white-space: pre-wrap; }
img { max-width: 160px; }
"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _number(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else _e(value)


def _summary_section(summary: dict[str, Any]) -> str:
    rows = [
        ("task", summary.get("task")),
        ("episodes", summary.get("num_episodes")),
        ("errors", summary.get("num_errors")),
        ("wall time (s)", _number(summary.get("wall_time_s"))),
        ("steps/s", _number(summary.get("steps_per_s"))),
    ]
    rows += [(name, _number(value)) for name, value in (summary.get("metrics") or {}).items()]
    subtasks = summary.get("subtasks") or {}
    for name, value in (subtasks.get("metrics") or {}).items():
        rows.append((f"subtask {name}", _number(value)))
    for goal_type, group in (subtasks.get("by_goal_type") or {}).items():
        for name, value in group["metrics"].items():
            rows.append((f"{goal_type} {name} (n={group['count']})", _number(value)))
    for reason, count in (summary.get("errors_by_reason") or {}).items():
        rows.append((f"error: {reason}", count))
    body = "".join(
        f"<tr><th>{_e(name)}</th><td>{value if isinstance(value, str) else _e(value)}</td></tr>"
        for name, value in rows
    )
    return f'<table id="summary">{body}</table>'


def _episode_row(record: dict[str, Any]) -> str:
    metrics = record.get("metrics") or {}
    metric_text = "<br>".join(f"{_e(name)}: {_number(value)}" for name, value in sorted(metrics.items()))
    css = "error" if record.get("status") == "error" else ("failed" if record.get("failure_reason") else "ok")
    thumbnail = record.get("thumbnail_path")
    video = record.get("video_path")
    image = f'<img src="{_e(thumbnail)}" alt="top-down map">' if thumbnail else ""
    link = f'<a href="{_e(video)}">video</a>' if video else ""
    return (
        f'<tr class="episode {css}" data-episode-id="{_e(record.get("episode_id"))}">'
        f"<td>{_e(record.get('episode_id'))}</td><td>{_e(record.get('scene_id'))}</td>"
        f"<td>{_e(record.get('instruction'))}</td><td><pre>{_e(record.get('program'))}</pre></td>"
        f"<td>{metric_text}</td><td>{_e(record.get('failure_reason'))}</td><td>{image}</td><td>{link}</td></tr>"
    )


def render_report(summary: dict[str, Any], records: list[dict[str, Any]]) -> str:
    """The report page as a string."""
    header = "".join(
        f"<th>{name}</th>"
        for name in (
            "episode",
            "scene",
            "instruction",
            "program",
            "metrics",
            "failure reason",
            "top-down",
            "video",
        )
    )
    ordered = sorted(records, key=lambda record: str(record.get("episode_id")))
    rows = "".join(_episode_row(record) for record in ordered)
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f"<title>tango eval: {_e(summary.get('task'))}</title><style>{_STYLE}</style></head><body>"
        f"<h1>tango eval: {_e(summary.get('task'))}</h1>{_summary_section(summary)}"
        f'<h2>Episodes</h2><table id="episodes"><thead><tr>{header}</tr></thead><tbody>{rows}</tbody></table>'
        "</body></html>\n"
    )


def write_report(run_dir: Path, summary: dict[str, Any], records: list[dict[str, Any]]) -> Path:
    """Write RUN_DIR/report.html and return its path."""
    path = Path(run_dir) / REPORT_FILE
    path.write_text(render_report(summary, records), encoding="utf-8")
    return path
