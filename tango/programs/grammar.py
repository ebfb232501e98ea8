"""A GBNF grammar of the program language, generated from a toolbox's primitive registry.

A local model decoded under it (llama.cpp grammar sampling) can only write text of the language's subset:
statements the parser accepts (assignment to a plain name, if/elif/else, while, for over an expression, break,
continue, return, pass), nested up to `max_depth` blocks of four spaces, TANGO's `# ...` comments, and calls of
the toolbox's primitives offered to the task (`@primitive(tasks=...)`) and the builtins with an argument count
their signatures allow. Names that are not called are any identifier without a leading underscore; that a name
is assigned before it is read is left to the parser (no context-free grammar can say it), so extraction and
repair stay behind the grammar.
`max_lines` bounds the statements of the top-level block, so a model that would repeat a block forever stops.
"""

from __future__ import annotations

from dataclasses import dataclass

from tango.primitives import Toolbox, get_toolbox
from tango.programs.builtins import BUILTINS

INDENT = "    "
ROOT = "root"
MAX_ELIF = 4  # a small model otherwise repeats `elif explore_scene(): ...` until the token limit
# The expression part: precedence as in Python, optional single spaces around operators.
_EXPRESSIONS = r"""
expr ::= conj (" or " conj)*
conj ::= neg (" and " neg)*
neg ::= "not " neg | cmp
cmp ::= sum (cmpop sum)?
cmpop ::= " "? ("==" | "!=" | "<=" | ">=" | "<" | ">") " "? | " in " | " not in " | " is " | " is not "
sum ::= term (" "? ("+" | "-") " "? term)*
term ::= unary (" "? ("*" | "/" | "//" | "%") " "? unary)*
unary ::= "-" unary | post
post ::= atom ("[" expr "]")*
atom ::= call | name | number | string | "True" | "False" | "None" | "[" items? "]" | "(" expr ")"
items ::= expr (", " expr)*
name ::= [a-zA-Z] [a-zA-Z0-9_]*
target ::= [a-df-zA-Z] word | "e" target-e
target-e ::= "" | [a-km-zA-Z0-9_] word | "l" target-el
target-el ::= "" | [a-hj-rt-zA-Z0-9_] word | "s" target-els | "i" target-eli
target-els ::= "" | [a-df-zA-Z0-9_] word | "e" [a-zA-Z0-9_] word
target-eli ::= "" | [a-eg-zA-Z0-9_] word | "f" [a-zA-Z0-9_] word
word ::= [a-zA-Z0-9_]*
number ::= [0-9]+ ("." [0-9]+)?
string ::= "'" [^'\\\n\u2018\u2019\u201c\u201d]* "'" | "\"" [^"\\\n\u2018\u2019\u201c\u201d]* "\""
comment ::= "#" [^\n]*
tail ::= (" " " "? comment)? "\n"
# A name assigned to is any but `else` and `elif`: found in a run, a misplaced `else` became `else = explore_scene()`.
# Curly quotes are left out of strings: the parser reads them as straight ones, so 'kitchen’s' would end early.
"""


@dataclass(frozen=True)
class GrammarConfig:
    """How deep blocks may nest and how many statements the top-level block may have."""

    max_depth: int = 4
    max_lines: int = 120


def _arguments(low: int, high: int | None) -> str:
    """GBNF for `low` to `high` comma-separated expressions (high None: any number; 0: none)."""
    if high is None:
        return 'expr (", " expr)*' if low >= 1 else '(expr (", " expr)*)?'
    if high == 0:
        return '""'
    tail = ""
    for _ in range(high - max(low, 1)):
        tail = f'(", " expr{" " + tail if tail else ""})?'
    body = " ".join(["expr"] + ['", " expr'] * (max(low, 1) - 1) + ([tail] if tail else []))
    return f"({body})?" if low == 0 else body


def _rule_name(name: str) -> str:
    return "p-" + name.replace("_", "-")


def _calls(box: Toolbox, task: str | None) -> list[str]:
    """One rule per primitive offered to `task` and per builtin, then `call` choosing among them."""
    rules, names = [], []
    builtins = {f"b-{n}": (n, b.min_args, b.max_args) for n, b in BUILTINS.items() if b.offered}
    primitives = {
        s.name: (s.name, s.min_args, s.max_args) for s in box.primitives.values() if s.offered(task)
    }
    for key, (name, low, high) in sorted({**primitives, **builtins}.items()):
        rule = _rule_name(key)
        names.append(rule)
        rules.append(f'{rule} ::= "{name}(" {_arguments(low, high)} ")"')
    return [*rules, "call ::= " + " | ".join(names)]


def _statements(depth: int) -> list[str]:
    """`stmt-L-K`: a statement at nesting level L, K = 1 inside a loop (break/continue allowed), else 0."""
    rules = []
    for level in range(depth + 1):
        indent = f'"{INDENT * level}"' if level else '""'
        for loop in (0, 1):
            if level == 0 and loop:
                continue
            # An expression statement is a call: a bare name would let `else` or `elif` without a colon through
            # (the grammar cannot tell keywords from names), and a bare value does nothing anyway.
            simple = (
                'target " = " expr | target " " ("+=" | "-=") " " expr | call | "return" (" " expr)? | "pass"'
            )
            if loop:
                simple += ' | "break" | "continue"'
            parts = [f"({simple}) tail"]
            if level < depth:
                inner, looped = f"block-{level + 1}-{loop}", f"block-{level + 1}-1"
                parts += [
                    (
                        f'"if " expr ":" tail {inner} ({indent} "elif " expr ":" tail {inner}){{0,{MAX_ELIF}}} '
                        f'({indent} "else:" tail {inner})?'
                    ),
                    f'"while " expr ":" tail {looped}',
                    f'"for " target " in " expr ":" tail {looped}',
                ]
            rules.append(f"stmt-{level}-{loop} ::= " + " | ".join(parts))
            rules.append(f'line-{level}-{loop} ::= stmt-{level}-{loop} | comment "\\n"')
            if level:
                # Python wants a statement in every block: comment lines may come before it, not instead.
                rules.append(
                    f'block-{level}-{loop} ::= ({indent} comment "\\n")* {indent} stmt-{level}-{loop} '
                    f"({indent} line-{level}-{loop})*"
                )
    return rules


def program_grammar(
    toolbox: str | Toolbox, config: GrammarConfig | None = None, task: str | None = None
) -> str:
    """The GBNF text of the language over `toolbox` as `task`'s prompt offers it (root rule `root`)."""
    box = toolbox if isinstance(toolbox, Toolbox) else get_toolbox(toolbox)
    config = config or GrammarConfig()
    rules = [
        f'{ROOT} ::= (comment "\\n")* stmt-0-0 ("\\n"? line-0-0){{0,{config.max_lines - 1}}}',
        *_statements(config.max_depth),
        *_calls(box, task),
    ]
    return "\n".join(rules) + "\n" + _EXPRESSIONS.strip() + "\n"
