"""Loading toolboxes: the built-in ones by module, third-party primitives through the `tango.primitives`
entry-point group (an entry point names a module or object whose import registers primitives)."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator

from tango.plugins import PluginLoadError, load_entry_points
from tango.primitives.registry import REGISTRY, Registry, RegistryError, Toolbox

ENTRY_POINT_GROUP = "tango.primitives"
BUILTIN_TOOLBOX_MODULES: dict[str, tuple[str, ...]] = {
    # TANGO's other primitive names come after the Habitat ones, so the prompt keeps its order.
    "habitat": ("tango.primitives.habitat", "tango.primitives.tango_compat"),
    "graphnav": ("tango.benchmarks.graphnav.toolbox",),
    "urban": ("tango.urban.agents.toolbox",),
}
"""The modules whose import registers each built-in toolbox's primitives, imported in this order."""


def load_plugins(registry: Registry = REGISTRY) -> list[str]:
    """Import every not-yet-loaded entry point of the group; return the names loaded now."""
    try:
        loaded = load_entry_points(ENTRY_POINT_GROUP, registry.loaded_plugins, "primitive")
    except PluginLoadError as error:
        raise RegistryError(str(error)) from error
    registry.plugins_scanned = True
    return loaded


def import_builtin_toolboxes() -> None:
    """Import the modules of the built-in toolboxes (their import registers their primitives)."""
    for modules in BUILTIN_TOOLBOX_MODULES.values():
        _import_all(modules)


def _import_all(modules: tuple[str, ...]) -> None:
    for module in modules:
        importlib.import_module(module)


@contextlib.contextmanager
def isolated(registry: Registry = REGISTRY) -> Iterator[Registry]:
    """Undo every registration and plugin load made inside the block (built-ins are loaded first; entry
    points are scanned again on the next `get_toolbox` inside the block)."""
    import_builtin_toolboxes()
    state = registry.snapshot()
    registry.plugins_scanned = False
    try:
        yield registry
    finally:
        registry.restore(state)


def get_toolbox(name: str, registry: Registry = REGISTRY) -> Toolbox:
    """The toolbox `name` with its built-in module and the plugins loaded (entry points are scanned once per
    process; call `load_plugins` to pick up packages installed later); RegistryError if it has no primitives."""
    _import_all(BUILTIN_TOOLBOX_MODULES.get(name, ()))
    if not registry.plugins_scanned:
        load_plugins(registry)
    box = registry.toolboxes.get(name)
    if box is None or not box.primitives:
        known = sorted(n for n, b in registry.toolboxes.items() if b.primitives) or ["none"]
        raise RegistryError(
            f"no primitives registered for toolbox {name!r}; known toolboxes: {', '.join(known)}"
        )
    return box
