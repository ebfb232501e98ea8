"""GraphNav agents: the tango program agent, a random baseline and a VLM agent prompted as on the dataset card.

Each agent plays one trip in a GraphNavEnv and returns an AgentOutcome; the runner scores it.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tango.benchmarks.graphnav.availability import EpisodeUnavailable
from tango.benchmarks.graphnav.env import GraphNavEnv
from tango.benchmarks.graphnav.recognition import LandmarkRecognizer, Reading
from tango.benchmarks.graphnav.views import NodeView

log = logging.getLogger(__name__)


@dataclass
class AgentOutcome:
    """What an agent reports after its trip: the program it ran (if any), why it stopped, LLM usage."""

    program: str = ""
    program_source: str = ""
    failure_reason: str | None = None
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    generation: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class ReportingRecognizer:
    """Passes reads through; a recogniser that cannot read the views is noted on the env before it raises."""

    inner: LandmarkRecognizer
    env: GraphNavEnv

    def read_view(self, view: NodeView) -> Reading:
        try:
            return self.inner.read_view(view)
        except EpisodeUnavailable as error:
            self.env.note_unavailable(error)
            raise

    def read_destination(self, view: NodeView) -> str | None:
        try:
            return self.inner.read_destination(view)
        except EpisodeUnavailable as error:
            self.env.note_unavailable(error)
            raise


class ProgramAgent:
    """Runs a GraphNav-toolbox program (template by default) through tango's interpreter."""

    def __init__(self, recognizer_factory: Any, program_source: str = "template") -> None:
        self.recognizer_factory = recognizer_factory
        self.program_source = program_source

    def run(self, env: GraphNavEnv, program_text: str, trace_path: Any = None) -> AgentOutcome:
        import tango.benchmarks.graphnav.toolbox  # noqa: F401  (registers the graphnav primitives)
        from tango.benchmarks.graphnav.backend import MazeAgentBackend
        from tango.primitives.context import AgentContext
        from tango.programs import Interpreter, parse
        from tango.trace.budget import Budget
        from tango.trace.writer import Trace

        program = parse(program_text, toolbox="graphnav")
        budget = Budget(max_steps=env.max_steps + env.config.max_invalid_actions)
        recognizer = ReportingRecognizer(self.recognizer_factory(env), env)
        backend = MazeAgentBackend(env, recognizer, budget)
        trace = Trace(trace_path)
        ctx = AgentContext(agent=backend, budget=budget, trace=trace)
        result = Interpreter("graphnav").run(program, ctx)
        trace.close()
        failure = (
            None if env.state.success else (env.state.failure_reason or result.error or "goal_not_reached")
        )
        return AgentOutcome(
            program=program.source,
            program_source=self.program_source,
            failure_reason=failure,
            extra={"stop_reason": result.stop_reason},
        )


class RandomAgent:
    """Picks a uniformly random token among those not yet refused at the current node (uses only feedback)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def run(self, env: GraphNavEnv) -> AgentOutcome:
        refused: set[str] = set()
        while not env.state.done:
            options = [t for t in env.condition.tokens if t not in refused] or list(env.condition.tokens)
            token = options[int(self.rng.integers(len(options)))]
            result = env.step(token)
            refused = set() if result.moved else refused | {token}
        return AgentOutcome(program="", program_source="random", failure_reason=env.state.failure_reason)


TASK_INSTRUCTIONS = {
    "repeated": "Earlier you explored this maze along the route shown below. Go to the destination by repeating "
    "that route in the same direction.",
    "reversed": "Earlier you explored this maze along the route shown below. Go to the destination by travelling "
    "that route in the opposite direction.",
    "shortcut": "Earlier you explored this maze along the route shown below. Go to the destination by the "
    "shortest way you can infer, which may use corridors you saw but did not walk.",
}


class VLMAgent:
    """A vision-language model choosing one action token per step from the card's multimodal prompt."""

    def __init__(self, client: Any, max_history: int = 30) -> None:
        self.client = client
        self.max_history = max_history

    def _messages(
        self,
        env: GraphNavEnv,
        examples: list[tuple[str, NodeView]],
        history: list[tuple[NodeView, str]],
        feedback: str | None,
    ) -> list[dict[str, Any]]:
        from tango.llm import image_content, text_content

        tokens = " / ".join(env.condition.tokens)
        system = (
            "You navigate a 3D maze from node to node. At each node you see a stitched image: left | front | "
            f"right. {TASK_INSTRUCTIONS[env.episode.task]} Reply with exactly one action token: {tokens}."
        )
        parts: list[dict[str, Any]] = [text_content("Examples of what a wall and a path look like:")]
        for label, view in examples:
            parts += [text_content(label), image_content(view.rgb)]
        parts.append(text_content("Exploration experience (view at each node, then the action taken):"))
        for step in env.exploration():
            parts += [image_content(step.view.rgb), text_content(f"action: {step.action or '(end)'}")]
        if history:
            parts.append(text_content("Your moves so far on this trip:"))
            for view, token in history[-self.max_history :]:
                parts += [image_content(view.rgb), text_content(f"action: {token}")]
        parts += [
            text_content("Destination:"),
            image_content(env.destination().rgb),
            text_content("Current view (left | front | right):"),
            image_content(env.observe().rgb),
        ]
        if feedback:
            parts.append(text_content(f"Your last answer was not possible: {feedback}"))
        parts.append(text_content(f"Your action ({tokens}):"))
        return [{"role": "system", "content": system}, {"role": "user", "content": parts}]

    def parse_token(self, text: str, env: GraphNavEnv) -> str:
        """The first condition token in the reply (the whole reply when none is found, so the env rejects it)."""
        tokens = sorted(env.condition.tokens, key=len, reverse=True)
        pattern = "|".join(re.escape(t) for t in tokens)
        match = re.search(rf"(?<![A-Za-z])({pattern})(?![A-Za-z])", text.strip(), flags=re.IGNORECASE)
        return match.group(1) if match else text.strip()

    def run(self, env: GraphNavEnv, examples: list[tuple[str, NodeView]]) -> AgentOutcome:
        from tango.llm import LLMError

        history: list[tuple[NodeView, str]] = []
        feedback: str | None = None
        outcome = AgentOutcome(program_source="vlm")
        while not env.state.done:
            view = env.observe()
            try:
                reply = self.client.complete(self._messages(env, examples, history, feedback))
            except LLMError as error:
                outcome.failure_reason = f"llm_error: {error}"
                break
            token = self.parse_token(reply.text, env)
            result = env.step(token)
            feedback = result.feedback
            if result.moved:
                history.append((view, token))
        outcome.llm_calls = self.client.calls
        outcome.prompt_tokens, outcome.completion_tokens = (
            self.client.prompt_tokens,
            self.client.completion_tokens,
        )
        if outcome.failure_reason is None and not env.state.success:
            outcome.failure_reason = env.state.failure_reason
        return outcome
