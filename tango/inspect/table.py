"""The table of a run's episodes, filtered to failed ones or to a failure reason."""

from __future__ import annotations

from typing import Any

from rich.table import Table


def is_failed(record: dict[str, Any]) -> bool:
    """An episode that raised, or that ended with a failure reason or without success."""
    metrics = record.get("metrics") or {}
    return (
        record.get("status") == "error" or bool(record.get("failure_reason")) or metrics.get("success") == 0.0
    )


def filter_records(records: list[dict[str, Any]], failed: bool, reason: str | None) -> list[dict[str, Any]]:
    """Records kept by --failed (any failure) and --reason (substring of the failure reason or error type)."""
    kept = [record for record in records if not failed or is_failed(record)]
    if reason:
        needle = reason.lower()
        kept = [
            record
            for record in kept
            if needle in str(record.get("failure_reason") or "").lower()
            or needle in str(record.get("error_type") or "").lower()
        ]
    return kept


def episodes_table(records: list[dict[str, Any]]) -> Table:
    """One row per episode: id, scene, success, steps, failure reason, instruction."""
    table = Table(title=f"{len(records)} episodes")
    for column in ("episode", "scene", "success", "steps", "failure reason", "instruction"):
        table.add_column(column)
    for record in records:
        success = (record.get("metrics") or {}).get("success")
        table.add_row(
            str(record["episode_id"]),
            str(record.get("scene_id", "")),
            "" if success is None else f"{success:.2f}",
            str(record.get("num_steps", "")),
            str(record.get("failure_reason") or ""),
            str(record.get("instruction") or "")[:60],
        )
    return table
