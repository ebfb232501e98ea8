"""Loaders on small hand-written files in the exact published shapes, and their errors on bad input.

The shapes follow each benchmark's own dataset code: habitat-lab's ObjectNavDatasetV1 (ObjectGoal,
ObjectViewLocation), ovon's OVONDatasetV1 (string object ids "..._{n}", view point `radius`, episode
`children_object_categories`), GOAT-Bench's GoatDatasetV1 (per-scene content files with `goals` and
`episodes`, `[category, goal_type, object_id(, image_idx)]` tasks with a null id for object subtasks,
`image_goals` as InstanceImageParameters, `lang_desc`), and open-eqa's `open-eqa-v0.json`.
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tango.formats import goat, objectnav, openeqa, ovon
from tango.formats.fields import DatasetError, EpisodeError
from tango.formats.nav_episodes import resolve_scene_path

HM3D_SCENE = "hm3d/val/00800-TEEsavR23oF/TEEsavR23oF.basis.glb"
GOAT_SCENE = "hm3d/val//00800-TEEsavR23oF/TEEsavR23oF.basis.glb"  # as GOAT-Bench publishes it (double slash)
SCENE_CONFIG = "./data/scene_datasets/hm3d/hm3d_annotated_basis.scene_dataset_config.json"
VIEW = {"agent_state": {"position": [1.0, 0.0, 2.0], "rotation": [0.0, 0.382683, 0.0, 0.92388]}, "iou": 0.31}


def _write_gz(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(data, fh)


def _read_gz(path: Path) -> Any:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _hm3d_goal(object_id: int, category: str, room: str = "bedroom") -> dict[str, Any]:
    """habitat-lab ObjectGoal fields as HM3D ObjectNav files carry them."""
    return {
        "position": [1.5, 0.4, 2.5],
        "radius": None,
        "object_id": object_id,
        "object_name": f"{category}_{object_id}",
        "object_name_id": None,
        "object_category": category,
        "room_id": None,
        "room_name": room,
        "view_points": [VIEW, {**VIEW, "iou": 0.12}],
    }


def _hm3d_episode(episode_id: str, category: str, scene: str = HM3D_SCENE) -> dict[str, Any]:
    return {
        "episode_id": episode_id,
        "scene_id": scene,
        "scene_dataset_config": SCENE_CONFIG,
        "additional_obj_config_paths": [],
        "start_position": [0.0, 0.0, 0.0],
        "start_rotation": [0.0, 0.0, 0.0, 1.0],
        "info": {"geodesic_distance": 4.2, "euclidean_distance": 3.0, "closest_goal_object_id": 7},
        "goals": [],
        "start_room": None,
        "shortest_paths": None,
        "object_category": category,
    }


def _objectnav_split(root: Path, version: int = 1) -> Path:
    """An HM3D ObjectNav split: v1 names the annotation map category_to_mp3d_category_id, v2
    category_to_scene_annotation_category_id (habitat-lab's from_json reads either)."""
    cats = {"chair": 0, "bed": 1}
    mapping = "category_to_mp3d_category_id" if version == 1 else "category_to_scene_annotation_category_id"
    header = {"episodes": [], "category_to_task_category_id": cats, mapping: cats}
    _write_gz(root / "val.json.gz", header)
    _write_gz(
        root / "content" / "TEEsavR23oF.json.gz",
        {
            **header,
            "episodes": [_hm3d_episode("0", "chair"), _hm3d_episode("1", "bed")],
            "goals_by_category": {
                "TEEsavR23oF.basis.glb_chair": [_hm3d_goal(7, "chair"), _hm3d_goal(9, "chair", "kitchen")],
                "TEEsavR23oF.basis.glb_bed": [_hm3d_goal(3, "bed")],
            },
        },
    )
    return root / "val.json.gz"


@pytest.mark.parametrize("version", [1, 2])
def test_objectnav_reads_hm3d_v1_and_v2_splits_and_fills_goals(tmp_path: Path, version: int) -> None:
    episodes = objectnav.load_episodes(_objectnav_split(tmp_path / "val", version))
    assert [e.object_category for e in episodes] == ["chair", "bed"]
    chair = episodes[0]
    assert chair.scene_id == HM3D_SCENE
    assert chair.start_rotation == (0.0, 0.0, 0.0, 1.0)
    assert chair.info["geodesic_distance"] == pytest.approx(4.2)
    assert [g.object_id for g in chair.goals] == [7, 9]
    view = chair.goals[0].view_points[0]
    assert view.agent_state.position == (1.0, 0.0, 2.0) and view.iou == pytest.approx(0.31)
    assert [g.object_id for g in episodes[1].goals] == [3]


def test_objectnav_split_directory_is_accepted(tmp_path: Path) -> None:
    _objectnav_split(tmp_path / "val")
    assert len(objectnav.load_episodes(tmp_path / "val")) == 2


def test_objectnav_episodes_with_inline_goals_are_read_like_habitat_dedup(tmp_path: Path) -> None:
    episode = {**_hm3d_episode("0", "chair"), "goals": [_hm3d_goal(7, "chair")]}
    _write_gz(tmp_path / "val" / "val.json.gz", {"episodes": [episode], "category_to_task_category_id": {}})
    (loaded,) = objectnav.load_episodes(tmp_path / "val")
    assert [g.object_id for g in loaded.goals] == [7]


def _ovon_split(root: Path, split: str) -> Path:
    """An HM3D-OVON split: goal ids as ovon publishes them (strings ending in "_{id}"), view points with a
    radius, and an episode whose children_object_categories add the armchair's goals to the chair's."""
    view = {**VIEW, "radius": 0.8}

    def goal(object_id: str, category: str) -> dict[str, Any]:
        return {
            "object_category": category,
            "object_id": object_id,
            "position": [1.5, 0.4, 2.5],
            "view_points": [view],
        }

    episode = {
        **_hm3d_episode("5", "chair"),
        "children_object_categories": ["armchair", "stool"],
        "info": {"geodesic_distance": 3.1, "euclidean_distance": 2.2},
    }
    _write_gz(root / f"{split}.json.gz", {"episodes": []})
    _write_gz(
        root / "content" / "TEEsavR23oF.json.gz",
        {
            "episodes": [episode, {**_hm3d_episode("6", "armchair"), "children_object_categories": []}],
            "goals_by_category": {
                "TEEsavR23oF.basis.glb_chair": [goal("0_3_17", "chair")],
                "TEEsavR23oF.basis.glb_armchair": [goal("0_3_21", "armchair"), goal("0_4_22", "armchair")],
            },
        },
    )
    return root


@pytest.mark.parametrize("split", ["val_seen", "val_seen_synonyms", "val_unseen"])
def test_ovon_reads_published_ids_radius_and_children_categories(tmp_path: Path, split: str) -> None:
    chair, armchair = ovon.load_episodes(_ovon_split(tmp_path / split, split) / f"{split}.json.gz")
    assert chair.children_object_categories == ("armchair", "stool")
    assert [g.object_id for g in chair.goals] == [17, 21, 22]  # "stool" has no goals in this scene
    assert [g.object_category for g in chair.goals] == ["chair", "armchair", "armchair"]
    assert [g.object_id for g in armchair.goals] == [21, 22]
    assert chair.shortest_paths is None and chair.info["euclidean_distance"] == pytest.approx(2.2)


def test_nav_episode_with_unknown_goal_key_is_a_named_episode_problem(tmp_path: Path) -> None:
    split = _objectnav_split(tmp_path / "val")
    content = tmp_path / "val" / "content" / "TEEsavR23oF.json.gz"
    data = _read_gz(content)
    data["episodes"].append(_hm3d_episode("2", "sofa"))
    _write_gz(content, data)
    loaded = objectnav.read_episodes(split)
    assert [e.episode_id for e in loaded.episodes] == ["0", "1"]
    (problem,) = loaded.problems
    assert problem.path == str(content) and problem.episode == "episode 2 (episode_id '2')"
    assert problem.field == "goals_by_category['TEEsavR23oF.basis.glb_sofa']"
    with pytest.raises(
        EpisodeError, match=r"TEEsavR23oF\.json\.gz: episode 2 .*TEEsavR23oF\.basis\.glb_sofa"
    ):
        objectnav.load_episodes(split)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (lambda e: e.pop("start_rotation"), "start_rotation", "missing"),
        (lambda e: e.update(start_position=[float("nan"), 0.0, 1.0]), "start_position", "finite numbers"),
        (lambda e: e.update(start_position=[0.0, 1.0]), "start_position", "3 finite numbers"),
        (lambda e: e.update(start_rotation=[0.0, 0.0, 0.0, 2.0]), "start_rotation", "unit quaternion"),
        (lambda e: e.update(scene_id=None), "scene_id", "non-empty string"),
        (lambda e: e.update(info=[1]), "info", "JSON object"),
    ],
)
def test_a_malformed_episode_is_reported_by_file_episode_and_field(
    tmp_path: Path, change: Any, field: str, message: str
) -> None:
    split = _objectnav_split(tmp_path / "val")
    content = tmp_path / "val" / "content" / "TEEsavR23oF.json.gz"
    data = _read_gz(content)
    change(data["episodes"][1])
    _write_gz(content, data)
    loaded = objectnav.read_episodes(split)
    assert [e.episode_id for e in loaded.episodes] == ["0"]
    (problem,) = loaded.problems
    assert (problem.path, problem.episode, problem.field) == (
        str(content),
        "episode 1 (episode_id '1')",
        field,
    )
    assert message in problem.detail
    with pytest.raises(EpisodeError) as refused:
        objectnav.load_episodes(split)
    assert str(refused.value).startswith(f"{content}: episode 1 (episode_id '1'): {field}: ")


