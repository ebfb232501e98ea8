"""A small random sampler of GBNF grammars (the subset tango.programs.grammar writes), for tests only.

Rules are `name ::= alternatives` over quoted literals, character classes, rule references, groups and the
postfixes `*`, `+`, `?`, `{m,n}`. Sampling is random but bounded: past `max_depth` nested rules it takes the
alternative and repetition count that end soonest. `overrides` replace a rule by a fixed set of texts (tests
use it to draw names from assigned variables: a context-free grammar cannot say a name was assigned).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

_TOKEN = re.compile(r'\s*(?:(?P<lit>"(?:\\.|[^"\\])*")|(?P<cls>\[(?:\\.|[^\]\\])*\])|(?P<rep>\{\d+,\d*\})'
                    r"|(?P<name>[a-zA-Z][\w-]*)|(?P<op>[()|*+?]))")  # fmt: skip
_ESCAPES = {"n": "\n", "\\": "\\", '"': '"', "'": "'", "]": "]", "t": "\t"}


@dataclass
class Node:
    kind: str  # lit, cls, ref, seq, alt
    value: object
    low: int = 1
    high: int | None = 1


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[1]), text)


def parse_gbnf(text: str) -> dict[str, Node]:
    rules: dict[str, Node] = {}
    for line in text.splitlines():
        if "::=" not in line:
            continue
        name, body = line.split("::=", 1)
        tokens = [(m.lastgroup, m[m.lastgroup]) for m in _TOKEN.finditer(body)]
        node, rest = _alternatives(tokens)
        if rest:
            raise ValueError(f"rule {name.strip()}: unparsed {rest[:3]}")
        rules[name.strip()] = node
    return rules


def _alternatives(tokens: list[tuple[str, str]]) -> tuple[Node, list[tuple[str, str]]]:
    options = []
    while True:
        sequence, tokens = _sequence(tokens)
        options.append(sequence)
        if tokens and tokens[0] == ("op", "|"):
            tokens = tokens[1:]
            continue
        return Node("alt", options), tokens


def _sequence(tokens: list[tuple[str, str]]) -> tuple[Node, list[tuple[str, str]]]:
    items: list[Node] = []
    while tokens and tokens[0] not in (("op", "|"), ("op", ")")):
        kind, value = tokens[0]
        tokens = tokens[1:]
        if kind == "lit":
            item = Node("lit", _unescape(value[1:-1]))
        elif kind == "cls":
            item = Node("cls", value)
        elif kind == "name":
            item = Node("ref", value)
        elif value == "(":
            item, tokens = _alternatives(tokens)
            tokens = tokens[1:]
        else:
            raise ValueError(f"unexpected {value!r}")
        if (
            tokens
            and tokens[0][0] in ("op", "rep")
            and tokens[0][1] in "*+?"
            or tokens
            and tokens[0][0] == "rep"
        ):
            mark = tokens[0][1]
            tokens = tokens[1:]
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}.get(mark, (None, None))
            if low is None:
                first, last = mark[1:-1].split(",")
                low, high = int(first), int(last) if last else None
            item = Node("alt", [Node("seq", [item])], low, high)
        items.append(item)
    return Node("seq", items), tokens


def _class_char(spec: str, rng: random.Random) -> str:
    body = spec[1:-1]
    negated = body.startswith("^")
    body = body[1:] if negated else body
    chars, index = [], 0
    while index < len(body):
        char = body[index]
        if char == "\\":
            char, index = _ESCAPES.get(body[index + 1], body[index + 1]), index + 1
        if index + 2 < len(body) and body[index + 1] == "-":
            chars.extend(chr(c) for c in range(ord(char), ord(body[index + 2]) + 1))
            index += 3
            continue
        chars.append(char)
        index += 1
    if negated:
        return rng.choice([c for c in "abcxyz XYZ019" if c not in chars])
    return rng.choice(chars)


class Sampler:
    def __init__(self, text: str, overrides: dict[str, list[str]], seed: int, max_depth: int = 12) -> None:
        self.rules = parse_gbnf(text)
        self.overrides = overrides
        self.rng = random.Random(seed)
        self.max_depth = max_depth
        self.heights = {name: 10**6 for name in self.rules}
        for _ in range(len(self.rules) + 1):
            for name, node in self.rules.items():
                self.heights[name] = min(self.heights[name], self._height(node))

    def _height(self, node: Node) -> int:
        """How many rule expansions the shortest derivation of `node` needs (the finite one past max_depth)."""
        if node.kind in ("lit", "cls"):
            return 0
        if node.kind == "ref":
            name = str(node.value)
            return 0 if name in self.overrides else self.heights[name] + 1
        if node.kind == "seq":
            return max((self._height(item) for item in node.value), default=0)  # type: ignore[union-attr]
        if node.low == 0:
            return 0
        return min(self._height(option) for option in node.value)  # type: ignore[union-attr]

    def sample(self, rule: str = "root") -> str:
        return self._expand(self.rules[rule], 0)

    def _expand(self, node: Node, depth: int) -> str:
        deep = depth > self.max_depth
        if node.kind == "lit":
            return str(node.value)
        if node.kind == "cls":
            return _class_char(str(node.value), self.rng)
        if node.kind == "ref":
            name = str(node.value)
            if name in self.overrides:
                return self.rng.choice(self.overrides[name])
            return self._expand(self.rules[name], depth + 1)
        if node.kind == "seq":
            return "".join(self._expand(item, depth) for item in node.value)  # type: ignore[union-attr]
        options: list[Node] = node.value  # type: ignore[assignment]
        high = node.high if node.high is not None else node.low + 3
        count = node.low if deep else self.rng.randint(node.low, min(high, node.low + 3))
        choose = min(options, key=self._height) if deep else None
        return "".join(self._expand(choose or self.rng.choice(options), depth + 1) for _ in range(count))
