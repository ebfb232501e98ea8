"""Let `import habitat` work when habitat-sim is not installed, under OpenCV 5, and without gym's banner.

habitat-lab imports magnum and habitat_sim unconditionally in a few places even though the
Env, tasks, sensors and measures only need them with the real simulator:
- habitat/utils/geometry_utils.py and habitat/tasks/utils.py: `import magnum as mn` (via quaternion helpers),
- habitat/tasks/rearrange/* and habitat/articulated_agents/*: `import magnum as mn`, `import habitat_sim`,
- habitat/sims/habitat_simulator/*: `import habitat_sim` (guarded upstream, but its submodules are not),
- corrade is imported by magnum's own submodules that rearrange code touches.
`ensure_habitat_importable()` registers inert placeholder modules for those names, and only when
habitat_sim itself cannot be found; with habitat-sim installed it does not.

Two shims for current libraries, applied with or without habitat-sim (call it before the first `import habitat`):
- OpenCV 5 treats a 1-D array as a row (1, N) where OpenCV 4 took a column (N, 1), so habitat-lab's
  habitat/utils/visualizations/maps.py, which runs `cv2.applyColorMap(np.arange(246, dtype=np.uint8),
  cv2.COLORMAP_JET).squeeze(1)` at import, fails on (1, 246, 3). When this OpenCV returns a row, that module is
  executed with `cv2.applyColorMap` taking 1-D input as a column (OpenCV 4's result), and only while it loads.
- gym 0.22/0.23 (which habitat-lab imports for `gym.spaces`) prints gym_notices' "Gym has been unmaintained"
  banner to stderr on import, in every run and worker; the notice table is emptied before gym is imported.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

PLACEHOLDER_MODULES = ("magnum", "corrade", "habitat_sim")
COLORMAP_MODULE = "habitat.utils.visualizations.maps"
"""The habitat-lab module that builds its colour table with applyColorMap on a 1-D array at import."""


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
    """Silence gym's banner, shim OpenCV 5's colour-map shape for habitat-lab, and register placeholders for
    magnum/corrade/habitat_sim when habitat-sim is absent; idempotent."""
    silence_gym_notice()
    if colormap_takes_1d_as_row() and not any(isinstance(f, _ColumnColorMapFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _ColumnColorMapFinder())
    if habitat_sim_available():
        return
    if not any(isinstance(finder, _PlaceholderFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PlaceholderFinder())


def silence_gym_notice() -> None:
    """Empty gym_notices' table (read by gym's __init__ alone) before gym is imported; nothing else changes."""
    if "gym" in sys.modules or importlib.util.find_spec("gym_notices") is None:
        return
    table = getattr(importlib.import_module("gym_notices.notices"), "notices", None)
    if isinstance(table, dict):
        table.clear()


def colormap_takes_1d_as_row() -> bool:
    """True when this OpenCV colours a 1-D array of N values as a (1, N, 3) row (OpenCV 5) instead of a
    (N, 1, 3) column (OpenCV 4)."""
    import cv2
    import numpy as np

    return bool(cv2.applyColorMap(np.zeros(2, dtype=np.uint8), cv2.COLORMAP_JET).shape[0] == 1)


@contextmanager
def column_colormaps() -> Iterator[None]:
    """Within the block, `cv2.applyColorMap` colours a 1-D array as the column OpenCV 4 made of it."""
    import cv2
    import numpy as np

    original: Callable[..., Any] = cv2.applyColorMap

    def apply_color_map(src: Any, *args: Any, **kwargs: Any) -> Any:
        array = np.asarray(src)
        return original(array.reshape(-1, 1) if array.ndim == 1 else src, *args, **kwargs)

    cv2.applyColorMap = apply_color_map
    try:
        yield
    finally:
        cv2.applyColorMap = original


class _ColumnColorMapFinder(importlib.abc.MetaPathFinder):
    """Finds habitat-lab's maps module as usual and loads it inside `column_colormaps()`."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != COLORMAP_MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _ColumnColorMapLoader(spec.loader)
        return spec


class _ColumnColorMapLoader(importlib.abc.Loader):
    """Delegates to the module's own loader, executing the module with column colour maps."""

    def __init__(self, inner: importlib.abc.Loader) -> None:
        self.inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.inner.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        with column_colormaps():
            self.inner.exec_module(module)
