"""`find_mentions` remembers scans per text and ordered vocabulary: a repeat gives the same mentions unscanned,
and any change of the vocabulary scans again."""

from __future__ import annotations

import pytest

from tango.perception.oracle import mentions
from tango.perception.oracle.mentions import find_mentions


def test_a_repeated_scan_is_remembered_and_a_new_vocabulary_scans_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(mentions, "_scans", {})
    scans: list[list[str]] = []
    scan = mentions._scan

    def counting_scan(tokens: list[str], candidates: list[tuple[int, str, str, bool]]) -> tuple:
        scans.append(tokens)
        return scan(tokens, candidates)

    monkeypatch.setattr(mentions, "_scan", counting_scan)
    text = "the wooden coffee table next to the red sofa in the living room"
    vocabulary = {"category": {"coffee table", "table", "sofa"}, "material": {"wood"}}
    first = find_mentions(text, vocabulary, derived=frozenset({"material"}))
    again = find_mentions(text, vocabulary, derived=frozenset({"material"}))
    assert again == first and again is not first and len(scans) == 1
    assert [(m.kind, m.name) for m in first] == [("material", "wood"), ("category", "coffee table"),
                                                 ("category", "sofa")]  # fmt: skip
    vocabulary["room"] = {"living room"}
    grown = find_mentions(text, vocabulary, derived=frozenset({"material"}))
    assert len(scans) == 2 and [m.name for m in grown][-1] == "living room"
    underived = find_mentions(text, vocabulary)  # wood no longer matches "wooden"
    assert len(scans) == 3 and "wood" not in [m.name for m in underived]
