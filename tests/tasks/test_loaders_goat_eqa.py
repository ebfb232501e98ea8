"""GOAT-Bench and OpenEQA loaders on small hand-written files in the exact published shapes, and their errors.

GOAT-Bench's GoatDatasetV1: per-scene content files with `goals` and `episodes`, `[category, goal_type,
object_id(, image_idx)]` tasks with a null id for object subtasks, `image_goals` as InstanceImageParameters,
`lang_desc`; open-eqa's `open-eqa-v0.json` with its start-pose and facts sidecars.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tango.formats import goat, openeqa
from tango.formats.fields import DatasetError, EpisodeError
from tests.tasks.loader_shapes import GOAT_SCENE, SCENE_CONFIG, hm3d_goal, write_gz


def _goat_goal(
    object_id: int, category: str, lang_desc: str | None, images: int, **extra: Any
) -> dict[str, Any]:
    """A GOAT-Bench goal: ObjectGoal fields, view points, InstanceImageParameters cameras and lang_desc."""
    image = {
        "position": [1.0, 1.31, 2.0],
        "rotation": [0.0, 0.382683, 0.0, 0.92388],
        "hfov": 79,
        "image_dimensions": [512, 512],
        "frame_coverage": 0.2,
        "object_coverage": 0.9,
    }
    return {
        **hm3d_goal(object_id, category),
        "children_object_categories": [],
        "image_goals": [image] * images,
        "object_surface_area": 0.7,
        "lang_desc": lang_desc,
        **extra,
    }


def _goat_content(category: dict[str, str] | None = None) -> dict[str, Any]:
    """One scene's content file; `category` renames categories (the synonyms split uses other names)."""
    name = category or {}
    chair, bed, stool = name.get("chair", "chair"), name.get("bed", "bed"), name.get("stool", "stool")
    long_desc = " ".join(["word"] * 56)
    return {
        "episodes": [
            {
                "episode_id": "0",
                "scene_id": GOAT_SCENE,
                "scene_dataset_config": SCENE_CONFIG,
                "start_position": [0.0, 0.0, 0.0],
                "start_rotation": [0.0, 0.0, 0.0, 1.0],
                "info": {},
                "goals": [],
                "tasks": [
                    [chair, "object", None],
                    [bed, "description", 3],
                    [chair, "image", 9, 0],
                    [bed, "object", None],
                    [chair, "description", 7],
                    [chair, "description", 11],
                ],
            }
        ],
        "goals": {
            f"TEEsavR23oF.basis.glb_{chair}": [
                _goat_goal(7, chair, "the red chair in the kitchen", 0, children_object_categories=[stool]),
                _goat_goal(9, chair, None, 1),
                _goat_goal(11, chair, long_desc, 0),
            ],
            f"TEEsavR23oF.basis.glb_{bed}": [_goat_goal(3, bed, "the large bed next to the lamp", 1)],
            f"TEEsavR23oF.basis.glb_{stool}": [_goat_goal(12, stool, None, 0)],
        },
    }


def _goat_split(root: Path, split: str, content: dict[str, Any]) -> Path:
    write_gz(root / split / f"{split}.json.gz", {"episodes": []})
    write_gz(root / split / "content" / "TEEsavR23oF.json.gz", content)
    return root / split / f"{split}.json.gz"


