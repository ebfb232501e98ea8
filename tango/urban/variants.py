"""Condition variants made from a task set's source tasks, as UrbanGround's `run_task.py --all` makes them
(`urban.variants=all`).

Their build ships the plain tasks and only a few examples of each variant; their `--all` drops those examples
and runs, besides every plain task, one copy of each source task per variant rule: id `<variant>-<source id>`,
`sourceTaskId` = the source id (the app is entered by it), the source's type except DynamicClosureNav (type 12
over ConstrainedNav sources). A rule whose source kind is absent makes the expansion incomplete: their harness
refuses it, and so does this (ValueError naming the missing kinds).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from tango.urban.kinds import id_prefix
from tango.urban.taskfile import UrbanTask, parse_task

VARIANT_EXAMPLE_PREFIXES = frozenset(
    {"PD", "PL", "DCR", "RQ", "RN", "TSQ", "TSN", "OCQ", "OCN", "CLQ", "CLN", "EVQ", "EVN", "NTQ", "NTN"}
)
"""Prefixes of shipped variant examples, which the expansion replaces (PD is no longer generated)."""
_QA = (("LQ", 7), ("OQ", 8), ("SQ", 9))
_SHORT = (("SN", 0),)
RULES: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = (
    ("PL", (("LN", 2),)),
    ("DCR", (("CN", 11),)),
    ("RQ", _QA),
    ("RN", _SHORT),
    *(
        (f"{stem}{suffix}", _QA if suffix == "Q" else _SHORT)
        for stem in ("TS", "OC", "CL", "EV", "NT")
        for suffix in "QN"
    ),
)
TYPE_OVERRIDES = {"DCR": 12}


def variant_of(source: UrbanTask, prefix: str) -> UrbanTask:
    """The `prefix` variant of a source task (read again from the source's payload, so it is checked)."""
    payload = {
        **source.raw,
        "id": f"{prefix}-{source.id}",
        "sourceTaskId": source.id,
        "type": TYPE_OVERRIDES.get(prefix, source.type),
    }
    return replace(parse_task(payload, source.path), generated_variant=True)


def expand_all(tasks: list[UrbanTask]) -> list[UrbanTask]:
    """The plain tasks plus every variant of their sources, sorted by id (their order)."""
    plain = [task for task in tasks if id_prefix(task.id) not in VARIANT_EXAMPLE_PREFIXES]
    sources: dict[tuple[str, int], list[UrbanTask]] = {}
    for task in plain:
        sources.setdefault((id_prefix(task.id), task.type), []).append(task)
    needed = sorted({key for _, keys in RULES for key in keys} - set(sources))
    if needed:
        raise ValueError(f"urban.variants=all needs source tasks of every variant rule; none of {needed}")
    made = [
        variant_of(source, prefix)
        for prefix, keys in RULES
        for key in keys
        for source in sorted(sources[key], key=lambda t: t.id)
    ]
    result = sorted([*plain, *made], key=lambda task: task.id)
    duplicates = sorted(task_id for task_id, n in Counter(t.id for t in result).items() if n > 1)
    if duplicates:
        raise ValueError(f"urban.variants=all made duplicate task ids {duplicates}")
    return result
