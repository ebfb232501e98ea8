"""TANGO's primitive names that the Habitat toolbox does not already have, with TANGO's meaning.

Read from TANGO's full interpreter (PseudoCodeExecuter in code_interpreter/interpreter_orig.py); docs/programs.md
lists each with its TANGO counterpart. `compat` ones (aliases and TANGO-only helpers) are accepted in programs
but not offered in the prompt. Where TANGO reads privileged state (go_upstairs/go_downstairs teleport the
agent to the episode's goal), ours use only what the agent perceived.
"""

from __future__ import annotations

from tango.primitives.arguments import label_text
from tango.primitives.context import AgentContext
from tango.primitives.habitat import TOOLBOX, _objects, _target
from tango.primitives.registry import primitive
from tango.types.goals import ObjectHandle

DESCRIBE_QUESTION = "Describe what you see."
STAIRS = "stairs"
TURN_DEGREES = 30


@primitive(toolbox=TOOLBOX, ends_program=True, compat=True)
def stop_navigation(ctx: AgentContext, answer: str | None = None) -> str | None:
    """TANGO's stop: declare the goal reached here and end the program; `answer` is its return value."""
    ctx.agent.stop()
    return answer


@primitive(toolbox=TOOLBOX, compat=True)
def look_left(ctx: AgentContext, degrees: int | None = None) -> None:
    """TANGO's name for turn_left(): turn left by one step, or by `degrees` (in turn steps, at least one)."""
    for _ in range(_turns(degrees)):
        ctx.agent.turn_left()


@primitive(toolbox=TOOLBOX, compat=True)
def look_right(ctx: AgentContext, degrees: int | None = None) -> None:
    """TANGO's name for turn_right(): turn right by one step, or by `degrees` (in turn steps, at least one)."""
    for _ in range(_turns(degrees)):
        ctx.agent.turn_right()


def _turns(degrees: float | None) -> int:
    """Turn steps for an angle: TANGO's and Habitat's turn step is 30 degrees (tango's default too: a full
    circle is 12 turns); an angle is refused past one full circle."""
    if degrees is None:
        return 1
    if isinstance(degrees, bool) or not isinstance(degrees, (int, float)) or not 0 <= degrees <= 360:
        raise ValueError(f"a turn angle is a number of degrees from 0 to 360, not {degrees!r}")
    return max(1, round(degrees / TURN_DEGREES))


@primitive(toolbox=TOOLBOX, compat=True)
def do_nothing(ctx: AgentContext, steps: int = 20) -> None:
    """Let `steps` environment steps pass in place (TANGO turns left once per step: Habitat has no wait)."""
    for _ in range(max(0, steps)):
        ctx.agent.turn_left()


@primitive(toolbox=TOOLBOX, evaluates=True, compat=True)
def eval(ctx: AgentContext, expression: str) -> str:
    """Evaluate one expression of the program language (`{name}` fills in a variable) and give it as text.

    The interpreter evaluates it with its own evaluator, never Python's eval; this body is not called.
    """
    raise RuntimeError("eval is evaluated by the interpreter")


@primitive(toolbox=TOOLBOX)
def map_scene(ctx: AgentContext, target: str) -> None:
    """Score the map for `target`: exploration now heads where `target` is most likely to be."""
    ctx.agent.map_scene(label_text(target, "map_scene"))


@primitive(toolbox=TOOLBOX)
def describe_scene(ctx: AgentContext, view: str = "stereo") -> str:
    """A short description of the surroundings ('stereo': after looking around; 'frontal': the view now)."""
    if view not in ("stereo", "frontal"):
        raise ValueError(f"describe_scene view is 'stereo' or 'frontal', not {view!r}")
    if view == "stereo":
        ctx.agent.look_around(360)
    return str(ctx.agent.answer(DESCRIBE_QUESTION, None))


@primitive(toolbox=TOOLBOX)
def segment_scene(ctx: AgentContext, target: str | None = None) -> list[ObjectHandle]:
    """The objects recognised around the agent: of category `target`, or all of them when None."""
    if target is not None:
        return list(ctx.agent.detect(label_text(target, "segment_scene")))
    return list(ctx.agent.perceived_objects())


@primitive(toolbox=TOOLBOX)
def select(ctx: AgentContext, target: str) -> list[ObjectHandle]:
    """The single best object of category `target` (a one-element list; empty when none is seen)."""
    return list(ctx.agent.detect(label_text(target, "select")))[:1]


@primitive(toolbox=TOOLBOX)
def go_downstairs(ctx: AgentContext) -> bool:
    """Go to the stairs seen so far and take them down; False when no stairs are known or not reached."""
    return _take_stairs(ctx)


@primitive(toolbox=TOOLBOX)
def go_upstairs(ctx: AgentContext) -> bool:
    """Go to the stairs seen so far and take them up; False when no stairs are known or not reached."""
    return _take_stairs(ctx)


def _take_stairs(ctx: AgentContext) -> bool:
    """Navigate to the best known stairs (recalled, else detected now); the navigator moves between floors
    only where the scene's navigable area connects them."""
    stairs = _objects(ctx.agent.recall(STAIRS), "go_upstairs") or _objects(
        ctx.agent.detect(STAIRS), "go_upstairs"
    )
    if not stairs:
        return False
    return bool(ctx.agent.navigate_to(_target(stairs)))
