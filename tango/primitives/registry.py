"""The primitive registry: `@primitive` records a function's name, signature and docstring into a toolbox.

A toolbox is the set of primitives (and pre-bound input variables) one domain offers a program, e.g. the
Habitat navigation toolbox or the GraphNav toolbox. The parser validates programs against one toolbox and the
prompt's API section is generated from it, so a newly registered primitive appears in both without edits.
"""

from __future__ import annotations

import copy
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

DEFAULT_TOOLBOX = "habitat"


class RegistryError(ValueError):
    """A primitive or toolbox that cannot be registered or found (the message says which and why)."""


@dataclass(frozen=True)
class Parameter:
    """One program-visible parameter of a primitive."""

    name: str
    annotation: str
    has_default: bool
    default: Any = None

    def render(self) -> str:
        text = f"{self.name}: {self.annotation}" if self.annotation else self.name
        return f"{text} = {self.default!r}" if self.has_default else text


@dataclass(frozen=True)
class PrimitiveSpec:
    """A registered primitive: the callable (first parameter is the AgentContext) and what the prompt shows.

    `explores` marks the search-step primitive (a bare call of it followed by statements becomes a search
    loop); `ends_search` marks a primitive whose call ends the enclosing search loop (e.g. `stop`);
    `ends_program` one whose call ends the program, its result being the program's return value;
    `evaluates` one whose string argument the interpreter evaluates in the language's subset (TANGO's
    `eval`); `compat` one accepted in programs (TANGO's names) but not offered in the prompt. `tasks`, when
    not empty, names the only tasks whose prompt and grammar offer it (accepted in every program of the
    toolbox, like a compat one): a step one task's programs need can be shown to the model there without
    changing the prompts, grammars and cached programs of the toolbox's other tasks.
    """

    name: str
    func: Callable[..., Any]
    parameters: tuple[Parameter, ...]
    returns: str
    doc: str
    toolbox: str
    explores: bool = False
    ends_search: bool = False
    ends_program: bool = False
    evaluates: bool = False
    compat: bool = False
    tasks: frozenset[str] = frozenset()

    def offered(self, task: str | None = None) -> bool:
        """Whether the prompt and grammar of `task` (None: of no task in particular) offer this primitive."""
        return not self.compat and (not self.tasks or task in self.tasks)

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.parameters if not p.has_default)

    @property
    def max_args(self) -> int:
        return len(self.parameters)

    def signature(self) -> str:
        params = ", ".join(p.render() for p in self.parameters)
        returns = f" -> {self.returns}" if self.returns else ""
        return f"{self.name}({params}){returns}"

    def summary(self) -> str:
        """The first paragraph of the docstring on one line."""
        first = self.doc.strip().split("\n\n")[0]
        return " ".join(first.split())


@dataclass(frozen=True)
class InputSpec:
    """A variable bound before the program starts (e.g. `goal_image`), documented in the prompt."""

    name: str
    annotation: str
    doc: str


@dataclass
class Toolbox:
    """The primitives and pre-bound inputs of one domain, plus the prompt files written for it."""

    name: str
    description: str = ""
    primitives: dict[str, PrimitiveSpec] = field(default_factory=dict)
    inputs: dict[str, InputSpec] = field(default_factory=dict)
    system_prompt_path: str = ""
    examples_path: str = ""

    def get(self, name: str) -> PrimitiveSpec | None:
        return self.primitives.get(name)

    def add(self, spec: PrimitiveSpec) -> None:
        existing = self.primitives.get(spec.name)
        if existing is not None and existing.func is not spec.func:
            origin = getattr(existing.func, "__module__", "?")
            raise RegistryError(
                f"primitive {spec.name!r} is already registered in toolbox {self.name!r} by {origin}"
            )
        self.primitives[spec.name] = spec

    def api_text(self, task: str | None = None) -> str:
        """The API section of `task`'s prompt: each offered primitive's signature and summary, then inputs."""
        lines = [
            f"{spec.signature()}\n    {spec.summary()}"
            for spec in sorted(self.primitives.values(), key=_order)
            if spec.offered(task)
        ]
        text = "\n".join(lines)
        if self.inputs:
            inputs = "\n".join(f"{i.name}: {i.annotation}\n    {i.doc}" for i in self.inputs.values())
            text += "\n\nVariables bound before the program starts:\n" + inputs
        return text


def _order(spec: PrimitiveSpec) -> tuple[int, str]:
    """Explore first, stop last, the rest in registration order (dicts keep it); name breaks ties."""
    if spec.explores:
        return (0, spec.name)
    if spec.ends_search:
        return (2, spec.name)
    return (1, "")


