"""What primitives share during one episode: the agent backend, the budget, the trace and the inputs.

One AgentContext per episode; nothing lives in module globals, so episodes can run side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tango.trace.budget import Budget
from tango.trace.writer import Trace


@dataclass
class AgentContext:
    """The first argument of every primitive.

    `agent` is the backend the toolbox's primitives call (a `HabitatAgentAPI` for the Habitat toolbox, the
    maze environment for GraphNav); `inputs` are the variables bound before the program starts (e.g.
    `goal_image`, `goal_description`); `shared` is free space for state primitives pass to each other;
    `line` and `line_source` are the program line running now (for videos and logs), set by the interpreter.
    """

    agent: Any
    budget: Budget = field(default_factory=Budget)
    trace: Trace = field(default_factory=Trace)
    inputs: dict[str, Any] = field(default_factory=dict)
    shared: dict[str, Any] = field(default_factory=dict)
    line: int = 0
    line_source: str = ""
