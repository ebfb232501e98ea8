"""The GraphNav environment: node-to-node moves chosen with the condition's left/front/right tokens.

An invalid action (an unknown token, or a wall in that direction) moves nothing, is counted, and returns
feedback for a retry, as the card describes. The step budget (EnvConfig) is
`ceil(step_budget_factor * max(explore_len_steps, ideal_len_steps)) + step_budget_slack`, default 2x + 4:
retracing the explored route always reaches the goal within explore_len_steps, so the default leaves room for
one full wrong detour and a few recoveries while random walks on large mazes rarely succeed by luck.
Start heading: repeated and shortcut face as the agent did at that node while exploring; reversed faces back
the way exploration came (turned around), so every trip can start without stepping backwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tango.benchmarks.graphnav.availability import EpisodeUnavailable
from tango.benchmarks.graphnav.conditions import SLOT_OFFSETS, SLOTS, Condition, annotate
from tango.benchmarks.graphnav.config import EnvConfig
from tango.benchmarks.graphnav.episodes import Episode
from tango.benchmarks.graphnav.keygraph import Cell, KeyGraph, direction_between
from tango.benchmarks.graphnav.metrics import episode_metrics
from tango.benchmarks.graphnav.observed import heading_on_arrival, walk_headings
from tango.benchmarks.graphnav.views import NodeView, ViewSource


@dataclass
class ExplorationStep:
    """One frame of the exploration experience: the view at a node and the token of the move taken there."""

    view: NodeView
    action: str | None


@dataclass
class StepResult:
    """What the agent gets back after an action."""

    view: NodeView
    moved: bool
    feedback: str | None
    done: bool
    success: bool


@dataclass
class EnvState:
    """Where the agent is and what happened so far (for metrics; never shown to the agent)."""

    node: Cell
    heading: int
    path: list[Cell] = field(default_factory=list)
    headings: list[int] = field(default_factory=list)
    invalid_actions: int = 0
    done: bool = False
    success: bool = False
    failure_reason: str | None = None


def start_heading(episode: Episode, graph: KeyGraph) -> int:
    """The heading at the trip's start (module docstring)."""
    headings = walk_headings(graph, episode.explore_path)
    if episode.task == "reversed":
        arrival = episode.explore_arrivals[episode.start_idx]
        if arrival is not None:
            return (arrival + 2) % 4
        return (headings[episode.start_idx] + 2) % 4
    return headings[episode.start_idx]


class GraphNavEnv:
    """One episode's trip; the views come from a ViewSource and carry the condition's marks."""

    def __init__(
        self, episode: Episode, graph: KeyGraph, views: ViewSource, condition: Condition, config: EnvConfig
    ) -> None:
        self.episode = episode
        self.graph = graph
        self.views = views
        self.condition = condition
        self.config = config
        longest = max(episode.explore_len_steps, episode.ideal_len_steps)
        self.max_steps = math.ceil(config.step_budget_factor * longest) + config.step_budget_slack
        heading = start_heading(episode, graph)
        self.state = EnvState(node=episode.start, heading=heading, path=[episode.start], headings=[heading])
        self.unavailable: EpisodeUnavailable | None = None

    def note_unavailable(self, error: EpisodeUnavailable) -> None:
        """Keep the first reason the episode cannot run as configured (raised again by the runner, so an
        agent that swallows errors, like the program interpreter, cannot turn it into a plain failure)."""
        if self.unavailable is None:
            self.unavailable = error

    def _view(self, node: Cell, heading: int) -> NodeView:
        try:
            view = self.views.node_view(node, heading)
        except EpisodeUnavailable as error:
            self.note_unavailable(error)
            raise
        return NodeView(rgb=annotate(view.rgb, self.condition), semantic=view.semantic, depth=view.depth)

    def exploration(self) -> list[ExplorationStep]:
        """The exploration experience: the view at each explored node with the token of the move made there."""
        path = self.episode.explore_path
        headings = walk_headings(self.graph, path)
        steps = []
        for index, (node, heading) in enumerate(zip(path, headings)):
            action = None
            if index + 1 < len(path):
                offset = (direction_between(node, path[index + 1]) - heading) % 4
                action = self.condition.token_of({3: "left", 0: "front", 1: "right"}[offset])
            steps.append(ExplorationStep(self._view(node, heading), action))
        return steps

    def destination(self) -> NodeView:
        """The goal node's overview image."""
        try:
            return self.views.destination_view(self.episode.goal)
        except EpisodeUnavailable as error:
            self.note_unavailable(error)
            raise

    def observe(self) -> NodeView:
        return self._view(self.state.node, self.state.heading)

    @property
    def num_steps(self) -> int:
        return len(self.state.path) - 1

    def valid_tokens(self) -> list[str]:
        """Tokens that lead into a corridor from here (for tests and tools; agents learn it from feedback)."""
        return [self.condition.token_of(slot) for slot in SLOTS if self._target(slot) is not None]

    def _target(self, slot: str) -> Cell | None:
        direction = (self.state.heading + SLOT_OFFSETS[slot]) % 4
        return self.graph.neighbor_in(self.state.node, direction)

    def _invalid(self, message: str) -> StepResult:
        state = self.state
        state.invalid_actions += 1
        if state.invalid_actions >= self.config.max_invalid_actions:
            state.done, state.failure_reason = True, "invalid_action_budget"
        return StepResult(self.observe(), False, message, state.done, False)

    def step(self, token: str) -> StepResult:
        """Apply one action token; invalid ones return feedback and leave the agent where it was."""
        state = self.state
        if state.done:
            raise RuntimeError("step() after the episode ended")
        slot = self.condition.slot_of(token)
        allowed = ", ".join(self.condition.tokens)
        if slot is None:
            return self._invalid(
                f"'{token.strip()[:20]}' is not an action. Answer with exactly one of: {allowed}."
            )
        target = self._target(slot)
        if target is None:
            return self._invalid(
                f"There is a wall in the '{token.strip()}' direction; choose another of: {allowed}."
            )
        direction = (state.heading + SLOT_OFFSETS[slot]) % 4
        state.node, state.heading = target, heading_on_arrival(self.graph, target, direction)
        state.path.append(target)
        state.headings.append(state.heading)
        if target == self.episode.goal:
            state.done, state.success = True, True
        elif self.num_steps >= self.max_steps:
            state.done, state.failure_reason = True, "step_budget"
        return StepResult(self.observe(), True, None, state.done, state.success)

    def metrics(self) -> dict[str, float]:
        """The episode's metrics (tango.benchmarks.graphnav.metrics) from the path walked so far."""
        state = self.state
        return episode_metrics(
            self.episode.task,
            state.path,
            self.episode.ideal_path,
            self.episode.goal,
            state.success,
            state.invalid_actions,
        )