@pytest.mark.parametrize("split", ["val_seen", "val_unseen"])
def test_goat_reads_published_content_with_null_instance_object_subtasks(tmp_path: Path, split: str) -> None:
    (episode,) = goat.load_episodes(_goat_split(tmp_path, split, _goat_content()))
    kinds = [(t.category, t.goal_type, t.object_id, t.image_idx) for t in episode.tasks]
    assert kinds == [
        ("chair", "object", None, None),
        ("bed", "description", 3, None),
        ("chair", "image", 9, 0),
        ("bed", "object", None, None),
        ("chair", "description", 7, None),
    ]
    assert episode.filtered_subtasks == 1  # GOAT-Bench drops descriptions over 55 words
    any_chair = episode.tasks[0]
    assert any_chair.target is None
    # Any instance of the category succeeds, and the children_object_categories' instances too.
    assert [g.object_id for g in any_chair.goals] == [7, 9, 11, 12]
    assert episode.tasks[1].lang_desc == "the large bed next to the lamp"
    image = episode.tasks[2].image_goal
    assert image is not None and image.hfov == 79 and image.image_dimensions == (512, 512)
    assert [g.object_id for g in episode.tasks[2].goals] == [9]
    assert episode.scene_id == GOAT_SCENE


def test_goat_synonyms_split_reads_renamed_categories(tmp_path: Path) -> None:
    synonyms = {"chair": "seat", "bed": "cot", "stool": "footstool"}
    (episode,) = goat.load_episodes(_goat_split(tmp_path, "val_seen_synonyms", _goat_content(synonyms)))
    assert [t.category for t in episode.tasks] == ["seat", "cot", "seat", "cot", "seat"]
    assert [g.object_id for g in episode.tasks[0].goals] == [7, 9, 11, 12]
    assert episode.tasks[4].lang_desc == "the red chair in the kitchen"


def test_goat_finds_goals_by_category_when_the_key_differs_from_the_scene_file(tmp_path: Path) -> None:
    content = _goat_content()
    content["goals"] = {key.replace(".basis.glb", ""): goals for key, goals in content["goals"].items()}
    (episode,) = goat.load_episodes(_goat_split(tmp_path, "val_seen", content))
    assert [g.object_id for g in episode.tasks[0].goals] == [7, 9, 11]


@pytest.mark.parametrize(
    ("task", "field", "message"),
    [
        (["chair", "description", 99], "tasks[6][2]", "object 99 is not a goal of category 'chair'"),
        (["chair", "image", None, 0], "tasks[6][2]", "object None is not a goal"),
        (["chair", "image", 9, 4], "tasks[6][3]", "image_idx 4 is out of range"),
        (["chair", "image", 9], "tasks[6]", "needs an integer image_idx"),
        (["chair", "description", 9], "tasks[6][2]", "has no lang_desc"),
        (["sofa", "object", None], "goals['TEEsavR23oF.basis.glb_sofa']", "no such key"),
        (["chair", "teleport", 7], "tasks[6][1]", "goal_type 'teleport'"),
    ],
)
def test_goat_bad_subtasks_are_named(tmp_path: Path, task: list[Any], field: str, message: str) -> None:
    content = _goat_content()
    good = copy.deepcopy(content["episodes"][0])
    content["episodes"][0]["tasks"].append(task)
    content["episodes"].append({**good, "episode_id": "1"})
    split = _goat_split(tmp_path, "val_unseen", content)
    loaded = goat.read_episodes(split)
    assert [e.episode_id for e in loaded.episodes] == ["1"]
    (problem,) = loaded.problems
    assert problem.path.endswith("TEEsavR23oF.json.gz") and problem.episode == "episode 0 (episode_id '0')"
    assert problem.field == field and message in problem.detail
    with pytest.raises(EpisodeError, match=r"TEEsavR23oF\.json\.gz: episode 0"):
        goat.load_episodes(split)


def _eqa_question(
    question_id: str, history: str = "hm3d-v0/000-hm3d-BFRyYbPCCPE", **extra: Any
) -> dict[str, Any]:
    return {
        "question": "What is to the left of the desk?",
        "answer": "Chair",
        "category": "spatial understanding",
        "question_id": question_id,
        "episode_history": history,
        **extra,
    }


