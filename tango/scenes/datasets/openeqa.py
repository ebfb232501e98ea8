"""OpenEQA files for synthetic scenes: `open-eqa-v0.json` plus `episode_starts.json` (tango's start poses).

Each scene gets `histories_per_scene` episode histories named "tango-synthetic-v2/{index:03d}-synthetic-{scene}"
(the published "hm3d-v0/000-hm3d-BFRyYbPCCPE" pattern), each with its own navigable start pose; questions
are spread over them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.scenes.datasets.context import SceneContext
from tango.scenes.datasets.questions import scene_questions
from tango.scenes.datasets.records import start_json

QUESTIONS_FILE = "open-eqa-v0.json"
HISTORY_PREFIX = "tango-synthetic-v2"


@dataclass(frozen=True)
class OpenEQAConfig:
    """Questions per category per scene and start poses per scene."""

    questions_per_category: int = 1
    histories_per_scene: int = 2


def scene_questions_json(
    ctx: SceneContext, rng: np.random.Generator, config: OpenEQAConfig, first_history: int
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The scene's question records and its episode_history -> start pose entries."""
    starts: dict[str, dict[str, Any]] = {}
    objects = ctx.goal_objects()
    for index in range(config.histories_per_scene if objects else 0):
        start = ctx.sample_start(objects, rng, 0.0)
        if start is not None:
            history = f"{HISTORY_PREFIX}/{first_history + index:03d}-synthetic-{ctx.scene_id}"
            starts[history] = {"scene_id": ctx.scene_file, **start_json(start)}
    histories = sorted(starts)
    records: list[dict[str, Any]] = []
    if not histories:
        return records, starts
    for index, q in enumerate(
        scene_questions(ctx.annotations, ctx.neighbours, rng, config.questions_per_category)
    ):
        record: dict[str, Any] = {
            "question": q.question,
            "answer": q.answer,
            "category": q.category,
            "question_id": f"{ctx.scene_id}-q{index:03d}",
            "episode_history": histories[index % len(histories)],
        }
        if q.extra_answers:
            record["extra_answers"] = list(q.extra_answers)
        records.append(record)
    return records, starts
