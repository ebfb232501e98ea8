"""OpenEQA results by question category, with 95% intervals: `python -m tango.tasks.openeqa_report RUN_DIR`.

For each category of a run's `episodes.jsonl`: the number of questions, the mean of each score the run has
(`normalised_match`, `llm_match`, `llm_match_local`, `judge_agreement`) and `content_right`, the share of
answers right by content under a plain check: after normalisation (lower case, no punctuation or articles)
an answer is right when its words and a reference's words contain one another (for yes/no and number
answers, when the first words are equal). Everyday names count as the thing they name on both sides
("the fridge" and "the refrigerator", "grey" and "gray": tango.perception.english), so the check does not
mark an answer wrong for naming a thing as the annotation does. Intervals are percentile bootstraps over
questions (seeded).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tango.perception.english import attribute_word, english_synonym
from tango.tasks.openeqa_scoring import normalise_answer

SCORES = ("content_right", "normalised_match", "llm_match", "llm_match_local", "judge_agreement")
RESAMPLES = 2000
SEED = 0
EXACT_FIRST_WORDS = frozenset({"yes", "no"})


def canonical_words(text: str) -> list[str]:
    """The normalised words of `text`, everyday names (one or two words) replaced by the annotation's name."""
    words = normalise_answer(text).split()
    out: list[str] = []
    index = 0
    while index < len(words):
        pair = english_synonym(words[index : index + 2]) if index + 1 < len(words) else ""
        if pair:
            out.extend(pair.split())
            index += 2
            continue
        single = english_synonym(words[index : index + 1])
        value = attribute_word(words[index])
        out.extend(single.split() if single else [value[1] if value else words[index]])
        index += 1
    return out


def right_by_content(prediction: str, references: Sequence[str]) -> bool:
    """Whether the answer says what a reference says (see the module docstring)."""
    said = canonical_words(prediction)
    if not said:
        return False
    for reference in references:
        meant = canonical_words(reference)
        if not meant:
            continue
        if meant[0] in EXACT_FIRST_WORDS or meant[0].isdigit():
            if said[0] == meant[0]:
                return True
        elif set(said) <= set(meant) or set(meant) <= set(said):
            return True
    return False


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% percentile-bootstrap interval of the mean."""
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(SEED)
    means = data[rng.integers(0, len(data), size=(RESAMPLES, len(data)))].mean(axis=1)
    return float(data.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def scores_of(record: dict[str, Any]) -> dict[str, float]:
    """One episode's scores (0-100), content_right included."""
    extra = record.get("extra") or {}
    references = [str(extra.get("reference", "")), *extra.get("extra_answers", [])]
    found = {"content_right": 100.0 * right_by_content(str(extra.get("prediction", "")), references)}
    found.update({k: float(v) for k, v in (record.get("metrics") or {}).items() if k in SCORES})
    return found


def breakdown(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """category (and "all") -> {n, score: [mean, low, high]}."""
    groups: dict[str, list[dict[str, float]]] = defaultdict(list)
    for record in records:
        scores = scores_of(record)
        groups[str((record.get("extra") or {}).get("category", "?"))].append(scores)
        groups["all"].append(scores)
    table: dict[str, dict[str, Any]] = {}
    for category, rows in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        entry: dict[str, Any] = {"n": len(rows)}
        for score in SCORES:
            values = [row[score] for row in rows if score in row]
            if values:
                entry[score] = [round(v, 1) for v in interval(values)]
        table[category] = entry
    return table


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument(
        "--questions", type=Path, help="the run's question file, for runs that did not record extra_answers"
    )
    args = parser.parse_args(argv)
    lines = (args.run_dir / "episodes.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    if args.questions is not None:
        extra = {q["question_id"]: q.get("extra_answers", []) for q in json.loads(args.questions.read_text())}
        for record in records:
            record.setdefault("extra", {}).setdefault("extra_answers", extra.get(record["episode_id"], []))
    table = breakdown(records)
    for category, entry in table.items():
        cells = [f"n={entry['n']}"] + [
            f"{s} {m:.1f} [{lo:.1f}, {hi:.1f}]" for s in SCORES if s in entry for m, lo, hi in [entry[s]]
        ]
        print(f"{category:28} " + "  ".join(cells))


if __name__ == "__main__":
    main()
