"""The paraphrase pools: every question kind and description has both pools, and they share no sentence."""

from __future__ import annotations

import re

from tango.scenes.datasets import wording


def _templates(pool: str) -> set[str]:
    found = set(wording.TARGETS[pool]) | set(wording.DESCRIPTIONS[pool]) | set(wording.NEAR[pool])
    for pools in (*wording.QUESTIONS.values(), *wording.KNOWLEDGE.values()):
        found |= set(pools[pool])
    return found


def test_every_kind_has_a_training_and_a_larger_held_out_pool() -> None:
    for key, pools in {**wording.QUESTIONS, **wording.KNOWLEDGE}.items():
        assert set(pools) == set(wording.POOLS), key
        assert len(pools["heldout"]) >= 2 and len(pools["train"]) >= 1, key


def test_pools_are_disjoint_even_after_ignoring_case_and_punctuation() -> None:
    def squash(text: str) -> str:
        return re.sub(r"[^a-z{} ]", "", text.lower()).strip()

    train = {squash(t) for t in _templates("train")}
    heldout = {squash(t) for t in _templates("heldout")}
    assert not train & heldout


def test_held_out_templates_use_the_same_slots_as_training_ones() -> None:
    for key, pools in wording.QUESTIONS.items():
        slots = {frozenset(re.findall(r"{(\w+)}", t)) for t in pools["train"] + pools["heldout"]}
        assert len(slots) == 1, key
