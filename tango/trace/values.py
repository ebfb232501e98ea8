"""How program values appear in a trace: full readable text (handles keep their coordinates), the object
handles a value holds as structured fields, and the size caps every event obeys, with what is cut marked."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.types.goals import ObjectHandle

CUT_MARK = "…[cut {n} chars]"
LIST_ITEMS_SHOWN = 20


@dataclass(frozen=True)
class TraceLimits:
    """Caps on one trace: a string field (the program source has its own), items of a list field (poses),
    handles listed per event, one serialised event, and the whole file."""

    text_chars: int = 4000
    source_chars: int = 20_000
    list_items: int = 600
    objects: int = 20
    event_bytes: int = 64_000
    trace_bytes: int = 16_000_000


def cut_text(text: str, limit: int) -> tuple[str, bool]:
    """`text` within `limit` characters, marked with how much was cut; and whether anything was."""
    if len(text) <= limit:
        return text, False
    return text[:limit] + CUT_MARK.format(n=len(text) - limit), True


def summarize(value: Any, limit: int = TraceLimits.text_chars, depth: int = 0) -> str:
    """A program value as the trace shows it: strings whole, handles with label, position and score, lists up
    to 20 items (nested two deep); bounded by `limit` characters, the cut marked."""
    if isinstance(value, np.ndarray):
        text = f"<array {value.dtype} {tuple(value.shape)}>"
    elif isinstance(value, (list, tuple)):
        if depth >= 2:
            return f"[{len(value)} items]"
        items = ", ".join(summarize(item, limit, depth + 1) for item in value[:LIST_ITEMS_SHOWN])
        more = f", ... ({len(value)} items)" if len(value) > LIST_ITEMS_SHOWN else ""
        text = f"[{items}{more}]"
    elif isinstance(value, str):
        text = repr(value[: limit + 1])
    else:
        text = str(value)
    return cut_text(text, limit)[0]


def describe_call(
    name: str, args: list[Any], kwargs: dict[str, Any], limit: int = TraceLimits.text_chars
) -> str:
    """`name(arg, ..., key=value)` with each value as `summarize` shows it, within `limit` characters."""
    shown = [summarize(a, limit) for a in args] + [f"{k}={summarize(v, limit)}" for k, v in kwargs.items()]
    return cut_text(f"{name}({', '.join(shown)})", limit)[0]


def handles_in(value: Any, limit: int) -> list[dict[str, Any]]:
    """The object handles a value holds (itself, or the items of a list), as {label, position, score}."""
    items = value if isinstance(value, (list, tuple)) else [value]
    found = [item for item in items if isinstance(item, ObjectHandle)][:limit]
    return [
        {"label": h.label, "position": [round(float(v), 3) for v in h.position], "score": round(h.score, 4)}
        for h in found
    ]


def pose_entry(position: Any, yaw: float, pitch: float = 0.0) -> list[float]:
    """An agent pose as traces write it: [x, y, z, yaw, pitch] (metres, radians; 3 decimals)."""
    x, y, z = (float(v) for v in position)
    return [round(v, 3) for v in (x, y, z, float(yaw), float(pitch))]


def bounded(record: dict[str, Any], limits: TraceLimits) -> tuple[str, list[str]]:
    """The event as one JSON line within the caps, and the names of the fields that were cut.

    Strings over `text_chars` (`source_chars` for program text) and lists over `list_items` are cut in place
    and marked; if the line is still over `event_bytes`, its largest fields are replaced by a cut mark."""
    cut: list[str] = []
    for key, value in list(record.items()):
        if isinstance(value, str):
            limit = limits.source_chars if key in ("source", "program") else limits.text_chars
            record[key], was_cut = cut_text(value, limit)
        elif isinstance(value, list) and len(value) > limits.list_items:
            record[key], was_cut = value[: limits.list_items], True
        else:
            was_cut = False
        if was_cut:
            cut.append(key)
    line = _dumps(record, cut)
    while len(line.encode("utf-8")) > limits.event_bytes:
        sizes = {k: len(_dumps(v, [])) for k, v in record.items() if k != "event"}
        largest = max(sizes, key=lambda k: sizes[k])
        record[largest] = CUT_MARK.format(n=sizes[largest])
        cut.append(largest)
        line = _dumps(record, cut)
    return line, cut


def _dumps(value: Any, cut: list[str]) -> str:
    if cut and isinstance(value, dict):
        value = {**value, "cut": sorted(set(cut))}
    return json.dumps(value, default=str, ensure_ascii=False)
