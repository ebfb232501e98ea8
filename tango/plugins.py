"""Plugin discovery shared by the registries (primitives, perception components, tasks): the modules of a
built-in package, and the entry points third-party packages declare for a group."""

from __future__ import annotations

import importlib
import logging
import pkgutil
from importlib import metadata

logger = logging.getLogger(__name__)


class PluginLoadError(ImportError):
    """An entry point whose import failed; the message names the plugin, its target and the cause."""


def load_entry_points(group: str, loaded: set[str], what: str) -> list[str]:
    """Import every entry point of `group` not yet in `loaded` (updated in place); return the names loaded now.

    An entry point names a module (or an object in one) whose import registers what it provides.
    """
    names: list[str] = []
    for entry_point in metadata.entry_points(group=group):
        key = f"{entry_point.name}={entry_point.value}"
        if key in loaded:
            continue
        try:
            entry_point.load()
        except Exception as error:  # a plugin can fail in any way; name it and stop
            raise PluginLoadError(
                f"{what} plugin {entry_point.name!r} ({entry_point.value}) failed to load: "
                f"{type(error).__name__}: {error}"
            ) from error
        loaded.add(key)
        names.append(entry_point.name)
        logger.info("loaded %s plugin %s (%s)", what, entry_point.name, entry_point.value)
    return names


def import_package_modules(package: str) -> list[str]:
    """Import every module directly inside `package` (not its subpackages); return their names."""
    root = importlib.import_module(package)
    names = [
        f"{package}.{info.name}"
        for info in pkgutil.iter_modules(root.__path__)
        if not info.ispkg and not info.name.startswith("_")
    ]
    for name in names:
        importlib.import_module(name)
    return names
