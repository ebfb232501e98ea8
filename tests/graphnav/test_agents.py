"""GraphNav agents: the program agent with oracle landmarks, the random baseline, the VLM agent over a local
chat server, and CLIP recognition wired with a tiny random-weight open_clip model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import open_clip  # before any GL context: a late open_clip import next to Mesa llvmpipe segfaults
import pytest

from tango.benchmarks.graphnav.agents import ProgramAgent, RandomAgent, VLMAgent
from tango.benchmarks.graphnav.conditions import get_condition
from tango.benchmarks.graphnav.config import ClipConfig, GenerateConfig, GraphNavConfig
from tango.benchmarks.graphnav.env import EnvConfig, GraphNavEnv
from tango.benchmarks.graphnav.recognition import ClipLandmarks, OpenClipEmbedder, OracleLandmarks
from tango.benchmarks.graphnav.runner import GraphNavRunner, few_shot_examples, iter_episodes, run_episode
from tango.benchmarks.graphnav.templates import template_program
from tango.benchmarks.graphnav.views import RenderedViews, ViewConfig
from tango.llm import ChatClient, LLMConfig
from tests.graphnav.support import EXAMPLE_NAME, EXAMPLE_TEXT, example_episode, example_maze
from tests.support.chat_server import ChatServer, Reply


@pytest.fixture(scope="module")
def example_views() -> RenderedViews:
    maze, graph = example_maze()
    views = RenderedViews(maze, graph, ViewConfig(resolution=64))
    yield views
    views.close()


def example_env(views: RenderedViews, task: str, start: int, goal: int, condition: str = "C3") -> GraphNavEnv:
    return GraphNavEnv(
        example_episode(task, start, goal), views.graph, views, get_condition(condition), EnvConfig()
    )


def test_program_agent_takes_the_seen_shortcut(example_views: RenderedViews) -> None:
    env = example_env(example_views, "shortcut", 0, 3)
    outcome = ProgramAgent(lambda _env: OracleLandmarks()).run(env, template_program("shortcut"))
    assert env.state.success and env.state.path == [(1, 4), (1, 2)]
    assert "navigate_to(goal)" in outcome.program and outcome.failure_reason is None


def test_program_agent_reverses_back_to_the_unnamed_start(example_views: RenderedViews) -> None:
    env = example_env(example_views, "reversed", 3, 0)  # the goal is where exploration began
    ProgramAgent(lambda _env: OracleLandmarks()).run(env, template_program("reversed"))
    assert env.state.path == [(1, 2), (4, 2), (4, 4), (1, 4)] and env.metrics()["pfs"] == 1.0


def test_program_agent_with_oracle_landmarks_on_generated_mazes(tmp_path: Path) -> None:
    config = GraphNavConfig(
        data_root=str(tmp_path / "data"),
        resolution=64,
        generate=GenerateConfig(sizes=[5, 9, 13, 17], mazes_per_size=1, episodes_per_task=3),
    )
    runner = GraphNavRunner(config)
    results = [run_episode(episode, config, runner) for episode in iter_episodes(config)]
    runner.close()
    assert len(results) == 36
    success = np.mean([r.metrics["success"] for r in results])
    assert success >= 0.95
    for result in results:
        keys = set(result.metrics)
        assert {"success", "num_steps", "invalid_actions"} <= keys
        assert ("pfs" in keys) == (result.extra["task"] != "shortcut")
        assert ("spl" in keys) == (result.extra["task"] == "shortcut")


def test_random_baseline_is_seeded_and_scored(example_views: RenderedViews) -> None:
    paths = []
    for _ in range(2):
        env = example_env(example_views, "repeated", 0, 4)
        RandomAgent(seed=3).run(env)
        assert env.state.done and set(env.metrics()) == {"success", "num_steps", "invalid_actions", "pfs"}
        paths.append(env.state.path)
    assert paths[0] == paths[1]


def test_vlm_agent_prompt_tokens_and_retry(example_views: RenderedViews) -> None:
    env = example_env(example_views, "shortcut", 0, 3, condition="C4")
    with ChatServer() as server:
        server.queue(Reply("1"), Reply("I would go 3"))  # a wall first, then the right turn
        client = ChatClient(LLMConfig(model="test-vlm", base_url=server.base_url, api_key="x", max_retries=0))
        outcome = VLMAgent(client).run(env, few_shot_examples(env))
    assert env.state.success and env.metrics()["invalid_actions"] == 1.0
    assert outcome.llm_calls == 2 and outcome.prompt_tokens == 22
    first, second = server.requests
    assert "1 / 2 / 3" in first["messages"][0]["content"]
    parts = first["messages"][1]["content"]
    texts = [p["text"] for p in parts if p["type"] == "text"]
    images = [p for p in parts if p["type"] == "image_url"]
    assert len(images) == len(few_shot_examples(env)) + 5 + 2  # examples, exploration, destination, current
    assert "Destination:" in texts and any(t.startswith("action: 2") for t in texts)
    assert "wall" in json.dumps(second["messages"][1]["content"][-2])


def test_vlm_agent_answers_with_non_tokens_get_feedback(example_views: RenderedViews) -> None:
    env = example_env(example_views, "shortcut", 0, 3, condition="C1")
    with ChatServer() as server:
        server.queue(Reply("north please"), Reply("right"))
        client = ChatClient(LLMConfig(model="m", base_url=server.base_url, api_key="x", max_retries=0))
        VLMAgent(client).run(env, few_shot_examples(env))
        assert "not an action" in json.dumps(server.requests[1]["messages"][1]["content"])
    assert env.state.success


TINY_CLIP = {
    "embed_dim": 16,
    "vision_cfg": {"image_size": 32, "layers": 1, "width": 32, "patch_size": 8, "head_width": 16},
    "text_cfg": {"context_length": 16, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 1},
}


@pytest.fixture(scope="module")
def tiny_clip_name(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Registers a tiny open_clip architecture (random weights: wiring only, no recognition quality)."""
    folder = tmp_path_factory.mktemp("clip")
    (folder / "tango-tiny-clip.json").write_text(json.dumps(TINY_CLIP))
    open_clip.add_model_config(folder)
    return "tango-tiny-clip"


