"""GraphNav as a harness task: list episodes (generating a small set on first use) and run one trip each.

`iter_episodes(cfg)` and `run_episode(episode, cfg)` serve scripts and tests; `GraphNavTask` is the
TaskPlugin that `python -m tango.eval task=graphnav` loads (configs/task/graphnav.yaml).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tango.benchmarks.graphnav.agents import AgentOutcome, ProgramAgent, RandomAgent, VLMAgent
from tango.benchmarks.graphnav.availability import MissingImages, check_recognizer, check_run_condition
from tango.benchmarks.graphnav.conditions import get_condition
from tango.benchmarks.graphnav.config import GraphNavConfig
from tango.benchmarks.graphnav.env import GraphNavEnv, start_heading
from tango.benchmarks.graphnav.episodes import Episode, episode_from_json, load_episodes, path_files
from tango.benchmarks.graphnav.generate import DatasetSpec, EpisodeGenConfig, generate_dataset
from tango.benchmarks.graphnav.keygraph import KeyGraph, build_key_graph
from tango.benchmarks.graphnav.maze import Maze, MazeName, load_maze
from tango.benchmarks.graphnav.metrics import failure_metrics
from tango.benchmarks.graphnav.observed import walk_headings
from tango.benchmarks.graphnav.templates import INSTRUCTIONS, template_program
from tango.benchmarks.graphnav.views import (
    DatasetImageViews,
    NodeView,
    RenderedViews,
    ViewConfig,
    ViewSource,
    dataset_images_present,
)
from tango.harness.episode import EpisodeContext, EpisodeResult, EpisodeSpec
from tango.harness.scoring import BaseTask

log = logging.getLogger(__name__)
# v2: the card's constraint values and readings (min_gap index gap, min_savings in steps, target in nodes).
DATASET_VERSION = "graphnav-v2"


def data_root(config: GraphNavConfig) -> Path:
    """The configured data_root, or `{TANGO_CACHE or ~/.cache/tango}/{DATASET_VERSION}` when it is empty."""
    if config.data_root:
        return Path(config.data_root)
    from tango.cache import cache_root

    return cache_root() / DATASET_VERSION


def ensure_dataset(config: GraphNavConfig) -> Path:
    """The data root, after writing the small default set there (atomically) when it has no mazes/ yet."""
    root = data_root(config)
    if not (root / "mazes").is_dir():
        gen = config.generate
        log.info("no GraphNav data under %s: generating a small set", root)
        root.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=root.parent, prefix=f".{root.name}-") as scratch:
            spec = DatasetSpec(
                mazes_per_size={size: gen.mazes_per_size for size in gen.sizes},
                seed=gen.seed,
                episodes=EpisodeGenConfig(episodes_per_task=gen.episodes_per_task),
            )
            generate_dataset(scratch, spec)
            root.mkdir(exist_ok=True)
            for part in ("mazes", "paths"):
                if not (root / part).exists():
                    os.replace(Path(scratch) / part, root / part)
    return root


def iter_episodes(config: GraphNavConfig) -> Iterator[Episode]:
    """Episodes of the configured tasks and sizes, in a deterministic order (task, file, line).

    Published files named `{maze}_L{L}_junc{j}.jsonl` number their episodes from 1 each, so their ids are
    qualified with the file's suffix (`L13_junc2/1`) to stay unique within a run.
    """
    root = ensure_dataset(config)
    for task in config.tasks:
        for file in path_files(root, task):
            episodes = load_episodes(file, task)
            qualifier = file.stem.removeprefix(episodes[0].maze_name + "_") if episodes else ""
            if episodes and qualifier != file.stem:
                for episode in episodes:  # `{maze}_L13_junc2.jsonl`: ids restart per file, so qualify them
                    episode.episode_id = f"{qualifier}/{episode.episode_id}"
            if config.sizes:
                episodes = [e for e in episodes if maze_size(e) in config.sizes]
            limit = config.max_episodes_per_maze or len(episodes)
            yield from episodes[:limit]


def maze_size(episode: Episode) -> int:
    return MazeName.parse(episode.maze_name).size


def few_shot_examples(env: GraphNavEnv) -> list[tuple[str, NodeView]]:
    """One wall and one path sub-view from the exploration (its action labels say which slots were open)."""
    from tango.benchmarks.graphnav.conditions import SLOTS

    examples: list[tuple[str, NodeView]] = []
    for step in env.exploration():
        if step.action is None:
            continue
        open_slot = SLOTS.index(env.condition.slot_of(step.action) or "front")
        if not any(label.startswith("path") for label, _ in examples):
            examples.append(("path: an open corridor", step.view.sub_view(open_slot)))
    first = env.exploration()[0].view
    for index in range(3):
        depth = first.sub_view(index).depth
        if depth is not None and float(depth.max()) < 1.5:
            examples.append(("wall: no way through", first.sub_view(index)))
            break
    return examples


@dataclass
class _LoadedMaze:
    maze: Maze
    graph: KeyGraph
    views: ViewSource


class GraphNavRunner:
    """Plays episodes with the configured agent; keeps the current maze's renderer between episodes."""

    def __init__(self, config: GraphNavConfig, generator: dict[str, Any] | None = None) -> None:
        self.config = config
        self.generator_config = dict(generator or {"name": "template"})
        self._generator: Any = None
        self._programs: dict[str, tuple[str, str, dict[str, Any] | None]] = {}
        self.condition = get_condition(config.condition)
        if config.recognition == "clip" and config.agent == "program":
            import open_clip  # noqa: F401  (imported before any GL context: a later import segfaults on llvmpipe)
        self._loaded: _LoadedMaze | None = None
        self._client: Any = None
        self._embedder: Any = None

    def describe(self) -> dict[str, Any]:
        return {
            "perception": {
                "name": f"graphnav-{self.config.recognition}",
                "views": self.config.views,
                "oracle_components": ["recognition"] if self.config.recognition == "oracle" else [],
            },
            "generator": {
                "name": self.generator_config.get("name", "template")
                if self.config.agent == "program"
                else self.config.agent,
                "model": self.generator_config.get("model", "") if self.config.agent == "program" else "",
            },
            "controller": {"name": f"graphnav-{self.config.agent}", "condition": self.config.condition},
            "sensors": {"preset": f"graphnav-{self.config.views}", "resolution": self.config.resolution},
        }

    def _maze(self, name: str) -> _LoadedMaze:
        if self._loaded is None or self._loaded.maze.name != name:
            self.close()
            root = data_root(self.config)
            maze = load_maze(root / "mazes" / f"{name}.txt")
            graph = build_key_graph(maze)
            use_dataset = self.config.views == "dataset" or (
                self.config.views == "auto" and dataset_images_present(root, self.condition.folder)
            )
            views: ViewSource = (
                DatasetImageViews(root, maze, self.condition.folder)
                if use_dataset
                else RenderedViews(maze, graph, ViewConfig(resolution=self.config.resolution))
            )
            self._loaded = _LoadedMaze(maze, graph, views)
        return self._loaded

    def _preflight(self, episode: Episode, loaded: _LoadedMaze) -> None:
        """Raise EpisodeUnavailable (availability.py) when this run cannot play the episode as configured."""
        check_run_condition(episode)
        if not isinstance(loaded.views, DatasetImageViews):
            return
        if not loaded.views.present:
            raise MissingImages(
                f"{loaded.views.folder}: no published renders of this maze for condition "
                f"{self.condition.name} (the card ships images for sizes 5-13 only)"
            )
        config = self.config
        check_recognizer(config.agent, config.recognition, config.clip.pretrained, published_views=True)
        needed = list(zip(episode.explore_path, walk_headings(loaded.graph, episode.explore_path)))
        needed.append((episode.start, start_heading(episode, loaded.graph)))
        gaps = loaded.views.missing(needed, episode.goal)
        if gaps:
            raise MissingImages(f"{loaded.views.folder}: {len(gaps)} published renders missing: {gaps[:3]}")

    def play(
        self, episode: Episode, seed: int = 0, trace_path: Path | None = None
    ) -> tuple[GraphNavEnv, AgentOutcome]:
        """Run one trip with the configured agent; returns the finished env (for metrics) and the outcome.

        Raises EpisodeUnavailable before the trip, or after it when a view or recogniser failed during it.
        """
        loaded = self._maze(episode.maze_name)
        self._preflight(episode, loaded)
        env = GraphNavEnv(episode, loaded.graph, loaded.views, self.condition, self.config.env)
        env, outcome = self._play(env, episode, seed, trace_path)
        if env.unavailable is not None:
            raise env.unavailable
        return env, outcome

    def _play(
        self, env: GraphNavEnv, episode: Episode, seed: int, trace_path: Path | None
    ) -> tuple[GraphNavEnv, AgentOutcome]:
        if self.config.agent == "random":
            return env, RandomAgent(seed).run(env)
        if self.config.agent == "vlm":
            if self._client is None:
                from tango.llm import ChatClient, LLMConfig

                self._client = ChatClient(LLMConfig(**self.config.llm))
            return env, VLMAgent(self._client).run(env, few_shot_examples(env))
        if self.config.recognition == "oracle":
            from tango.benchmarks.graphnav.recognition import OracleLandmarks

            factory: Any = lambda _env: OracleLandmarks()
        else:
            factory = self._clip_factory(few_shot_examples(env))
        text, source, record = self.program_for(episode.task)
        outcome = ProgramAgent(factory, source).run(env, text, trace_path)
        outcome.generation = record
        return env, outcome

    def _clip_factory(self, examples: list[tuple[str, NodeView]]) -> Any:
        """CLIP landmark recognition for one trip (fresh gallery), over one embedder loaded per runner."""
        from tango.benchmarks.graphnav.recognition import ClipLandmarks, OpenClipEmbedder

        clip = self.config.clip
        if self._embedder is None:
            self._embedder = OpenClipEmbedder(clip.model, clip.pretrained, clip.device)
        walls = [view.rgb for label, view in examples if label.startswith("wall")]
        paths = [view.rgb for label, view in examples if label.startswith("path")]
        return lambda _env: ClipLandmarks(self._embedder, walls, paths, clip.match_threshold)

    def program_for(self, task: str) -> tuple[str, str, dict[str, Any] | None]:
        """(program text, source, generation record) for a task: the GraphNav template, or the configured
        LLM generator's program for the task's instruction (the template when it gives none)."""
        if self.generator_config.get("name", "template") == "template":
            return template_program(task), "template", None
        if task not in self._programs:
            from tango.programs.generators import GeneratorConfig, make_generator

            if self._generator is None:
                self._generator = make_generator(GeneratorConfig.from_mapping(self.generator_config))
            record = self._generator.generate("graphnav", INSTRUCTIONS[task])
            if record.program is None:
                log.info("generator gave no GraphNav program (%s); using the template", record.failure_reason)
                self._programs[task] = (template_program(task), "template", record.to_dict())
            else:
                self._programs[task] = (record.program, record.program_source, record.to_dict())
        return self._programs[task]

    def run(self, spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
        episode: Episode = episode_from_json(spec.payload["record"], spec.payload["task"], spec.episode_id)
        env, outcome = self.play(episode, ctx.seed, ctx.trace_path)
        if ctx.frames.enabled:
            for node, heading in zip(env.state.path, env.state.headings, strict=True):
                ctx.frames.add(env.views.node_view(node, heading).rgb, program_line=f"at {list(node)}")
        return episode_result(episode, env, outcome, self.config.condition)

    def close(self) -> None:
        if self._loaded is not None:
            close = getattr(self._loaded.views, "close", None)
            if close is not None:
                close()
            self._loaded = None


def episode_result(
    episode: Episode, env: GraphNavEnv, outcome: AgentOutcome, condition: str
) -> EpisodeResult:
    """The harness record of a finished trip: metrics, program, failure reason and where it went."""
    metrics = env.metrics()
    return EpisodeResult(
        program=outcome.program,
        program_source=outcome.program_source,
        metrics=metrics,
        num_steps=int(metrics["num_steps"]),
        failure_reason=None if env.state.success else outcome.failure_reason or "goal_not_reached",
        generation=outcome.generation,
        llm_calls=outcome.llm_calls,
        prompt_tokens=outcome.prompt_tokens,
        completion_tokens=outcome.completion_tokens,
        extra={
            "task": episode.task,
            "condition": condition,
            "maze_name": episode.maze_name,
            "maze_size": maze_size(episode),
            "path": [list(c) for c in env.state.path],
            **outcome.extra,
        },
    )


def run_episode(
    episode: Episode, config: GraphNavConfig, runner: GraphNavRunner | None = None
) -> EpisodeResult:
    """Play and score one episode outside the harness (scripts, tests)."""
    own = runner is None
    runner = runner or GraphNavRunner(config)
    try:
        env, outcome = runner.play(episode)
        return episode_result(episode, env, outcome, config.condition)
    finally:
        if own:
            runner.close()


class GraphNavTask(BaseTask):
    """The TaskPlugin of `task=graphnav`: settings come from the config's `graphnav` node."""

    def list_episodes(self, cfg: dict[str, Any]) -> list[EpisodeSpec]:
        config = GraphNavConfig.from_dict(cfg.get("graphnav"))
        return [
            EpisodeSpec(
                episode_id=f"{episode.task}/{episode.episode_id}"
                if episode.episode_id.startswith(episode.maze_name)
                else f"{episode.task}/{episode.maze_name}/{episode.episode_id}",
                scene_id=episode.maze_name,
                instruction=f"GraphNav {episode.task} from {list(episode.start)} to {list(episode.goal)}",
                payload={"task": episode.task, "record": episode.to_json()},
            )
            for episode in iter_episodes(config)
        ]

    def make_runner(self, cfg: dict[str, Any]) -> GraphNavRunner:
        return GraphNavRunner(GraphNavConfig.from_dict(cfg.get("graphnav")), cfg.get("generator"))

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        return failure_metrics(spec.payload["task"])

    def scoring_rules(self, task_cfg: Mapping[str, Any] | None) -> dict[str, Any]:
        """Success is reaching the goal node: no radius, recorded as `success_distance: null` (the key every
        run's results carry)."""
        return {"success_distance": None}
