"""Child process of `scripts/bench.py eval --startup`: runs `python -m tango.eval ARGS...` as the user would and
prints `FIRST_STEP <unix time> <process CPU s>` when the first simulator step of an episode begins.

The step is caught by an import hook on `tango.agent.sim_session` (installed before anything of tango is
imported, so it changes nothing the command imports, or when); pool workers spawned by the run re-import this
file and get the same hook. The parent stops the run after the first line.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import runpy
import sys
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

SESSION_MODULE = "tango.agent.sim_session"


class _StepHook(importlib.abc.MetaPathFinder):
    """Wraps SimSession.step once the session module has been executed."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != SESSION_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        execute = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            execute(module)
            _wrap_step(module.SimSession)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _wrap_step(session_class: Any) -> None:
    step = session_class.step

    def first_step(self: Any, action: str) -> Any:
        print(f"FIRST_STEP {time.time():.6f} {time.process_time():.6f}", flush=True)
        session_class.step = step
        return step(self, action)

    session_class.step = first_step


sys.meta_path.insert(0, _StepHook())

if __name__ == "__main__":
    sys.argv = ["tango.eval", *sys.argv[1:]]
    runpy.run_module("tango.eval", run_name="__main__")
