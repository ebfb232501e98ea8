"""The ORACLE answerer and description matcher share no wording with the dataset generator: they import
nothing from it and contain none of its sentence templates, need phrases or answer phrasings, so that they
cannot pass by recognising its sentences; and the generator's held-out pool shares no five-word phrase with
its training pool."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tango.perception.oracle as oracle_package
import tango.scenes.datasets as datasets_package
from tango.scenes.datasets import questions, wording

MIN_RUN_WORDS = 4
"""Shared runs of this many literal words count as shared phrasing ("in the" or "what is the" do not)."""
MIN_POOL_RUN_WORDS = 5
"""Between the two pools, five: two held-out world-knowledge questions open like training ones ("What here
could I ...", "What in this home ...") and go on differently; rewording them would change the default
dataset."""
ORACLE_DIR = Path(oracle_package.__file__).parent
DATASETS_DIR = Path(datasets_package.__file__).parent


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def literal_runs(template: str) -> list[list[str]]:
    """The word runs of a template between its slots ("{...}")."""
    return [words(part) for part in re.split(r"\{[^}]*\}", template)]


def runs_of(tokens: list[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}


def string_constants(path: Path) -> list[str]:
    """Every string literal of a module, f-string parts included, docstrings excluded."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def generator_phrases() -> set[tuple[str, ...]]:
    """Every MIN_RUN_WORDS-word run of literal text in the generator's wording and question modules (templates
    and answer phrasings), plus every need phrase and world-knowledge question whole."""
    phrases: set[tuple[str, ...]] = set()
    for module in ("wording.py", "questions.py", "descriptions.py"):
        for constant in string_constants(DATASETS_DIR / module):
            for run in literal_runs(constant):
                phrases |= runs_of(run, MIN_RUN_WORDS)
    phrases |= {tuple(words(use)) for use in questions.USES.values()}
    phrases |= {tuple(words(t)) for pools in wording.KNOWLEDGE.values() for ts in pools.values() for t in ts}
    return phrases


def oracle_modules() -> list[Path]:
    return sorted(ORACLE_DIR.glob("*.py"))


def test_phrase_extraction_finds_the_generators_templates() -> None:
    phrases = generator_phrases()
    assert ("what", "material", "is") not in phrases  # three words: too common to count
    assert ("which", "material", "was", "used") in phrases
    assert tuple(words(questions.USES["sink"])) in phrases
    assert ("nothing", "is", "on", "it") in phrases  # an answer phrasing of questions.py


def test_oracle_modules_import_nothing_from_the_dataset_generator() -> None:
    for path in oracle_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            )  # fmt: skip
            assert not any(name.startswith("tango.scenes") for name in names), (path.name, names)


def test_oracle_modules_contain_no_phrase_of_the_generator() -> None:
    phrases = generator_phrases()
    for path in oracle_modules():
        tokens = words(path.read_text())  # code, strings and docstrings alike
        present = {run for run in phrases if len(run) >= 2 and run in runs_of(tokens, len(run))}
        assert not present, f"{path.name} repeats the generator's wording: {sorted(present)}"


def test_held_out_pool_shares_no_phrase_with_the_training_pool() -> None:
    def pool_runs(pool: str) -> set[tuple[str, ...]]:
        templates = [*wording.TARGETS[pool], *wording.DESCRIPTIONS[pool], *wording.NEAR[pool]]
        for pools in (*wording.QUESTIONS.values(), *wording.KNOWLEDGE.values()):
            templates.extend(pools[pool])
        return {r for t in templates for run in literal_runs(t) for r in runs_of(run, MIN_POOL_RUN_WORDS)}

    assert pool_runs("train") and pool_runs("heldout")
    assert not pool_runs("train") & pool_runs("heldout")