def test_nan_start_position_written_by_python_json_names_the_field(tmp_path: Path) -> None:
    episode = {**_hm3d_episode("0", "chair"), "start_position": [float("nan"), 0.0, 0.0]}
    good = _hm3d_episode("1", "chair")
    path = tmp_path / "val" / "val.json.gz"
    _write_gz(
        path,
        {
            "episodes": [episode, good],
            "goals_by_category": {"TEEsavR23oF.basis.glb_chair": [_hm3d_goal(7, "chair")]},
        },
    )
    assert "NaN" in gzip.decompress(path.read_bytes()).decode()
    with pytest.raises(
        EpisodeError, match=r"val\.json\.gz: episode 0 \(episode_id '0'\): start_position: .*nan"
    ):
        objectnav.load_episodes(path)
    assert [e.episode_id for e in objectnav.read_episodes(path).episodes] == ["1"]


def test_a_malformed_goal_fails_the_episodes_that_use_it_and_names_the_goal_field(tmp_path: Path) -> None:
    split = _objectnav_split(tmp_path / "val")
    content = tmp_path / "val" / "content" / "TEEsavR23oF.json.gz"
    data = _read_gz(content)
    del data["goals_by_category"]["TEEsavR23oF.basis.glb_chair"][1]["view_points"][1]["agent_state"][
        "position"
    ]
    _write_gz(content, data)
    loaded = objectnav.read_episodes(split)
    assert [e.object_category for e in loaded.episodes] == ["bed"]
    (problem,) = loaded.problems
    assert (
        problem.field
        == "goals_by_category['TEEsavR23oF.basis.glb_chair'][1].view_points[1].agent_state.position"
    )


def test_missing_and_malformed_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="nothere.json.gz: file not found"):
        objectnav.load_episodes(tmp_path / "nothere.json.gz")
    bad = tmp_path / "open-eqa-v0.json"
    bad.write_text('[{"question": ')
    with pytest.raises(DatasetError, match="open-eqa-v0.json: malformed JSON"):
        openeqa.load_episodes(bad)
    _write_gz(tmp_path / "val" / "val.json.gz", {"goals_by_category": {}})
    with pytest.raises(DatasetError, match=r"val\.json\.gz: has no 'episodes' list"):
        objectnav.read_episodes(tmp_path / "val")
    _write_gz(tmp_path / "v2" / "v2.json.gz", [])
    with pytest.raises(DatasetError, match=r"v2\.json\.gz: top level must be a JSON object"):
        goat.read_episodes(tmp_path / "v2")


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
        **_hm3d_goal(object_id, category),
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
    _write_gz(root / split / f"{split}.json.gz", {"episodes": []})
    _write_gz(root / split / "content" / "TEEsavR23oF.json.gz", content)
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
