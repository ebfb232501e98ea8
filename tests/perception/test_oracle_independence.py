"""The evaluation components that read observations (the ORACLE answerer and description matcher, the
scene graph and its model answerer) share nothing with the dataset generator (tango/scenes/datasets): no module
of it is reachable from them, and they repeat none of its relation constants, answer and sentence templates,
or function bodies. Compared as code (AST), not only as wording; `shared_with_generator` is also run on the
oracle modules as they were before the scene graph (kept below as snippets) to show that it finds what they
shared."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import tango.perception as perception_package
import tango.perception.oracle as oracle_package
import tango.scenes.datasets as datasets_package
from tango.perception.config import DEFAULT_ROOMS, OBJECT_VOCABULARY
from tango.scenes.datasets import questions, wording

ORACLE_DIR = Path(oracle_package.__file__).parent
PERCEPTION_DIR = Path(perception_package.__file__).parent
DATASETS_DIR = Path(datasets_package.__file__).parent
CHECKED = [
    *(
        ORACLE_DIR / f"{name}.py"
        for name in ("answerer", "intents", "mentions", "observed", "observed_facts")
    ),
    *sorted(ORACLE_DIR.glob("description*.py")),
    PERCEPTION_DIR / "scene_graph.py",
    PERCEPTION_DIR / "scene_graph_answerer.py",
    PERCEPTION_DIR / "detected_objects.py",
    PERCEPTION_DIR / "scene_graph_detections.py",
    PERCEPTION_DIR / "english.py",
    PERCEPTION_DIR / "simulated" / "attributes.py",
]
MIN_BODY_NODES = 12
"""Function bodies smaller than this many AST nodes (a bare `return x(y)`) are too plain to compare."""
COMMON_NUMBERS = frozenset({0, 1, 2, 3, -1, 0.5, 100})
"""Numbers too common to count as a shared constant (zero, one, halves, percent)."""
MIN_RUN_WORDS = 4
"""Shared runs of this many literal words count as shared phrasing ("in the" or "what is the" do not)."""
MIN_POOL_RUN_WORDS = 5

BEFORE = {
    "observed_facts.py": """
NEAR_M = 1.5
ON_TOP_TOLERANCE_M = 0.06
def footprint_gap(a, b):
    dx = max(a.bbox_min[0] - b.bbox_max[0], b.bbox_min[0] - a.bbox_max[0], 0.0)
    dz = max(a.bbox_min[2] - b.bbox_max[2], b.bbox_min[2] - a.bbox_max[2], 0.0)
    return float(np.hypot(dx, dz))
""",
    "answerer.py": """
def place(obj):
    return f"the {category_of(obj)}" + (f" in the {room_of(obj)}" if obj.room else "")
def _locate(self, facts, query):
    rooms = [room_of(o) for o in self._subjects(facts, query) if o.room]
    return f"in the {most_common(rooms)}" if rooms else UNSEEN