def test_openeqa_reads_published_shape_with_optional_extra_answers(tmp_path: Path) -> None:
    questions = [
        _eqa_question("f2e82760-5c3c-41b1-88b6-85921b9e7b32"),
        _eqa_question("q2", "scannet-v0/002-scannet-scene0709_00", extra_answers=["by the stairs"]),
    ]
    path = tmp_path / "open-eqa-v0.json"
    path.write_text(json.dumps(questions))
    first, second = openeqa.load_episodes(path)
    assert first.scene == "BFRyYbPCCPE" and first.extra_answers is None and first.start is None
    assert second.extra_answers == ("by the stairs",) and second.scene == "scene0709_00"


def test_openeqa_malformed_question_is_named_and_the_others_kept(tmp_path: Path) -> None:
    path = tmp_path / "open-eqa-v0.json"
    path.write_text(json.dumps([_eqa_question("a"), _eqa_question("b", extra_answers="by the stairs")]))
    loaded = openeqa.read_episodes(path)
    assert [q.question_id for q in loaded.episodes] == ["a"]
    (problem,) = loaded.problems
    assert (problem.episode, problem.field) == ("question 1 (question_id 'b')", "extra_answers")


def test_openeqa_start_poses_from_sidecar(tmp_path: Path) -> None:
    history = "tango-synthetic-v2/000-synthetic-apt_000"
    (tmp_path / "open-eqa-v0.json").write_text(json.dumps([_eqa_question("s-1", history)]))
    start = {"scene_id": "apt_000.glb", "start_position": [1, 0, 2], "start_rotation": [0, 0, 0, 1]}
    (tmp_path / openeqa.STARTS_FILE).write_text(json.dumps({"other": start}))
    with pytest.raises(
        EpisodeError, match=r"question 0 \(question_id 's-1'\): episode_history: .*no start pose"
    ):
        openeqa.load_episodes(tmp_path / "open-eqa-v0.json")
    (tmp_path / openeqa.STARTS_FILE).write_text(
        json.dumps({history: {**start, "start_position": [1, None, 2]}})
    )
    with pytest.raises(EpisodeError, match=r"start_position: must be a list of 3 finite numbers"):
        openeqa.load_episodes(tmp_path / "open-eqa-v0.json")
    (tmp_path / openeqa.STARTS_FILE).write_text(json.dumps({history: start}))
    (question,) = openeqa.load_episodes(tmp_path / "open-eqa-v0.json")
    assert question.scene == "apt_000"
    assert question.start is not None and question.start.start_position == (1.0, 0.0, 2.0)


def test_openeqa_question_facts_sidecar_is_read_for_evaluation(tmp_path: Path) -> None:
    (tmp_path / "open-eqa-v0.json").write_text(json.dumps([_eqa_question("a"), _eqa_question("b")]))
    facts = {"kind": "neighbour", "target": {"category": "desk", "room": "office"}}
    (tmp_path / openeqa.FACTS_FILE).write_text(json.dumps({"a": {"facts": facts, "evidence": [4, 9]}}))
    first, second = openeqa.load_episodes(tmp_path / "open-eqa-v0.json")
    assert first.facts == facts and first.evidence == (4, 9)
    assert second.facts is None and second.evidence == ()
    (tmp_path / openeqa.FACTS_FILE).write_text(json.dumps({"a": {"evidence": [4]}}))
    with pytest.raises(DatasetError, match=r"question_facts\.json: top level must map question_id"):
        openeqa.read_episodes(tmp_path / "open-eqa-v0.json")


def test_goat_description_facts_sidecar_is_attached_to_description_subtasks(tmp_path: Path) -> None:
    split = _goat_split(tmp_path, "val_unseen", _goat_content())
    stated = {"category": "bed", "attributes": {"size": "large"}, "room": None, "near": ["lamp"]}
    (split.parent / goat.FACTS_FILE).write_text(json.dumps({"TEEsavR23oF_3": stated}))
    (episode,) = goat.load_episodes(split)
    assert episode.tasks[1].description_facts == stated
    assert episode.tasks[4].description_facts is None  # no facts given for object 7
    assert all(t.description_facts is None for t in episode.tasks if t.goal_type != "description")
