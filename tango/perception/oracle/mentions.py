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


def _names_at(tokens: list[str], start: int, name: str, derived: bool) -> bool:
    parts = name.split()
    if start + len(parts) > len(tokens):
        return False
    head, last = tokens[start : start + len(parts) - 1], tokens[start + len(parts) - 1]
    if head != parts[:-1]:
        return False
    if derived:
        return last.startswith(parts[-1]) and len(last) - len(parts[-1]) <= MAX_SUFFIX_LETTERS
    return any(last == parts[-1] + ending for ending in PLURAL_ENDINGS)


def find_mentions(
    text: str, vocabulary: dict[str, set[str]], derived: frozenset[str] = frozenset()
) -> list[Mention]:
    """Non-overlapping mentions of `vocabulary` (kind -> names) in `text`, in reading order; at each word the
    longest name wins ("coffee table" over "table"). Kinds in `derived` also match derived word forms."""
    tokens = words(text)
    candidates = [
        (len(name.split()), kind, name)
        for kind, names in vocabulary.items()
        for name in names
        if name.strip()
    ]
    candidates.sort(key=lambda c: -c[0])
    found: list[Mention] = []
    index = 0
    while index < len(tokens):
        hit = next(
            (c for c in candidates if _names_at(tokens, index, c[2], c[1] in derived)),
            None,
        )
        if hit is None:
            index += 1
            continue
        found.append(Mention(hit[1], hit[2], index, index + hit[0]))
        index += hit[0]
    return found


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