""",
}
"""Excerpts of the oracle modules before this change (git history has them whole)."""


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def docstring_ids(tree: ast.AST) -> set[int]:
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


UNITS = {"_m": "m", "_s": "s", "_deg": "deg", "_px": "px"}
"""Name endings that state a number's unit; a named number without one is a plain quantity (a count, a ratio,
a slope), and a literal bound to no name could be anything."""
ANY_UNIT = "?"


def unit_of(name: str) -> str:
    """The unit a constant's or field's name states ("NEAR_RADIUS_M" -> "m"), "" for none."""
    return next((unit for ending, unit in UNITS.items() if name.lower().endswith(ending)), "")


def numbers(tree: ast.AST) -> set[tuple[float, str]]:
    """Numeric literals (a negated literal as its negative) with the unit the name they are bound to states (a
    constant, a dataclass field, a keyword argument; ANY_UNIT when bound to no name), common ones left out."""
    units: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], (ast.Name, ast.Attribute)):
                units[id(node.value)] = unit_of(getattr(targets[0], "id", getattr(targets[0], "attr", "")))
        elif isinstance(node, ast.keyword) and node.arg:
            units[id(node.value)] = unit_of(node.arg)
    literals: list[tuple[ast.AST, object]] = []
    negated: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.UnaryOp)
            and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)
        ):
            negated.add(id(node.operand))
            value = node.operand.value
            literals.append((node, -value if isinstance(value, (int, float)) else value))
        elif isinstance(node, ast.Constant):
            literals.append((node, node.value))
    found: set[tuple[float, str]] = set()
    for node, value in literals:
        numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
        if id(node) not in negated and numeric and value not in COMMON_NUMBERS:
            found.add((float(value), units.get(id(node), ANY_UNIT)))  # type: ignore[arg-type]
    return found


def shared_numbers(mine: set[tuple[float, str]], theirs: set[tuple[float, str]]) -> list[float]:
    """Values both use as the same kind of quantity: equal values whose units are equal, or either unknown."""
    return sorted(
        {
            a
            for a, unit in mine
            for b, other in theirs
            if a == b and (unit == other or ANY_UNIT in (unit, other))
        }
    )


def templates(tree: ast.AST) -> set[str]:
    """String literals and f-string templates of several words (slots as "{}"), lower case, docstrings out:
    single words are shared field names of the file formats ("color", "room")."""
    skip = docstring_ids(tree)
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip | inner:
            text = re.sub(r"\{[^}]*\}", "{}", node.value)  # a str.format template's named slots
        else:
            continue
        normal = " ".join(re.findall(r"[a-z0-9]+|\{\}", text.lower()))
        if len(words(text)) >= 2:
            found.add(normal)
    return found


class _Anonymous(ast.NodeTransformer):
    """Names and attributes replaced by one placeholder: two functions that compute the same way compare equal."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.copy_location(ast.Name("_", node.ctx), node)

    def visit_arg(self, node: ast.arg) -> ast.AST:
        return ast.copy_location(ast.arg("_"), node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(ast.Attribute(node.value, "_", node.ctx), node)


def bodies(tree: ast.AST) -> set[str]:
    """Each function's body (docstring out), names anonymised, as an AST dump."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            body = [s for s in node.body if id(getattr(s, "value", None)) not in docstring_ids(node)]
            module = _Anonymous().visit(ast.Module(body=body, type_ignores=[]))
            if sum(1 for _ in ast.walk(module)) >= MIN_BODY_NODES:
                found.add(ast.dump(module))
    return found


THING_NAMES = frozenset(OBJECT_VOCABULARY) | frozenset(DEFAULT_ROOMS)
"""Names of household things and room types of several words ("trash can", "living room"), perception's own
vocabulary (tango.perception.config): the language annotations and questions share, like single-word field
names, not a phrasing of the generator."""

WRITERS = ("descriptions.py", "facts.py", "goat.py", "openeqa.py", "questions.py", "wording.py")
"""The generator modules that decide what a question or description states and what its answer is (the
others place start poses and view points, whose numbers say nothing about an answer)."""


def generator_trees() -> dict[str, ast.AST]:
    return {name: ast.parse((DATASETS_DIR / name).read_text()) for name in WRITERS}


def shared_with_generator(source: str) -> list[str]:
    """What a module's code shares with any generator module: numbers, multi-word templates, function bodies."""
    tree, shared = ast.parse(source), []
    for name, other in generator_trees().items():
        shared += [f"number {n} ({name})" for n in shared_numbers(numbers(tree), numbers(other))]
        shared += [
            f"template {t!r} ({name})" for t in sorted(templates(tree) & templates(other) - THING_NAMES)
        ]
        shared += [f"a function body of {name}" for _ in bodies(tree) & bodies(other)]
    return shared


def test_the_comparison_finds_what_the_oracle_shared_before() -> None:
    assert shared_with_generator(BEFORE["observed_facts.py"]) == [
        "number 1.5 (facts.py)",
        "a function body of facts.py",
        "number 0.06 (questions.py)",
    ]
    assert shared_with_generator(BEFORE["answerer.py"]) == ["template 'in the {}' (questions.py)"]


def test_numbers_are_compared_as_the_same_kind_of_quantity() -> None:
    """A metre threshold of the generator's value is shared under any metre name or unnamed; the same value
    as a unitless slope or as seconds is not (a coincidence of digits, not a shared relation)."""
    assert shared_with_generator("REACH_M = 1.5\n") == ["number 1.5 (facts.py)"]
    assert shared_with_generator("def near(d):\n    return d < 1.5\n") == ["number 1.5 (facts.py)"]
    assert shared_with_generator("f(radius_m=1.5)\n") == ["number 1.5 (facts.py)"]
    assert shared_with_generator("size_slope = 1.5\nWAIT_S = 1.5\n") == []


def test_no_generator_module_is_reachable_from_the_answerers() -> None:
    modules = [
        "tango.perception.oracle.answerer", "tango.perception.oracle.description_goal",
        "tango.perception.scene_graph_answerer", "tango.perception.detected_objects",
        "tango.perception.scene_graph_detections", "tango.perception.simulated.attributes",
        "tango.tasks.openeqa_scoring",
    ]  # fmt: skip
    script = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + ("print(sorted(m for m in sys.modules if m.startswith('tango.scenes')))")
    )
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_answerer_modules_share_no_constant_template_or_code_with_the_generator() -> None:
    for path in CHECKED:
        assert not shared_with_generator(path.read_text()), (
            path.name,
            shared_with_generator(path.read_text()),
        )


