"""The perception component registry: `@register(component, kind)` names a factory for `perception.<component>`.

Components are detector, scorer, answerer, matcher, description, room, memory and attributes. A factory takes the
component's config section and a `BuildContext` and returns an object with that component's interface
(`tango.perception.interfaces`). Factories registered with `oracle=True` receive an `OracleContext` that holds
the episode's `GroundTruth`; all others get a context without it, so only named oracles can read ground truth,
and results list exactly those (`oracle_components`). A kind whose source depends on its settings (the
scene-graph answerer reads the annotated objects seen, or the detector's reports) registers `oracle` as a
predicate of its config section; `observes` (also a flag or a predicate) asks the bundle to hand the component
every frame the agent receives (its `observe(obs)`).

Built-in components register when their module is imported: every module of `tango.perception` and of
`tango.perception.oracle` is imported on the first lookup. Third-party packages register theirs through the
entry-point group `tango.perception` (an entry point names a module whose import registers components).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tango.plugins import import_package_modules, load_entry_points

ENTRY_POINT_GROUP = "tango.perception"
BUILTIN_PACKAGES = ("tango.perception", "tango.perception.oracle", "tango.perception.simulated")
COMPONENTS = ("detector", "scorer", "answerer", "matcher", "description", "room", "memory", "attributes")

Factory = Callable[[Any, Any], Any]
Flag = bool | Callable[[Any], bool]
"""A fixed answer, or a predicate of the component's config section."""


class ComponentError(ValueError):
    """A component that cannot be registered or found (the message names it and lists the known kinds)."""


@dataclass(frozen=True)
class ComponentSpec:
    """One registered kind of a component: its factory, whether it reads ground truth, where it came from."""

    component: str
    kind: str
    factory: Factory
    oracle: Flag
    module: str
    observes: Flag = False

    def reads_truth(self, section: Any) -> bool:
        """Whether this kind, configured by `section`, reads ground truth (is an oracle)."""
        return bool(self.oracle(section) if callable(self.oracle) else self.oracle)

    def wants_frames(self, section: Any) -> bool:
        """Whether this kind, configured by `section`, must see every frame (`observe(obs)`)."""
        return bool(self.observes(section) if callable(self.observes) else self.observes)


@dataclass
class ComponentRegistry:
    """Registered component kinds; built-ins and entry points are loaded on the first lookup."""

    specs: dict[tuple[str, str], ComponentSpec] = field(default_factory=dict)
    loaded_plugins: set[str] = field(default_factory=set)
    scanned: bool = False

    def register(
        self, component: str, kind: str, *, oracle: Flag = False, observes: Flag = False
    ) -> Callable[[Factory], Factory]:
        """Decorator: `factory(config, ctx)` builds `perception.<component>` when its kind is `kind`."""
        if component not in COMPONENTS:
            raise ComponentError(
                f"unknown perception component {component!r}; known: {', '.join(COMPONENTS)}"
            )

        def add(factory: Factory) -> Factory:
            spec = ComponentSpec(component, kind, factory, oracle, factory.__module__, observes)
            existing = self.specs.get((component, kind))
            if existing is not None and existing.module != spec.module:
                raise ComponentError(
                    f"perception.{component} kind {kind!r} is registered twice "
                    f"({existing.module} and {spec.module})"
                )
            self.specs[(component, kind)] = spec
            return factory

        return add

    def scan(self) -> None:
        """Import the built-in component modules and every entry point of the group (once)."""
        if self.scanned:
            return
        self.scanned = True
        for package in BUILTIN_PACKAGES:
            import_package_modules(package)
        load_entry_points(ENTRY_POINT_GROUP, self.loaded_plugins, "perception")

    def get(self, component: str, kind: str) -> ComponentSpec:
        """The spec of `perception.<component>.kind`; ComponentError listing the known kinds if none."""
        self.scan()
        spec = self.specs.get((component, kind))
        if spec is None:
            raise ComponentError(
                f"perception.{component}.kind={kind!r} is not registered; known: {', '.join(self.kinds(component))}"
            )
        return spec

    def kinds(self, component: str) -> list[str]:
        """The registered kinds of one component, sorted."""
        self.scan()
        return sorted(kind for (name, kind) in self.specs if name == component)

    def snapshot(self) -> tuple[dict[tuple[str, str], ComponentSpec], set[str], bool]:
        return copy.copy(self.specs), set(self.loaded_plugins), self.scanned

    def restore(self, state: tuple[dict[tuple[str, str], ComponentSpec], set[str], bool]) -> None:
        self.specs, self.loaded_plugins, self.scanned = copy.copy(state[0]), set(state[1]), state[2]


REGISTRY = ComponentRegistry()
register = REGISTRY.register
