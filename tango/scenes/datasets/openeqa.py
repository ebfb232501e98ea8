"""OpenEQA files for synthetic scenes: `open-eqa-v0.json` (the evaluation file, held-out wording), the same
questions worded from the training pool in `open-eqa-train.json`, and two files of our own beside them:
`episode_starts.json` (start poses; the published file has none) and `question_facts.json` (what each question
asks, structured, and the ids of the objects its answer rests on: for evaluation code, never the agent).

Each scene gets `histories_per_scene` episode histories named "tango-synthetic-v2/{index:03d}-synthetic-{scene}"
(the published "hm3d-v0/000-hm3d-BFRyYbPCCPE" pattern), each with its own navigable start pose; questions
are spread over them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tango.formats.openeqa import question_json, start_json_entry
from tango.scenes.datasets.context import SceneContext
from tango.scenes.datasets.questions import scene_questions
from tango.scenes.datasets.wording import question_text

TRAIN_QUESTIONS_FILE = "open-eqa-train.json"
HISTORY_PREFIX = "tango-synthetic-v2"


@dataclass(frozen=True)
class OpenEQAConfig:
    """Questions per category per scene and start poses per scene."""

    questions_per_category: int = 1
    histories_per_scene: int = 2


@dataclass
class SceneQuestions:
    """One scene's question records per wording pool, start poses and question facts."""

    records: dict[str, list[dict[str, Any]]]
    starts: dict[str, dict[str, Any]]
    facts: dict[str, dict[str, Any]]


def scene_questions_json(
    ctx: SceneContext, rngs: tuple[np.random.Generator, ...], config: OpenEQAConfig, first_history: int
) -> SceneQuestions:
    """The scene's questions worded from each pool, its episode_history -> start pose entries and the facts.

    `rngs` are (sampling, held-out wording, training wording) streams, so the questions and start poses do
    not depend on how they are worded.
    """
    rng, heldout_rng, train_rng = rngs
    out = SceneQuestions({"heldout": [], "train": []}, {}, {})
    objects = ctx.goal_objects()
    for index in range(config.histories_per_scene if objects else 0):
        start = ctx.sample_start(objects, rng, 0.0)
        if start is not None:
            history = f"{HISTORY_PREFIX}/{first_history + index:03d}-synthetic-{ctx.scene_id}"
            out.starts[history] = start_json_entry(ctx.scene_file, start)
    histories = sorted(out.starts)
    if not histories:
        return out
    for index, q in enumerate(
        scene_questions(ctx.annotations, ctx.neighbours, rng, config.questions_per_category)
    ):
        question_id = f"{ctx.scene_id}-q{index:03d}"
        for pool, wording_rng in (("heldout", heldout_rng), ("train", train_rng)):
            text = question_text(q.facts, pool, wording_rng)
            history = histories[index % len(histories)]
            record = question_json(text, q.answer, q.category, question_id, history, q.extra_answers)
            out.records[pool].append(record)
        out.facts[question_id] = {"facts": q.facts, "evidence": list(q.evidence)}
    return out
