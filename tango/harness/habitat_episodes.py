"""The episode source of the Habitat benchmarks (objectnav, ovon, goat, openeqa) as harness EpisodeSpecs.

`task.data_path` names the benchmark's own file (a split file or folder for ObjectNav/OVON/GOAT-Bench, the
questions JSON for OpenEQA); when it is null the split of the synthetic default dataset is used (generated
once on first use). Specs carry the loader's episode object as payload and keep the file's order.
`instruction` is the text shown in results (the category, the subtasks, the question); what the agent is
actually given is the runner's business.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from tango.harness.episode import EpisodeSpec

NAV_FAILURE_METRICS = {"success": 0.0, "spl": 0.0, "soft_spl": 0.0}
OPENEQA_QUESTIONS_FILE = "open-eqa-v0.json"
HABITAT_TASKS = ("objectnav", "ovon", "goat", "openeqa")


class UnknownTaskError(ValueError):
    """The task name is not one of the Habitat benchmarks."""


def dataset_path(task_cfg: dict[str, Any]) -> Path:
    """`task.data_path`, or where the configured split lives in the synthetic default dataset."""
    name = str(task_cfg["name"])
    if name not in HABITAT_TASKS:
        raise UnknownTaskError(f"task {name!r} is not a Habitat benchmark ({', '.join(HABITAT_TASKS)})")
    if task_cfg.get("data_path"):
        return Path(str(task_cfg["data_path"]))
    from tango.scenes.datasets.default import ensure_default_dataset

    root = ensure_default_dataset()
    if name == "openeqa":
        return root / "openeqa" / OPENEQA_QUESTIONS_FILE
    split = str(task_cfg["split"])
    return root / name / split / f"{split}.json.gz"


def _unique_ids(raw_ids: list[str], scene_ids: list[str]) -> list[str]:
    """The file's episode ids, or `scene:id` when ids repeat across scenes (HM3D numbers them per scene)."""
    if len(set(raw_ids)) == len(raw_ids):
        return raw_ids
    ids = [f"{Path(scene).name.split('.')[0]}:{episode_id}" for episode_id, scene in zip(raw_ids, scene_ids)]
    repeated = [episode_id for episode_id, count in Counter(ids).items() if count > 1]
    if repeated:
        raise ValueError(f"episode ids repeat within a scene: {repeated[:5]}")
    return ids


def _goat_subtask_text(subtask: Any) -> str:
    if subtask.goal_type == "description" and subtask.lang_desc:
        return f"description: {subtask.lang_desc}"
    if subtask.goal_type == "image":
        return f"image of a {subtask.category}"
    return f"object: {subtask.category}"


def list_habitat_episodes(task_cfg: dict[str, Any]) -> list[EpisodeSpec]:
    """The task's episodes in file order (deterministic), read with the benchmark's loader in tango.tasks."""
    name = str(task_cfg["name"])
    path = dataset_path(task_cfg)
    if name == "openeqa":
        from tango.tasks import openeqa

        questions = openeqa.load_episodes(path)
        return [
            EpisodeSpec(
                episode_id=question.question_id,
                scene_id=question.start.scene_id if question.start else question.scene,
                instruction=question.question,
                payload=question,
            )
            for question in questions
        ]
    if name == "goat":
        from tango.tasks import goat

        episodes: list[Any] = goat.load_episodes(path)
        ids = _unique_ids([e.episode_id for e in episodes], [e.scene_id for e in episodes])
        return [
            EpisodeSpec(
                episode_id=episode_id,
                scene_id=episode.scene_id,
                instruction="; ".join(_goat_subtask_text(subtask) for subtask in episode.tasks),
                payload=episode,
                subtask_goal_types=tuple(subtask.goal_type for subtask in episode.tasks),
            )
            for episode_id, episode in zip(ids, episodes)
        ]
    from tango.tasks import objectnav, ovon

    loader = objectnav.load_episodes if name == "objectnav" else ovon.load_episodes
    episodes = loader(path)
    ids = _unique_ids([e.episode_id for e in episodes], [e.scene_id for e in episodes])
    return [
        EpisodeSpec(
            episode_id=episode_id,
            scene_id=episode.scene_id,
            instruction=episode.object_category,
            payload=episode,
        )
        for episode_id, episode in zip(ids, episodes)
    ]


def habitat_failure_metrics(task_cfg: dict[str, Any]) -> dict[str, float]:
    """What an episode that raised scores: navigation metrics 0; OpenEQA scores 0 (LLM-Match 0 when judged)."""
    if task_cfg["name"] != "openeqa":
        return dict(NAV_FAILURE_METRICS)
    judged = bool((task_cfg.get("judge") or {}).get("enabled"))
    return {"normalised_match": 0.0, **({"llm_match": 0.0} if judged else {})}