def test_clip_recognition_wiring_with_tiny_random_weights(
    tiny_clip_name: str, example_views: RenderedViews
) -> None:
    embedder = OpenClipEmbedder(tiny_clip_name)
    env = example_env(example_views, "shortcut", 0, 3)
    examples = few_shot_examples(env)
    walls = [v.rgb for label, v in examples if label.startswith("wall")]
    paths = [v.rgb for label, v in examples if label.startswith("path")]
    assert walls and paths
    recognizer = ClipLandmarks(embedder, walls, paths, match_threshold=0.999)
    view = env.observe()
    first, again = recognizer.read_view(view), recognizer.read_view(view)
    assert len(first) == 3 and first == again  # the same views map to the same gallery keys
    assert recognizer.read_destination(env.destination()) is not None


def test_runner_with_clip_recognition_loads_the_model_once(tiny_clip_name: str, tmp_path: Path) -> None:
    (tmp_path / "mazes").mkdir()
    (tmp_path / "mazes" / f"{EXAMPLE_NAME}.txt").write_text(EXAMPLE_TEXT)
    config = GraphNavConfig(
        data_root=str(tmp_path),
        recognition="clip",
        resolution=48,
        clip=ClipConfig(model=tiny_clip_name, match_threshold=0.999),
    )
    runner = GraphNavRunner(config)
    first = run_episode(example_episode("shortcut", 0, 3), config, runner)
    embedder = runner._embedder
    second = run_episode(example_episode("repeated", 0, 4), config, runner)
    runner.close()
    assert embedder is not None and runner._embedder is embedder
    assert runner.describe()["perception"]["name"] == "graphnav-clip"
    for result in (first, second):
        assert {"success", "num_steps", "invalid_actions"} <= set(result.metrics)
        assert result.failure_reason is None or result.metrics["success"] == 0.0