def generator_phrases() -> set[tuple[str, ...]]:
    """Every MIN_RUN_WORDS-word run of literal text in the generator's wording modules, plus every need phrase
    and world-knowledge question whole."""
    phrases: set[tuple[str, ...]] = set()
    for tree in (generator_trees()[m] for m in ("wording.py", "questions.py", "descriptions.py")):
        for template in templates(tree):
            for part in template.split("{}"):
                tokens = words(part)
                phrases |= {
                    tuple(tokens[i : i + MIN_RUN_WORDS]) for i in range(len(tokens) - MIN_RUN_WORDS + 1)
                }
    phrases |= {tuple(words(use)) for use in questions.USES.values()}
    phrases |= {tuple(words(t)) for pools in wording.KNOWLEDGE.values() for ts in pools.values() for t in ts}
    return phrases


def test_answerer_modules_contain_no_phrase_of_the_generator() -> None:
    phrases = generator_phrases()
    assert ("which", "material", "was", "used") in phrases and tuple(words(questions.USES["sink"])) in phrases
    for path in CHECKED:
        tokens = words(path.read_text())
        present = {
            run for run in phrases
            if len(run) >= 2 and any(tuple(tokens[i : i + len(run)]) == run for i in range(len(tokens)))
        }  # fmt: skip
        assert not present, f"{path.name} repeats the generator's wording: {sorted(present)}"


def test_held_out_pool_shares_no_phrase_with_the_training_pool() -> None:
    def pool_runs(pool: str) -> set[tuple[str, ...]]:
        texts = [*wording.TARGETS[pool], *wording.DESCRIPTIONS[pool], *wording.NEAR[pool]]
        for pools in (*wording.QUESTIONS.values(), *wording.KNOWLEDGE.values()):
            texts.extend(pools[pool])
        runs = set()
        for text in texts:
            for part in re.split(r"\{[^}]*\}", text):
                tokens = words(part)
                size = MIN_POOL_RUN_WORDS
                runs |= {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}
        return runs

    assert pool_runs("train") and pool_runs("heldout")
    assert not pool_runs("train") & pool_runs("heldout")
