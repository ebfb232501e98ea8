"""Loaders on small hand-written files in the exact published shapes, and their errors on bad input.

The shapes follow each benchmark's own dataset code: habitat-lab's ObjectNavDatasetV1 (ObjectGoal,
ObjectViewLocation), ovon's OVONDatasetV1 (string object ids "..._{n}", view point `radius`, episode
`children_object_categories`), GOAT-Bench's GoatDatasetV1 (per-scene content files with `goals` and
`episodes`, `[category, goal_type, object_id(, image_idx)]` tasks with a null id for object subtasks,
`image_goals` as InstanceImageParameters, `lang_desc`), and open-eqa's `open-eqa-v0.json`.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest

from tango.formats import goat, objectnav, openeqa, ovon
from tango.formats.fields import DatasetError, EpisodeError
from tango.formats.nav_episodes import resolve_scene_path
from tests.tasks.loader_shapes import HM3D_SCENE, SCENE_CONFIG, VIEW, hm3d_goal, read_gz, write_gz


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
    write_gz(root / "val.json.gz", header)
    write_gz(
        root / "content" / "TEEsavR23oF.json.gz",
        {
            **header,
            "episodes": [_hm3d_episode("0", "chair"), _hm3d_episode("1", "bed")],
            "goals_by_category": {
                "TEEsavR23oF.basis.glb_chair": [hm3d_goal(7, "chair"), hm3d_goal(9, "chair", "kitchen")],
                "TEEsavR23oF.basis.glb_bed": [hm3d_goal(3, "bed")],
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
    episode = {**_hm3d_episode("0", "chair"), "goals": [hm3d_goal(7, "chair")]}
    write_gz(tmp_path / "val" / "val.json.gz", {"episodes": [episode], "category_to_task_category_id": {}})
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
    write_gz(root / f"{split}.json.gz", {"episodes": []})
    write_gz(
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
    data = read_gz(content)
    data["episodes"].append(_hm3d_episode("2", "sofa"))
    write_gz(content, data)
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
    data = read_gz(content)
    change(data["episodes"][1])
    write_gz(content, data)
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
    write_gz(
        path,
        {
            "episodes": [episode, good],
            "goals_by_category": {"TEEsavR23oF.basis.glb_chair": [hm3d_goal(7, "chair")]},
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
    data = read_gz(content)
    del data["goals_by_category"]["TEEsavR23oF.basis.glb_chair"][1]["view_points"][1]["agent_state"][
        "position"
    ]
    write_gz(content, data)
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
    write_gz(tmp_path / "val" / "val.json.gz", {"goals_by_category": {}})
    with pytest.raises(DatasetError, match=r"val\.json\.gz: has no 'episodes' list"):
        objectnav.read_episodes(tmp_path / "val")
    write_gz(tmp_path / "v2" / "v2.json.gz", [])
    with pytest.raises(DatasetError, match=r"v2\.json\.gz: top level must be a JSON object"):
        goat.read_episodes(tmp_path / "v2")


def test_split_without_content_is_an_error(tmp_path: Path) -> None:
    write_gz(tmp_path / "val" / "val.json.gz", {"episodes": [], "category_to_task_category_id": {}})
    with pytest.raises(DatasetError, match=r"val\.json\.gz: no episodes"):
        objectnav.load_episodes(tmp_path / "val")
    with pytest.raises(DatasetError, match="no episodes"):
        goat.load_episodes(tmp_path / "val")


def test_scene_paths_resolve_like_habitat(tmp_path: Path) -> None:
    assert resolve_scene_path(HM3D_SCENE, tmp_path) == tmp_path / HM3D_SCENE
    assert resolve_scene_path("data/scene_datasets/" + HM3D_SCENE, tmp_path) == tmp_path / HM3D_SCENE
    assert resolve_scene_path("/abs/apt_000.glb", tmp_path) == Path("/abs/apt_000.glb")
