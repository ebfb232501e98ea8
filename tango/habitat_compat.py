"""Let `import habitat` work when habitat-sim is not installed.

habitat-lab imports magnum and habitat_sim unconditionally in a few places even though the
Env, tasks, sensors and measures only need them with the real simulator:
- habitat/utils/geometry_utils.py and habitat/tasks/utils.py: `import magnum as mn` (via quaternion helpers),
- habitat/tasks/rearrange/* and habitat/articulated_agents/*: `import magnum as mn`, `import habitat_sim`,
- habitat/sims/habitat_simulator/*: `import habitat_sim` (guarded upstream, but its submodules are not),
- corrade is imported by magnum's own submodules that rearrange code touches.
`ensure_habitat_importable()` registers inert placeholder modules for those names, and only when
habitat_sim itself cannot be found; with habitat-sim installed it does nothing.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from typing import Any

PLACEHOLDER_MODULES = ("magnum", "corrade", "habitat_sim")


class _Placeholder(types.ModuleType):
    """A module whose every attribute and call result is another placeholder, so import-time uses succeed.

    Nothing computes with them: the embedded simulator never reaches magnum or habitat_sim code paths.
    """

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        child = _Placeholder(f"{self.__name__}.{name}")
        child.__path__ = []  # type: ignore[attr-defined]
        setattr(self, name, child)
        sys.modules[child.__name__] = child
        return child

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Module-level code such as `mn.Vector3.zero_init()` in dataclass defaults gets another inert placeholder."""
        return _Placeholder(f"{self.__name__}()")

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type, ...]:
        return ()


class _PlaceholderFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves `import habitat_sim.physics` and the like to placeholders under the registered roots."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] not in PLACEHOLDER_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = _Placeholder(spec.name)
        module.__path__ = []  # type: ignore[attr-defined]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        return


def habitat_sim_available() -> bool:
    """True when the real habitat-sim package is importable (not our placeholder)."""
    module = sys.modules.get("habitat_sim")
    if isinstance(module, _Placeholder):
        return False
    if module is not None:
        return True
    return importlib.util.find_spec("habitat_sim") is not None


def ensure_habitat_importable() -> None:
    """Register placeholders for magnum/corrade/habitat_sim when habitat-sim is absent; idempotent."""
    if habitat_sim_available():
        return
    if not any(isinstance(finder, _PlaceholderFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PlaceholderFinder())
