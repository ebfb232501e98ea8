"""Loaders on tiny hand-written files in the exact published shapes, and their errors on bad input."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tango.tasks import goat, objectnav, openeqa, ovon
from tango.tasks.episodes import DatasetError, resolve_scene_path

HM3D_SCENE = "hm3d/val/00800-TEEsavR23oF/TEEsavR23oF.basis.glb"
VIEW = {"agent_state": {"position": [1.0, 0.0, 2.0], "rotation": [0.0, 0.38, 0.0, 0.92]}, "iou": 0.31}


def _write_gz(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(data, fh)


def _nav_goal(object_id: int, category: str, **extra: Any) -> dict[str, Any]:
    return {
        "object_category": category,
        "object_id": object_id,
        "position": [1.5, 0.4, 2.5],
        "view_points": [VIEW],
        **extra,
    }


def _nav_episode(episode_id: str, category: str) -> dict[str, Any]:
    return {
        "episode_id": episode_id,
        "scene_id": HM3D_SCENE,
        "start_position": [0.0, 0.0, 0.0],
        "start_rotation": [0.0, 0.0, 0.0, 1.0],
        "object_category": category,
        "info": {"geodesic_distance": 4.2, "euclidean_distance": 3.0, "closest_goal_object_id": 7},
        "goals": [],
        "shortest_paths": None,
    }


def _objectnav_split(root: Path) -> Path:
    cats = {"chair": 0, "bed": 1}
    _write_gz(
        root / "val.json.gz",
        {"episodes": [], "category_to_task_category_id": cats, "category_to_mp3d_category_id": cats},
    )
    _write_gz(
        root / "content" / "TEEsavR23oF.json.gz",
        {
            "episodes": [_nav_episode("0", "chair"), _nav_episode("1", "bed")],
            "goals_by_category": {
                "TEEsavR23oF.basis.glb_chair": [_nav_goal(7, "chair"), _nav_goal(9, "chair")],
                "TEEsavR23oF.basis.glb_bed": [_nav_goal(3, "bed")],
            },
            "category_to_task_category_id": cats,
            "category_to_mp3d_category_id": cats,
        },
    )
    return root / "val.json.gz"


def test_objectnav_reads_hm3d_shaped_split_and_fills_goals(tmp_path: Path) -> None:
    episodes = objectnav.load_episodes(_objectnav_split(tmp_path / "val"))
    assert [e.object_category for e in episodes] == ["chair", "bed"]
    chair = episodes[0]
    assert chair.scene_id == HM3D_SCENE
    assert chair.start_rotation == (0.0, 0.0, 0.0, 1.0)
    assert chair.info["geodesic_distance"] == pytest.approx(4.2)
    assert [g.object_id for g in chair.goals] == [7, 9]
    view = chair.goals[0].view_points[0]
    assert view.agent_state.position == (1.0, 0.0, 2.0) and view.iou == pytest.approx(0.31)


def test_objectnav_split_directory_is_accepted(tmp_path: Path) -> None:
    _objectnav_split(tmp_path / "val")
    assert len(objectnav.load_episodes(tmp_path / "val")) == 2


def test_ovon_key_uses_scene_basename_with_basis(tmp_path: Path) -> None:
    goal = _nav_goal(7, "chair", children_object_categories=["armchair"])
    episode = _nav_episode("5", "chair")
    _write_gz(tmp_path / "val_unseen" / "val_unseen.json.gz", {"episodes": []})
    _write_gz(
        tmp_path / "val_unseen" / "content" / "TEEsavR23oF.json.gz",
        {"episodes": [episode], "goals_by_category": {"TEEsavR23oF.basis.glb_chair": [goal]}},
    )
    (loaded,) = ovon.load_episodes(tmp_path / "val_unseen" / "val_unseen.json.gz")
    assert loaded.goals[0].children_object_categories == ("armchair",)
    assert loaded.shortest_paths is None


def test_nav_episode_with_unknown_goal_key_names_file_and_key(tmp_path: Path) -> None:
    split = _objectnav_split(tmp_path / "val")
    content = tmp_path / "val" / "content" / "TEEsavR23oF.json.gz"
    with gzip.open(content, "rt") as fh:
        data = json.load(fh)
    data["episodes"].append(_nav_episode("2", "sofa"))
    _write_gz(content, data)
    with pytest.raises(DatasetError, match=r"TEEsavR23oF\.json\.gz.*TEEsavR23oF\.basis\.glb_sofa"):
        objectnav.load_episodes(split)


def test_missing_and_malformed_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="nothere.json.gz: file not found"):
        objectnav.load_episodes(tmp_path / "nothere.json.gz")
    bad = tmp_path / "open-eqa-v0.json"
    bad.write_text('[{"question": ')
    with pytest.raises(DatasetError, match="open-eqa-v0.json: malformed JSON"):
        openeqa.load_episodes(bad)


def test_missing_field_is_named(tmp_path: Path) -> None:
    split = _objectnav_split(tmp_path / "val")
    content = tmp_path / "val" / "content" / "TEEsavR23oF.json.gz"
    episode = _nav_episode("3", "chair")
    del episode["start_rotation"]
    _write_gz(
        content,
        {
            "episodes": [episode],
            "goals_by_category": {"TEEsavR23oF.basis.glb_chair": [_nav_goal(7, "chair")]},
        },
    )
    with pytest.raises(DatasetError, match="episode 0 has no field 'start_rotation'"):
        objectnav.load_episodes(split)


def _goat_content() -> dict[str, Any]:
    image = {
        "position": [1.0, 0.88, 2.0],
        "rotation": [0.0, 0.38, 0.0, 0.92],
        "hfov": 79,
        "image_dimensions": [512, 512],
        "frame_coverage": 0.2,
        "object_coverage": 0.9,
    }
    return {
        "episodes": [
            {
                "episode_id": "0",
                "scene_id": HM3D_SCENE,
                "start_position": [0.0, 0.0, 0.0],
                "start_rotation": [0.0, 0.0, 0.0, 1.0],
                "info": {},
                "tasks": [
                    ["chair", "object", 7],
                    ["bed", "description", 3],
                    ["chair", "image", 9, 0],
                    ["bed", "object", 3],
                    ["chair", "description", 7],
                ],
            }
        ],
        "goals": {
            "TEEsavR23oF.basis.glb_chair": [
                {**_nav_goal(7, "chair"), "image_goals": [], "lang_desc": "the red chair in the kitchen"},
                {**_nav_goal(9, "chair"), "image_goals": [image], "lang_desc": None},
            ],
            "TEEsavR23oF.basis.glb_bed": [
                {**_nav_goal(3, "bed"), "image_goals": [image], "lang_desc": "the large bed next to the lamp"}
            ],
        },
    }


def test_goat_reads_tasks_of_all_goal_types(tmp_path: Path) -> None:
    _write_gz(tmp_path / "val_unseen" / "val_unseen.json.gz", {"episodes": []})
    _write_gz(tmp_path / "val_unseen" / "content" / "TEEsavR23oF.json.gz", _goat_content())
    (episode,) = goat.load_episodes(tmp_path / "val_unseen")
    kinds = [(t.category, t.goal_type, t.object_id, t.image_idx) for t in episode.tasks]
    assert kinds[:3] == [
        ("chair", "object", 7, None),
        ("bed", "description", 3, None),
        ("chair", "image", 9, 0),
    ]
    assert [g.object_id for g in episode.tasks[0].goals] == [7, 9]
    assert episode.tasks[1].lang_desc == "the large bed next to the lamp"
    image = episode.tasks[2].image_goal
    assert image is not None and image.hfov == 79 and image.image_dimensions == (512, 512)
    assert [g.object_id for g in episode.tasks[2].goals] == [9]


@pytest.mark.parametrize(
    ("task", "message"),
    [
        (["chair", "object", 99], "unknown object 99"),
        (["chair", "image", 9, 4], "image_idx 4 is out of range"),
        (["chair", "description", 9], "has no lang_desc"),
        (["sofa", "object", 1], "unknown goal key 'TEEsavR23oF.basis.glb_sofa'"),
        (["chair", "teleport", 7], "goal_type 'teleport'"),
    ],
)
def test_goat_bad_subtasks_are_named(tmp_path: Path, task: list[Any], message: str) -> None:
    content = _goat_content()
    content["episodes"][0]["tasks"].append(task)
    _write_gz(tmp_path / "val_unseen" / "val_unseen.json.gz", {"episodes": []})
    _write_gz(tmp_path / "val_unseen" / "content" / "TEEsavR23oF.json.gz", content)
    with pytest.raises(DatasetError, match=message) as info:
        goat.load_episodes(tmp_path / "val_unseen")
    assert "TEEsavR23oF.json.gz" in str(info.value)


def test_openeqa_reads_published_shape_with_optional_extra_answers(tmp_path: Path) -> None:
    questions = [
        {
            "question": "What is to the left of the desk?",
            "answer": "Chair",
            "category": "spatial understanding",
            "question_id": "q1",
            "episode_history": "hm3d-v0/000-hm3d-BFRyYbPCCPE",
        },
        {
            "question": "Where is the mirror?",
            "answer": "Next to the staircase",
            "category": "object localization",
            "question_id": "q2",
            "episode_history": "hm3d-v0/000-hm3d-BFRyYbPCCPE",
            "extra_answers": ["by the stairs"],
        },
    ]
    path = tmp_path / "open-eqa-v0.json"
    path.write_text(json.dumps(questions))
    first, second = openeqa.load_episodes(path)
    assert first.scene == "BFRyYbPCCPE" and first.extra_answers is None and first.start is None
    assert second.extra_answers == ("by the stairs",) and second.category == "object localization"


def test_openeqa_start_poses_from_sidecar(tmp_path: Path) -> None:
    history = "tango-synthetic-v1/000-synthetic-apt_000"
    (tmp_path / "open-eqa-v0.json").write_text(
        json.dumps(
            [
                {
                    "question": "q?",
                    "answer": "a",
                    "category": "world knowledge",
                    "question_id": "s-1",
                    "episode_history": history,
                }
            ]
        )
    )
    (tmp_path / openeqa.STARTS_FILE).write_text(
        json.dumps(
            {
                "other": {
                    "scene_id": "apt_000.glb",
                    "start_position": [0, 0, 0],
                    "start_rotation": [0, 0, 0, 1],
                }
            }
        )
    )
    with pytest.raises(DatasetError, match="episode_starts.json: no start pose"):
        openeqa.load_episodes(tmp_path / "open-eqa-v0.json")
    (tmp_path / openeqa.STARTS_FILE).write_text(
        json.dumps(
            {
                history: {
                    "scene_id": "apt_000.glb",
                    "start_position": [1, 0, 2],
                    "start_rotation": [0, 0, 0, 1],
                }
            }
        )
    )
    (question,) = openeqa.load_episodes(tmp_path / "open-eqa-v0.json")
    assert question.scene == "apt_000"
    assert question.start is not None and question.start.start_position == (1.0, 0.0, 2.0)


def test_split_without_content_is_an_error(tmp_path: Path) -> None:
    _write_gz(tmp_path / "val" / "val.json.gz", {"episodes": [], "category_to_task_category_id": {}})
    with pytest.raises(DatasetError, match=r"val\.json\.gz: no episodes"):
        objectnav.load_episodes(tmp_path / "val")
    with pytest.raises(DatasetError, match="no episodes"):
        goat.load_episodes(tmp_path / "val")


def test_scene_paths_resolve_like_habitat(tmp_path: Path) -> None:
    assert resolve_scene_path(HM3D_SCENE, tmp_path) == tmp_path / HM3D_SCENE
    assert resolve_scene_path("data/scene_datasets/" + HM3D_SCENE, tmp_path) == tmp_path / HM3D_SCENE
    assert resolve_scene_path("/abs/apt_000.glb", tmp_path) == Path("/abs/apt_000.glb")
