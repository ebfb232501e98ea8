"""ORACLE grounding: which observed categories, room types and attribute values a free text names.

The vocabulary is what the agent observed (annotation names of observed objects), never a word list: a text
is scanned for whole-word occurrences of those names, in the singular or plural, and of attribute values in a
derived form too ("wood" in "wooden", "metal" in "metallic").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_SUFFIX_LETTERS = 3
"""How many letters an attribute word may add to an annotated value ("wood" -> "wooden") and still name it."""
PLURAL_ENDINGS = ("", "s", "es")


@dataclass(frozen=True)
class Mention:
    """A name found in a text: what it names (`name`; for attribute values `kind` is the attribute) and where,
    as a half-open range of word indices."""

    kind: str
    name: str
    start: int
    end: int


def words(text: str) -> list[str]:
    """The lower-case words and numbers of `text` ("the kitchen's sink" -> [the, kitchen, s, sink])."""
    return re.findall(r"[a-z0-9]+", text.lower())


def _names_at(tokens: list[str], start: int, parts: tuple[str, ...], derived: bool) -> bool:
    """Whether the name of words `parts` starts at tokens[start] (its last word in a plural or, when `derived`,
    a derived form)."""
    if start + len(parts) > len(tokens):
        return False
    last = tokens[start + len(parts) - 1]
    if len(parts) > 1 and tokens[start : start + len(parts) - 1] != list(parts[:-1]):
        return False
    if derived:
        return last.startswith(parts[-1]) and len(last) - len(parts[-1]) <= MAX_SUFFIX_LETTERS
    return last == parts[-1] or last == parts[-1] + "s" or last == parts[-1] + "es"


MENTIONS_KEPT = 512
"""Scans remembered by `find_mentions` (the agent asks about the same description every step while what it
has observed, the vocabulary, changes only now and then)."""
_scans: dict[tuple[str, tuple[tuple[int, str, str, bool], ...]], tuple[Mention, ...]] = {}


def find_mentions(
    text: str, vocabulary: dict[str, set[str]], derived: frozenset[str] = frozenset()
) -> list[Mention]:
    """Non-overlapping mentions of `vocabulary` (kind -> names) in `text`, in reading order; at each word the
    longest name wins ("coffee table" over "table"). Kinds in `derived` also match derived word forms.

    Names of equal length are tried in the vocabulary's order; a scan is remembered per text and that ordered
    list of names, so a repeated question is answered without scanning again."""
    candidates = [
        (len(name.split()), kind, name, kind in derived)
        for kind, names in vocabulary.items()
        for name in names
        if name.strip()
    ]
    candidates.sort(key=lambda c: -c[0])
    key = (text, tuple(candidates))
    found = _scans.get(key)
    if found is None:
        found = _scan(words(text), candidates)
        if len(_scans) >= MENTIONS_KEPT:
            _scans.clear()
        _scans[key] = found
    return list(found)


def _scan(tokens: list[str], candidates: list[tuple[int, str, str, bool]]) -> tuple[Mention, ...]:
    """`find_mentions` over the text's words with the candidates (length, kind, name, derived) in order."""
    named = [(tuple(name.split()), kind, name, derived) for _, kind, name, derived in candidates]
    found: list[Mention] = []
    index = 0
    while index < len(tokens):
        hit = next((c for c in named if _names_at(tokens, index, c[0], c[3])), None)
        if hit is None:
            index += 1
            continue
        found.append(Mention(hit[1], hit[2], index, index + len(hit[0])))
        index += len(hit[0])
    return tuple(found)


def masked(text: str, mentions: list[Mention], placeholders: dict[str, str]) -> str:
    """`text` as words with each mention of a kind in `placeholders` replaced by that kind's placeholder word,
    so what a question asks can be compared apart from what it is about."""
    tokens = words(text)
    out: list[str] = []
    index = 0
    for mention in mentions:
        out.extend(tokens[index : mention.start])
        out.append(placeholders.get(mention.kind, " ".join(tokens[mention.start : mention.end])))
        index = mention.end
    out.extend(tokens[index:])
    return " ".join(out)
