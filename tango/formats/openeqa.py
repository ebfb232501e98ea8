"""OpenEQA (A-EQA, active embodied question answering): reading a question file, and writing its records.

`open-eqa-v0.json` is a list of `{question, answer, category, question_id, episode_history, extra_answers?}`.
`episode_history` ("hm3d-v0/000-hm3d-BFRyYbPCCPE") names the scene: the part after the second "-" of its last
path component. The published file has no start pose (A-EQA takes it from the first frame of the history);
tango reads it from an optional `episode_starts.json` beside the questions, mapping episode_history to
`{scene_id, start_position, start_rotation}` (the synthetic generator writes one), and what each question
asks from an optional `question_facts.json` (question_id -> `{facts, evidence}`: the structured query and the
ids of the objects its answer rests on), for evaluation code and named oracles, never the agent.
`read_episodes` returns the good questions with a named problem per malformed one; `load_episodes` refuses the
file at the first. `question_json` and `start_json_entry` write the records the generator produces.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tango.formats.fields import (
    DatasetError,
    FieldError,
    Loaded,
    Quat,
    Vec3,
    episode_label,
    parse_each,
    quat,
    read_json,
    require,
    text,
    vec3,
)
from tango.formats.records import Pose, start_json

CATEGORIES = (
    "object recognition",
    "attribute recognition",
    "object state recognition",
    "object localization",
    "spatial understanding",
    "functional reasoning",
    "world knowledge",
)
QUESTIONS_FILE = "open-eqa-v0.json"
"""The published question file's name."""
STARTS_FILE = "episode_starts.json"
FACTS_FILE = "question_facts.json"


@dataclass(frozen=True)
class EpisodeStart:
    """Where an episode history starts: the scene file and the agent's pose."""

    scene_id: str
    start_position: Vec3
    start_rotation: Quat


@dataclass(frozen=True)
class EQAQuestion:
    """One OpenEQA question with its reference answer(s) and, when known, the start pose."""

    question: str
    answer: str
    category: str
    question_id: str
    episode_history: str
    extra_answers: tuple[str, ...] | None = None
    start: EpisodeStart | None = None
    facts: dict[str, Any] | None = None
    evidence: tuple[int, ...] = ()
    source_file: str = field(default="", compare=False)

    @property
    def scene(self) -> str:
        """The scene name inside episode_history ("BFRyYbPCCPE" from "hm3d-v0/000-hm3d-BFRyYbPCCPE")."""
        return scene_from_history(self.episode_history)


def scene_from_history(episode_history: str) -> str:
    """The scene name of an episode history: its last path component after "{index}-{dataset}-"."""
    last = episode_history.rstrip("/").split("/")[-1]
    parts = last.split("-", 2)
    return parts[2] if len(parts) == 3 else last


def read_episodes(path: str | os.PathLike[str]) -> Loaded[EQAQuestion]:
    """The questions of an OpenEQA file, with start poses from `episode_starts.json` beside it when present,
    and a named problem per malformed question."""
    file = Path(path)
    data = read_json(file)
    if not isinstance(data, list):
        raise DatasetError(file, "top level must be a JSON list of questions")
    starts_file = file.parent / STARTS_FILE
    starts = _load_starts(starts_file) if starts_file.exists() else None
    facts = _load_facts(file.parent / FACTS_FILE)
    return parse_each(
        file,
        data,
        lambda raw, _: _question(raw, file, starts, facts),
        lambda raw, index: episode_label(raw, index, "question", "question_id"),
    )


def load_episodes(path: str | os.PathLike[str]) -> list[EQAQuestion]:
    """The questions of an OpenEQA file; a malformed question refuses the file (EpisodeError)."""
    return read_episodes(path).strict()


def _load_starts(file: Path) -> dict[str, EpisodeStart | FieldError]:
    """episode_history -> its start pose, or the problem with its entry (reported by the questions using it)."""
    data = read_json(file)
    if not isinstance(data, dict):
        raise DatasetError(file, "top level must be a JSON object keyed by episode_history")
    return {history: _start(raw, f"{file.name}[{history!r}]") for history, raw in data.items()}


def _load_facts(file: Path) -> dict[str, dict[str, Any]]:
    """question_id -> {facts, evidence}, or empty when there is no facts file."""
    if not file.exists():
        return {}
    data = read_json(file)
    valid = isinstance(data, dict) and all(
        isinstance(v, dict) and isinstance(v.get("facts"), dict) and isinstance(v.get("evidence", []), list)
        for v in data.values()
    )
    if not valid:
        raise DatasetError(file, "top level must map question_id to {facts: {...}, evidence: [object ids]}")
    return data


def _start(raw: Any, name: str) -> EpisodeStart | FieldError:
    try:
        return EpisodeStart(
            scene_id=text(require(raw, "scene_id", name), f"{name}.scene_id"),
            start_position=vec3(require(raw, "start_position", name), f"{name}.start_position"),
            start_rotation=quat(require(raw, "start_rotation", name), f"{name}.start_rotation"),
        )
    except FieldError as exc:
        return exc


def _question(
    raw: Any,
    file: Path,
    starts: dict[str, EpisodeStart | FieldError] | None,
    facts: dict[str, dict[str, Any]],
) -> EQAQuestion:
    history = text(require(raw, "episode_history"), "episode_history")
    extra = raw.get("extra_answers")
    if extra is not None and (not isinstance(extra, list) or not all(isinstance(a, str) for a in extra)):
        raise FieldError("extra_answers", f"must be a list of strings, got {extra!r}")
    start = None
    if starts is not None:
        if history not in starts:
            raise FieldError("episode_history", f"{history!r} has no start pose in {STARTS_FILE}")
        found = starts[history]
        if isinstance(found, FieldError):
            raise found
        start = found
    answer = require(raw, "answer")
    if not isinstance(answer, (str, int, float)) or isinstance(answer, bool):
        raise FieldError("answer", f"must be a string, got {answer!r}")
    question_id = str(require(raw, "question_id"))
    known = facts.get(question_id, {})
    return EQAQuestion(
        question=text(require(raw, "question"), "question"),
        answer=str(answer),
        category=text(require(raw, "category"), "category"),
        question_id=question_id,
        episode_history=history,
        extra_answers=tuple(extra) if extra is not None else None,
        start=start,
        facts=known.get("facts"),
        evidence=tuple(int(i) for i in known.get("evidence", [])),
        source_file=str(file),
    )


# --- writing ----------------------------------------------------------------------------------------------------


def question_json(
    question: str,
    answer: str,
    category: str,
    question_id: str,
    episode_history: str,
    extra_answers: Sequence[str] | None = None,
) -> dict[str, Any]:
    """One question record of `open-eqa-v0.json` (`extra_answers` only when there are some)."""
    record: dict[str, Any] = {
        "question": question,
        "answer": answer,
        "category": category,
        "question_id": question_id,
        "episode_history": episode_history,
    }
    if extra_answers:
        record["extra_answers"] = list(extra_answers)
    return record


def start_json_entry(scene_file: str, start: Pose) -> dict[str, Any]:
    """One `episode_starts.json` entry: the scene file and the start pose of an episode history."""
    return {"scene_id": scene_file, **start_json(start)}
