"""Fixed episodes whose actions and metrics are recorded once, so that speed work can prove it changed nothing.

`python -m tests.perf.golden --record` regenerates `golden_episodes.json` (only on code whose behaviour is the
reference); the test compares a fresh run against it. The file also stores a fingerprint of the generated
dataset: when dataset generation changes, the comparison is meaningless and the test says to re-record.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tango.agent.sim_session import SimSession
from tango.harness.episode import (
    EpisodeContext,
    EpisodeResult,
    EpisodeRunner,
    EpisodeSpec,
    TaskPlugin,
    load_plugin,
)
from tango.harness.run import run_evaluation
from tango.scenes.datasets.generate import DatasetConfig, generate_dataset
from tango.scenes.datasets.goat import GoatConfig
from tango.scenes.datasets.objectnav import ObjectNavConfig
from tango.scenes.datasets.openeqa import OpenEQAConfig
from tango.scenes.datasets.ovon import OVONConfig
from tests.agent.synthetic import eval_config, read_jsonl

GOLDEN_FILE = Path(__file__).resolve().parent / "golden_episodes.json"
DATASET = DatasetConfig(
    num_scenes=2,
    seed=5,
    objectnav=ObjectNavConfig(episodes_per_scene=2),
    ovon=OVONConfig(episodes_per_scene=1),
    goat=GoatConfig(episodes_per_scene=1, min_subtasks=5, max_subtasks=5),
    openeqa=OpenEQAConfig(histories_per_scene=1),
)
RUNS = {
    "objectnav": ("objectnav", 4, ()),
    "goat": ("goat", 1, ("task.program=subtask",)),
    "goat-episode": ("goat", 1, ("task.program=episode",)),
    "ovon-vlfm-map": ("ovon", 2, ("agent.map.explored_method=vlfm",)),
}
"""Run name -> (task, number of episodes, overrides): the default loop, GOAT with one program per subtask and one
per episode, and VLFM's explored-area method."""
MAX_STEPS = 150
"""Step budget per episode (GOAT: shared by its subtasks, as GOAT-Bench): short, yet long enough to explore, plan
and stop."""
ACTION_CODES = {"stop": "S", "move_forward": "F", "turn_left": "L", "turn_right": "R", "look_up": "U",
                "look_down": "D"}  # fmt: skip
RECORD_KEYS = ("metrics", "num_steps", "subtasks", "failure_reason", "program")


class ActionRecordingTask:
    """Wraps a task's plugin so that its runners log every simulator action of each episode, one letter a step."""

    def __init__(self, task: TaskPlugin) -> None:
        self.task = task
        self.actions: dict[str, str] = {}

    def list_episodes(self, cfg: dict[str, Any]) -> list[EpisodeSpec]:
        return self.task.list_episodes(cfg)

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        return self.task.failure_metrics(spec)

    def scoring_rules(self, task_cfg: Mapping[str, Any] | None) -> dict[str, Any]:
        return self.task.scoring_rules(task_cfg)

    def aggregate(self, subtasks: list[dict[str, Any]]) -> dict[str, Any] | None:
        return self.task.aggregate(subtasks)

    def outcome(self, metrics: Mapping[str, Any]) -> float | None:
        return self.task.outcome(metrics)

    def make_runner(self, cfg: dict[str, Any]) -> EpisodeRunner:
        runner: Any = self.task.make_runner(cfg)
        session: SimSession = runner.session
        step = session.step
        run_episode = runner.run
        current: list[str] = []

        def recording_step(action: str) -> Any:
            current.append(ACTION_CODES[action])
            return step(action)

        def recording_episode(spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
            current.clear()
            result = run_episode(spec, ctx)
            self.actions[spec.episode_id] = "".join(current)
            return result

        session.step = recording_step  # type: ignore[method-assign]
        runner.run = recording_episode
        return runner


def golden_dataset(base: Path) -> Path:
    """The small dataset the golden episodes run on, generated under `base` on first use."""
    root = base / "golden_dataset"
    if not (root / "dataset.json").is_file():
        generate_dataset(root, DATASET)
    return root


def dataset_fingerprint(root: Path) -> str:
    """sha256 over the scene meshes, annotations and episode files of the dataset (gzip files by their content:
    their headers hold the time of writing); the PointNav files, added after the recording and read by no
    golden run, are left out."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.name != "dataset.json" and path.relative_to(root).parts[0] != "pointnav":
            digest.update(str(path.relative_to(root)).encode())
            digest.update(gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes())
    return digest.hexdigest()


def run_golden(
    root: Path, out: Path, names: tuple[str, ...] = tuple(RUNS), *overrides: str, record_actions: bool = True
) -> dict[str, Any]:
    """Run the named golden runs; "run/episode id" -> actions (when recorded: only in this process, so not with
    pool workers) and the recorded results fields."""
    episodes: dict[str, Any] = {}
    if not any(o.startswith("eval.num_workers=") for o in overrides):
        overrides = ("eval.num_workers=1", *overrides)
    for name in names:
        task, count, run_overrides = RUNS[name]
        config = eval_config(
            root, task, out / name, f"eval.num_episodes={count}", f"task.max_steps={MAX_STEPS}",
            *run_overrides, *overrides,
        )  # fmt: skip
        plugin = ActionRecordingTask(load_plugin(config["task"]["plugin"], task)) if record_actions else None
        run_evaluation(config, plugin=plugin)
        for record in read_jsonl(out / name / "episodes.jsonl"):
            key = f"{name}/{record['episode_id']}"
            episodes[key] = {field: record.get(field) for field in RECORD_KEYS}
            if plugin is not None:
                episodes[key]["actions"] = plugin.actions[record["episode_id"]]
    return episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--record", action="store_true", help=f"write {GOLDEN_FILE.name}")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tango-golden-") as tmp:
        root = golden_dataset(Path(tmp))
        golden = {
            "dataset_fingerprint": dataset_fingerprint(root),
            "max_steps": MAX_STEPS,
            "episodes": run_golden(root, Path(tmp) / "runs"),
        }
    text = json.dumps(golden, indent=1, sort_keys=True) + "\n"
    if args.record:
        GOLDEN_FILE.write_text(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
