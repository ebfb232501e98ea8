"""Write a city folder: `city.json` (district seed and origin), `task/<id>.json` for every kind of the ladder
in UrbanGround's format, and `reference_routes.json` (our own file beside the tasks: the validator's routes,
never read by the server or an agent). Written into a scratch folder and moved into place whole."""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tango.urban.city.layout import LAYOUT_VERSION
from tango.urban.server.standin import CITY_FILE, TASK_DIR
from tango.urban.taskfile import parse_task
from tango.urban.taskgen import nav, places, qa
from tango.urban.taskgen.context import GenContext, Reference

log = logging.getLogger(__name__)
DATA_VERSION = "urban-v1"
REFERENCE_FILE = "reference_routes.json"
Builder = Callable[[GenContext, int], "tuple[dict[str, Any], Reference] | None"]

BASE_BUILDERS: dict[str, Builder] = {
    "LQ": qa.landmark_task,
    "OQ": qa.orientation_task,
    "SQ": qa.spatial_task,
    "SN": lambda ctx, n: nav.nav_task(ctx, "SN", 0, n),
    "LN": lambda ctx, n: nav.nav_task(ctx, "LN", 2, n),
    "IN": lambda ctx, n: nav.nav_task(ctx, "IN", 10, n),
    "CN": lambda ctx, n: nav.nav_task(ctx, "CN", 11, n),
    "PS": places.place_search_task,
    "II": places.implicit_intent_task,
    "SF": places.schedule_task,
    "MP": places.multipoint_task,
    "DCR": lambda ctx, n: nav.nav_task(ctx, "DCR", 12, n),
}
VARIANTS = {"PL": "LN", "RN": "SN", "NTN": "SN"}


def _reference_json(ctx: GenContext, reference: Reference) -> dict[str, Any]:
    frame = ctx.district.frame
    return {
        "legs": [[list(frame.to_geo(*point)) for point in leg] for leg in reference.legs],
        "length_m": round(reference.length_m, 2),
    }


def generate_city(
    out: str | Path,
    seed: int = 0,
    per_kind: int = 8,
    attempts_per_task: int = 40,
    kinds: list[str] | None = None,
) -> Path:
    """Generate the district's task set into `out` (replacing it); returns `out`. `kinds` limits the base
    kinds written (their variants follow them), for small sets in tests."""
    out = Path(out)
    ctx = GenContext.create(seed)
    tasks: dict[str, dict[str, Any]] = {}
    references: dict[str, dict[str, Any]] = {}
    for prefix, builder in BASE_BUILDERS.items():
        if kinds is not None and prefix not in kinds:
            continue
        made, tries = 0, 0
        while made < per_kind and tries < per_kind * attempts_per_task:
            tries += 1
            result = builder(ctx, made + 1)
            if result is None:
                continue
            task, reference = result
            tasks[task["id"]] = task
            references[task["id"]] = _reference_json(ctx, reference)
            made += 1
        if made < per_kind:
            raise RuntimeError(f"could only generate {made}/{per_kind} {prefix} tasks for seed {seed}")
        log.info("generated %d %s tasks", made, prefix)
    for prefix, source_prefix in VARIANTS.items():
        for task_id in [i for i in list(tasks) if i.startswith(source_prefix + "-")]:
            clone = nav.variant(tasks[task_id], prefix)
            tasks[clone["id"]] = clone
            references[clone["id"]] = references[task_id]
    for task_id, task in tasks.items():
        parse_task(task, task_id)  # every written task reads back with our own strict reader
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}-"))
    try:
        (scratch / TASK_DIR).mkdir()
        for task_id, task in tasks.items():
            (scratch / TASK_DIR / f"{task_id}.json").write_text(
                json.dumps(task, indent=2) + "\n", encoding="utf-8"
            )
        city = {
            "format": "tango-urban-city/1",
            "layout": LAYOUT_VERSION,
            "data_version": DATA_VERSION,
            "seed": seed,
            "origin": list(ctx.district.origin),
            "per_kind": per_kind,
        }
        (scratch / CITY_FILE).write_text(json.dumps(city, indent=2) + "\n", encoding="utf-8")
        (scratch / REFERENCE_FILE).write_text(json.dumps(references, indent=1) + "\n", encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        os.replace(scratch, out)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch)
    return out


def read_references(folder: str | Path) -> dict[str, dict[str, Any]]:
    path = Path(folder) / REFERENCE_FILE
    return dict(json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else {}
