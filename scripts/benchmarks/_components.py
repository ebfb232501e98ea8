"""Per-component time of the agent loop, measured by wrapping named functions for the length of one run.

Each wrapped function charges its own time, minus the time of wrapped functions it calls, to its component,
so the components add up to the time inside the outermost wrapped calls. CPU time is the whole process's
(`time.process_time`, which includes Mesa's rasteriser threads), wall time is `time.perf_counter`.
The renderer's read-back is split from rendering by finishing the GL queue first (charged to render): a
glReadPixels otherwise waits for the rasteriser, and that wait is rendering, not reading.
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

COMPONENTS: dict[str, tuple[str, ...]] = {
    "render": ("tango.sim.render:Renderer.render",),
    "read_back": ("tango.sim.render:Renderer._read",),
    "simulator": ("tango.agent.sim_session:SimSession.step",),
    "perception": (
        "tango.perception.build:PerceptionBundle.observe",
        "tango.perception.oracle.scorer:OracleTextScorer.score",
        "tango.perception.value_scorers:ClipScorer.score",
        "tango.agent.habitat_agent:HabitatAgent.detect",
        "tango.agent.habitat_agent:HabitatAgent.match_image",
        "tango.agent.habitat_agent:HabitatAgent.match_description",
        "tango.agent.habitat_agent:HabitatAgent.recall",
    ),
    "maps": ("tango.navigation.navigator:Navigator.update",),
    "planning": (
        "tango.navigation.navigator:Navigator.next_action_explore",
        "tango.navigation.navigator:Navigator.next_action_to",
    ),
    "interpreter": ("tango.programs.interpreter:Interpreter.run",),
    "episode_setup": (
        "tango.tasks.habitat.runner:HabitatRunner.run",
        "tango.tasks.goat_program:SubtaskScores.begin",
        "tango.tasks.goat_program:SubtaskScores.score",
    ),
}
"""Component -> the functions whose exclusive time it gets (names as of main 5980aac, the "before" of
BENCHMARKS.md; a target an older checkout lacks is reported as missing).
`interpreter` is the program's own work and the agent's glue around the other components; `episode_setup` is
everything in an episode that is not the agent's: scene and perception set-up, program generation and scoring,
including the scoring of a GOAT subtask and the start of the next, which the program's stop() runs (from main
8a2fbff on; before, that ground-truth geodesic work was charged to the interpreter)."""
LOOP_COMPONENTS = ("render", "read_back", "simulator", "perception", "maps", "planning", "interpreter")


@dataclass
class _Frame:
    component: str
    cpu: float
    wall: float
    child_cpu: float = 0.0
    child_wall: float = 0.0


@dataclass
class ComponentTimes:
    """Exclusive CPU and wall seconds per component; `missing` lists targets that do not exist."""

    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(COMPONENTS, 0.0))
    wall: dict[str, float] = field(default_factory=lambda: dict.fromkeys(COMPONENTS, 0.0))
    missing: list[str] = field(default_factory=list)
    _stack: list[_Frame] = field(default_factory=list)

    def wrap(
        self, component: str, function: Callable[..., Any], finish_gl: bool = False
    ) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if finish_gl:
                self._finish_gl(args[0])
            frame = _Frame(component, time.process_time(), time.perf_counter())
            self._stack.append(frame)
            try:
                return function(*args, **kwargs)
            finally:
                self._stack.pop()
                cpu, wall = time.process_time() - frame.cpu, time.perf_counter() - frame.wall
                self.cpu[component] += cpu - frame.child_cpu
                self.wall[component] += wall - frame.child_wall
                if self._stack:
                    self._stack[-1].child_cpu += cpu
                    self._stack[-1].child_wall += wall

        return timed

    def _finish_gl(self, renderer: Any) -> None:
        """Wait for the rasteriser (charged to render) so that the read that follows times only the copy."""
        frame = _Frame("render", time.process_time(), time.perf_counter())
        renderer.ctx.finish()
        cpu, wall = time.process_time() - frame.cpu, time.perf_counter() - frame.wall
        self.cpu["render"] += cpu
        self.wall["render"] += wall
        if self._stack:
            self._stack[-1].child_cpu += cpu
            self._stack[-1].child_wall += wall


def _resolve(target: str) -> tuple[Any, str] | None:
    module_name, qualname = target.split(":")
    try:
        owner: Any = importlib.import_module(module_name)
    except ImportError:
        return None
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    return (owner, name) if hasattr(owner, name) else None


@contextmanager
def component_timers() -> Iterator[ComponentTimes]:
    """Wrap every COMPONENTS target for the duration of the block (restored afterwards)."""
    times = ComponentTimes()
    restore: list[tuple[Any, str, Any]] = []
    for component, targets in COMPONENTS.items():
        for target in targets:
            found = _resolve(target)
            if found is None:
                times.missing.append(target)
                continue
            owner, name = found
            original = owner.__dict__[name]
            restore.append((owner, name, original))
            setattr(owner, name, times.wrap(component, original, finish_gl=component == "read_back"))
    try:
        yield times
    finally:
        for owner, name, original in reversed(restore):
            setattr(owner, name, original)