class Registry:
    """All toolboxes of the process, filled at import time by `@primitive` and by entry-point plugins."""

    def __init__(self) -> None:
        self.toolboxes: dict[str, Toolbox] = {}
        self.loaded_plugins: set[str] = set()
        self.plugins_scanned = False

    def toolbox(self, name: str) -> Toolbox:
        """The toolbox called `name`, created empty on first use."""
        if name not in self.toolboxes:
            self.toolboxes[name] = Toolbox(name)
        return self.toolboxes[name]

    def snapshot(self) -> tuple[dict[str, Toolbox], set[str], bool]:
        """A copy of the current toolboxes and plugin state, for `restore`."""
        return copy.deepcopy(self.toolboxes), set(self.loaded_plugins), self.plugins_scanned

    def restore(self, state: tuple[dict[str, Toolbox], set[str], bool]) -> None:
        self.toolboxes, self.loaded_plugins = copy.deepcopy(state[0]), set(state[1])
        self.plugins_scanned = state[2]


REGISTRY = Registry()


def _annotation_text(annotation: Any) -> str:
    if annotation is inspect.Parameter.empty or annotation is inspect.Signature.empty:
        return ""
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def build_spec(
    func: Callable[..., Any],
    toolbox: str,
    name: str | None = None,
    explores: bool = False,
    ends_search: bool = False,
    ends_program: bool = False,
    evaluates: bool = False,
    compat: bool = False,
    tasks: tuple[str, ...] = (),
) -> PrimitiveSpec:
    """Describe `func` as a primitive; its first parameter must be the context (`ctx`)."""
    signature = inspect.signature(func)
    params = list(signature.parameters.values())
    if not params or params[0].name != "ctx":
        raise RegistryError(
            f"primitive {func.__name__!r}: the first parameter must be `ctx` (the AgentContext)"
        )
    visible: list[Parameter] = []
    for param in params[1:]:
        if param.kind not in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.POSITIONAL_ONLY):
            raise RegistryError(
                f"primitive {func.__name__!r}: parameter {param.name!r} must be a plain parameter"
            )
        has_default = param.default is not inspect.Parameter.empty
        visible.append(
            Parameter(
                param.name,
                _annotation_text(param.annotation),
                has_default,
                param.default if has_default else None,
            )
        )
    doc = inspect.getdoc(func) or ""
    if not doc:
        raise RegistryError(f"primitive {func.__name__!r} needs a docstring: it is what the LLM reads")
    primitive_name = name or func.__name__
    if primitive_name.startswith("_"):
        raise RegistryError(f"primitive name {primitive_name!r} must not start with an underscore")
    return PrimitiveSpec(
        name=primitive_name,
        func=func,
        parameters=tuple(visible),
        returns=_annotation_text(signature.return_annotation),
        doc=doc,
        toolbox=toolbox,
        explores=explores,
        ends_search=ends_search,
        ends_program=ends_program,
        evaluates=evaluates,
        compat=compat,
        tasks=frozenset(tasks),
    )


F = typing.TypeVar("F", bound=Callable[..., Any])


@typing.overload
def primitive(func: F) -> F: ...


@typing.overload
def primitive(
    func: None = None,
    *,
    toolbox: str = DEFAULT_TOOLBOX,
    name: str | None = None,
    explores: bool = False,
    ends_search: bool = False,
    ends_program: bool = False,
    evaluates: bool = False,
    compat: bool = False,
    tasks: tuple[str, ...] = (),
) -> Callable[[F], F]: ...


def primitive(
    func: Callable[..., Any] | None = None,
    *,
    toolbox: str = DEFAULT_TOOLBOX,
    name: str | None = None,
    explores: bool = False,
    ends_search: bool = False,
    ends_program: bool = False,
    evaluates: bool = False,
    compat: bool = False,
    tasks: tuple[str, ...] = (),
) -> Any:
    """Register a function as a program primitive: `@primitive` or `@primitive(toolbox="graphnav")`.

    The function's first parameter is the episode's AgentContext; the remaining parameters, their type
    annotations and the docstring's first paragraph are what the LLM sees in the prompt (of every task, or of
    `tasks` only).
    """

    def register(target: Callable[..., Any]) -> Callable[..., Any]:
        spec = build_spec(
            target, toolbox, name, explores, ends_search, ends_program, evaluates, compat, tasks
        )
        REGISTRY.toolbox(toolbox).add(spec)
        return target

    return register(func) if func is not None else register


def define_toolbox(
    name: str,
    description: str = "",
    system_prompt_path: str = "",
    examples_path: str = "",
) -> Toolbox:
    """Create or update a toolbox's description and prompt files (paths relative to the prompts/ folder)."""
    box = REGISTRY.toolbox(name)
    if description:
        box.description = description
    if system_prompt_path:
        box.system_prompt_path = system_prompt_path
    if examples_path:
        box.examples_path = examples_path
    return box


def define_input(toolbox: str, name: str, annotation: str, doc: str) -> InputSpec:
    """Declare a variable that programs of `toolbox` may read without assigning it (bound per episode)."""
    spec = InputSpec(name, annotation, doc)
    REGISTRY.toolbox(toolbox).inputs[name] = spec
    return spec
