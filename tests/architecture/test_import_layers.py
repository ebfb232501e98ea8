"""The layers of docs/architecture.md hold: each module imports only from its own layer or below, no file-level
import circle, and the named rules of the restructuring (maps, perception and controllers know no agent; the
harness knows no benchmark; the data generator and the task loaders never import each other)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.architecture.import_graph import circles, import_graph

ROOT = Path(__file__).resolve().parents[2]
MAX_MODULE_LINES = 450

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("types", ("tango.types",)),
    (
        "basics",
        (
            "tango",
            "tango.errors",
            "tango.cache",
            "tango.config_utils",
            "tango.plugins",
            "tango.threads",
            "tango.devices",
            "tango.lifetime",
            "tango.startup_freeze",
            "tango.stats",
            "tango.llm",
            "tango.habitat_compat",
            "tango.trace",
        ),
    ),
    ("formats", ("tango.formats",)),
    ("world and maps", ("tango.sim", "tango.mapping")),
    ("perception and control", ("tango.perception", "tango.navigation")),
    ("agent", ("tango.agent",)),
    ("programs", ("tango.primitives", "tango.programs")),
    ("harness", ("tango.harness",)),
    ("benchmarks and data", ("tango.tasks", "tango.benchmarks", "tango.urban", "tango.scenes")),
    (
        "entry points",
        (
            "tango.eval",
            "tango.config_schema",
            "tango.preflight",
            "tango.compare",
            "tango.merge",
            "tango.inspect",
            "tango.analysis",
            "tango.navigation.train",
        ),
    ),
)
"""Bottom to top. A module belongs to the layer of its longest matching prefix (navigation/train, the training
application, sits with the entry points while the rest of navigation is a controller layer)."""

UPWARD_ALLOWED: frozenset[tuple[str, str]] = frozenset()
"""Imports allowed to run up a layer (importer, imported); the restructuring left none."""

NEVER: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("tango.types", "tango", ()),
    ("tango.mapping", "tango.agent", ()),
    ("tango.perception", "tango.agent", ()),
    ("tango.navigation", "tango.agent", ("tango.navigation.train",)),
    ("tango.harness", "tango.tasks", ()),
    ("tango.harness", "tango.benchmarks", ()),
    ("tango.harness", "tango.urban", ()),
    ("tango.scenes", "tango.tasks", ()),
    ("tango.tasks", "tango.scenes", ()),
    ("tango.sim", "tango.agent", ()),
    ("tango.programs", "tango.sim", ()),
)
"""(importer prefix, imported prefix, importer prefixes exempt): imports the architecture forbids outright."""


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def layer_of(module: str) -> int:
    """The index of the module's layer (longest matching prefix wins)."""
    best, best_length = -1, -1
    for number, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            exact_root = prefix == "tango" and module != "tango"
            if _under(module, prefix) and not exact_root and len(prefix) > best_length:
                best, best_length = number, len(prefix)
    if best < 0:
        raise AssertionError(
            f"{module} belongs to no layer: add its package to LAYERS and docs/architecture.md"
        )
    return best


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(ROOT)


def test_every_module_has_a_layer(graph: dict[str, set[str]]) -> None:
    for module in graph:
        layer_of(module)


def test_imports_run_downward_only(graph: dict[str, set[str]]) -> None:
    upward = sorted(
        (module, target, LAYERS[layer_of(module)][0], LAYERS[layer_of(target)][0])
        for module, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(module) and (module, target) not in UPWARD_ALLOWED
    )
    assert upward == []


def test_forbidden_imports_are_absent(graph: dict[str, set[str]]) -> None:
    found = sorted(
        (module, target)
        for importer, imported, exempt in NEVER
        for module, targets in graph.items()
        if _under(module, importer) and not any(_under(module, prefix) for prefix in exempt)
        for target in targets
        if _under(target, imported)
    )
    assert found == []


def test_no_import_circle_between_files(graph: dict[str, set[str]]) -> None:
    assert circles(graph) == []


def test_no_module_past_the_size_limit(graph: dict[str, set[str]]) -> None:
    sizes = {
        path: len(path.read_text(encoding="utf-8").splitlines()) for path in (ROOT / "tango").rglob("*.py")
    }
    assert (
        sorted(str(path.relative_to(ROOT)) for path, lines in sizes.items() if lines > MAX_MODULE_LINES) == []
    )


def test_circle_finder_finds_a_circle_and_nothing_else() -> None:
    toy = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(toy) == [["a", "b", "c"]]


def test_layer_of_takes_the_longest_prefix() -> None:
    assert LAYERS[layer_of("tango.navigation.train.env")][0] == "entry points"
    assert LAYERS[layer_of("tango.navigation.navigator")][0] == "perception and control"
    assert LAYERS[layer_of("tango")][0] == "basics"
