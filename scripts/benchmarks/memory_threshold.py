"""Is the feature memory's threshold sane? Best-match cosine scores of categories the agent saw vs did not see.

`python scripts/bench.py memory_threshold --episodes 8 --steps 60` runs ObjectNav episodes of the default dataset
with oracle perception and the frame-feature memory fed by the oracle embedder (text_oracle scorer): the agent
looks around and explores `--steps` steps, then every category of the scene vocabulary is compared with the
memory once. A category is "seen" when an instance of it was observed (ground truth, read here for the
evaluation only). Prints one JSON line: score quantiles of both groups and, per threshold, the share of seen
categories the memory places (and how far from the nearest observed instance) and of unseen ones it places.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from tango.eval import CONFIG_DIR
from tango.harness.episode import EpisodeContext
from tango.perception.memories import FrameFeatureMemory
from tango.tasks.habitat.episode_run import SimEpisode
from tango.tasks.habitat.runner import HabitatRunner
from tango.tasks.objectnav import ObjectNavTask
from tango.trace.writer import Trace

THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7)


class NoFrames:
    enabled = False

    def add(self, *args: Any, **kwargs: Any) -> None:
        """No video."""


def _scores(runner: HabitatRunner, spec: Any, steps: int) -> list[tuple[bool, float, float]]:
    """(seen, best score, metres from the matched place to the nearest observed instance) per category."""
    run = SimEpisode(runner, EpisodeContext(0, Path("."), Path("/dev/null"), NoFrames()), Trace())
    episode = spec.payload
    run.start(episode.scene_id, episode.start_position, episode.start_rotation)
    agent = run.agent
    agent.look_around()
    for _ in range(steps):
        if not agent.explore_step():
            break
    memory, truth = agent.perception.memory, agent.perception.ground_truth
    assert isinstance(memory, FrameFeatureMemory) and memory.store is not None and truth is not None
    observed: dict[str, list[np.ndarray]] = {}
    for entry in truth.observed.objects():
        observed.setdefault(entry.object.category, []).append(np.asarray(entry.last_point))
    rows = []
    for category in sorted({o.category for o in truth.scene.objects.values()}):
        found = memory.store.recall(memory.scorer.text_embedding(category), -1.0, 0.0)
        assert found is not None
        point = memory._area_centre(found.frame_index)
        near = min((float(np.hypot(*(point - p)[[0, 2]])) for p in observed.get(category, [])), default=-1.0)
        rows.append((category in observed, found.score, near))
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=8)
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args(argv)
    from tango.scenes.datasets.default import ensure_default_dataset

    ensure_default_dataset()
    with tempfile.TemporaryDirectory() as out:
        overrides = ["task=objectnav", f"eval.output_dir={out}", "perception=oracle"]
        with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
            cfg = compose(config_name="eval", overrides=[*overrides, "perception.memory.kind=frame_features"])
        config = {str(k): v for k, v in dict(OmegaConf.to_container(cfg, resolve=True)).items()}  # type: ignore[arg-type]
        task = ObjectNavTask()
        specs = task.list_episodes(config)[: args.episodes]
        runner = task.make_runner(config)
        try:
            rows = [row for spec in specs for row in _scores(runner, spec, args.steps)]
        finally:
            runner.close()
    seen = np.array([s for ok, s, _ in rows if ok])
    unseen = np.array([s for ok, s, _ in rows if not ok])
    result: dict[str, Any] = {
        "benchmark": "memory_threshold",
        "embedder": "text_oracle (MiniLM over the annotated categories in view)",
        "episodes": len(specs),
        "steps": args.steps,
        "seen": {"n": int(seen.size), "quantiles": np.quantile(seen, [0.1, 0.5, 0.9]).round(3).tolist()},
        "unseen": {
            "n": int(unseen.size),
            "quantiles": np.quantile(unseen, [0.1, 0.5, 0.9]).round(3).tolist(),
        },
        "thresholds": {},
    }
    for threshold in THRESHOLDS:
        placed = [near for ok, score, near in rows if ok and score >= threshold]
        result["thresholds"][str(threshold)] = {
            "seen_placed": round(len(placed) / max(1, seen.size), 3),
            "seen_placed_median_m": round(float(np.median(placed)), 2) if placed else None,
            "unseen_placed": round(float((unseen >= threshold).mean()), 3) if unseen.size else 0.0,
        }
    print(json.dumps(result))
    return 0
