"""The generator writes all four benchmarks in their formats and the loaders read back every field."""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tango.formats import goat, objectnav, openeqa, ovon
from tango.formats.fields import DatasetError
from tango.formats.synthetic import STAMP_FILE, read_stamp
from tango.scenes import __main__ as scenes_cli
from tango.scenes.datasets import default as default_dataset
from tango.scenes.datasets import openeqa as openeqa_writer
from tango.scenes.datasets.descriptions import DescriptionFacts
from tango.scenes.datasets.facts import find_neighbours
from tango.scenes.datasets.generate import (
    DatasetConfig,
    DatasetGenerationError,
    apartment_scene_writer,
    generate_dataset,
)
from tango.scenes.datasets.objectnav import HM3D_CATEGORIES, ObjectNavConfig
from tango.scenes.datasets.ovon import OVONConfig
from tango.scenes.datasets.viewpoints import (
    ViewPointConfig,
    camera_pose,
    centre_iou,
    footprint_distance,
    quaternion_yaw,
)
from tango.scenes.datasets.vocabulary import OPEN_NAMES
from tango.sim.navgrid import NavGrid
from tango.sim.render import Renderer
from tango.sim.scene import LoadedScene, load_scene

CONFIG = DatasetConfig(
    num_scenes=2,
    seed=7,
    test_scenes=1,
    objectnav=ObjectNavConfig(start_distances="hm3d_objectnav_val_mini", geodesic_to_euclid_min_ratio=1.05),
    ovon=OVONConfig(start_distances="hm3d_objectnav_val_mini", open_fraction=0.7),
)
"""Two val scenes and a test scene; starts drawn to HM3D's distances (ObjectNav's without near-straight ones, as the
default dataset's), OVON goals named in open vocabulary."""


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("synthetic") / "ds"
    generate_dataset(root, CONFIG)
    return root


class _Scenes:
    """Loaded scenes and their navigability grids, built once per test."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[str, tuple[LoadedScene, NavGrid]] = {}

    def get(self, scene_id: str) -> tuple[LoadedScene, NavGrid]:
        if scene_id not in self._cache:
            scene = load_scene(self.root / "scenes" / scene_id, require_annotations=True)
            assert scene.annotations is not None
            self._cache[scene_id] = (scene, NavGrid.from_scene(scene.mesh, floor_y=scene.annotations.floor_y))
        return self._cache[scene_id]


def _raw_content(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt") as fh:
        return json.load(fh)["episodes"]


def _unit_quaternion(q: tuple[float, ...]) -> bool:
    return abs(math.sqrt(sum(v * v for v in q)) - 1.0) < 1e-4


def test_stamp_counts_and_layout(dataset: Path) -> None:
    stamp = read_stamp(dataset)
    assert stamp is not None and stamp["scenes"] == {"val": ["apt_000", "apt_001"], "test": ["apt_test_001"]}
    assert (dataset / "scenes" / "apt_001.annotations.json").is_file()
    assert (dataset / "scenes" / "apt_test_001.annotations.json").is_file()
    for split in ("val", "test"):
        counts = stamp["counts"][split]
        for task in ("objectnav", "ovon", "goat", "openeqa"):
            assert counts[task] > 0
        assert len(objectnav.load_episodes(dataset / "objectnav" / split)) == counts["objectnav"]
        assert len(ovon.load_episodes(dataset / "ovon" / split)) == counts["ovon"]
        assert len(goat.load_episodes(dataset / "goat" / split)) == counts["goat"]
        eqa = openeqa.load_episodes(dataset / "openeqa" / split / "open-eqa-v0.json")
        assert len(eqa) == counts["openeqa"]


def test_val_and_test_come_from_different_scenes(dataset: Path) -> None:
    for task in ("objectnav", "ovon", "goat"):
        loader = {"objectnav": objectnav, "ovon": ovon, "goat": goat}[task]
        val = {e.scene_id for e in loader.load_episodes(dataset / task / "val")}
        test = {e.scene_id for e in loader.load_episodes(dataset / task / "test")}
        assert val and test and not val & test, task
    questions = openeqa.load_episodes(dataset / "openeqa" / "test" / "open-eqa-v0.json")
    assert {q.scene for q in questions} == {"apt_test_001"}
    val_plan = json.loads((dataset / "scenes" / "apt_000.annotations.json").read_text())["rooms"]
    test_plan = json.loads((dataset / "scenes" / "apt_test_001.annotations.json").read_text())["rooms"]
    assert val_plan != test_plan


def test_episodes_carry_their_start_geodesic_distance(dataset: Path) -> None:
    for task in ("objectnav", "ovon"):
        episodes = _raw_content(dataset / task / "val" / "content" / "apt_000.json.gz")
        assert episodes
        for raw in episodes:
            info = raw["info"]
            assert info["start_geodesic_distance"] == info["geodesic_distance"] >= 1.0


def test_ovon_names_goals_in_words_that_are_not_annotation_labels(dataset: Path) -> None:
    scenes = _Scenes(dataset)
    open_names = {name: label for label, names in OPEN_NAMES.items() for name in names}
    named_openly = 0
    for split in ("val", "test"):
        for episode in ovon.load_episodes(dataset / "ovon" / split):
            scene, _ = scenes.get(episode.scene_id)
            assert scene.annotations is not None
            labels = {scene.annotations.object_by_id(int(g.object_id)).category for g in episode.goals}
            if episode.object_category in open_names:
                named_openly += 1
                assert labels == {open_names[episode.object_category]}
                assert episode.object_category not in {o.category for o in scene.annotations.objects}
            else:
                assert labels == {episode.object_category}
    assert named_openly >= 5


def test_objectnav_episodes_are_reachable_with_every_field(dataset: Path) -> None:
    scenes = _Scenes(dataset)
    episodes = objectnav.load_episodes(dataset / "objectnav" / "val" / "val.json.gz")
    raw = _raw_content(dataset / "objectnav" / "val" / "content" / "apt_000.json.gz")
    assert set(raw[0]) >= {
        "episode_id",
        "scene_id",
        "start_position",
        "start_rotation",
        "object_category",
        "info",
    }
    for episode in episodes:
        scene, grid = scenes.get(episode.scene_id)
        assert episode.object_category in HM3D_CATEGORIES
        assert grid.is_navigable(np.asarray(episode.start_position))
        assert _unit_quaternion(episode.start_rotation)
        points = [np.asarray(v.agent_state.position) for g in episode.goals for v in g.view_points]
        geodesic = grid.geodesic_distance(np.asarray(episode.start_position), points)
        assert geodesic == pytest.approx(episode.info["geodesic_distance"], abs=1e-2)
        assert 1.0 <= geodesic < math.inf
        assert episode.info["euclidean_distance"] <= geodesic * 1.02 + 0.05  # FMM may undercut slightly
        assert episode.info["closest_goal_object_id"] in {g.object_id for g in episode.goals}
        assert scene.annotations is not None
        ours = {o.id: o.category for o in scene.annotations.objects}
        assert all(ours[g.object_id] == HM3D_CATEGORIES[episode.object_category] for g in episode.goals)


def test_view_points_are_a_navigable_lattice_within_one_metre_that_sees_the_object(dataset: Path) -> None:
    scenes = _Scenes(dataset)
    config = ViewPointConfig()
    episodes = ovon.load_episodes(dataset / "ovon" / "val")
    checked = 0
    for episode in episodes[:4]:
        scene, grid = scenes.get(episode.scene_id)
        assert scene.annotations is not None
        renderer = Renderer(scene.mesh, config.width, config.height, config.hfov_deg, sensors=("semantic",))
        try:
            for goal in episode.goals:
                obj = scene.annotations.object_by_id(int(goal.object_id))
                assert goal.children_object_categories == ()
                ious = [v.iou for v in goal.view_points]
                assert ious == sorted(ious, reverse=True)
                points = np.array([v.agent_state.position for v in goal.view_points])
                if len(points) > 1:
                    gaps = np.linalg.norm(points[:, None, [0, 2]] - points[None, :, [0, 2]], axis=2)
                    np.fill_diagonal(gaps, np.inf)
                    assert np.median(gaps.min(axis=1)) == pytest.approx(config.spacing_m, abs=1e-3)
                for view in goal.view_points[::7]:
                    position = np.asarray(view.agent_state.position)
                    assert grid.is_navigable(position)
                    gap = footprint_distance(obj, np.array([position[0]]), np.array([position[2]]))[0]
                    assert gap <= config.max_distance_m + 1e-6
                    yaw = quaternion_yaw(view.agent_state.rotation)
                    frame = renderer.render(camera_pose(position, yaw, config.camera_height_m))
                    assert frame.semantic is not None
                    mask = frame.semantic == obj.id
                    assert int(mask.sum()) >= config.min_pixels - 2  # positions are rounded to 0.1 mm
                    assert view.iou == pytest.approx(centre_iou(mask), abs=0.02)
                    checked += 1
        finally:
            renderer.release()
    assert checked > 20


def test_ovon_keys_use_the_scene_file_basename(dataset: Path) -> None:
    with gzip.open(dataset / "ovon" / "val" / "content" / "apt_001.json.gz", "rt") as fh:
        data = json.load(fh)
    assert data["goals_by_category"]
    assert all(key.startswith("apt_001.glb_") for key in data["goals_by_category"])
    assert all(
        "children_object_categories" in g for goals in data["goals_by_category"].values() for g in goals
    )


def test_goat_episodes_mix_goal_types_with_unique_descriptions_and_image_cameras(dataset: Path) -> None:
    scenes = _Scenes(dataset)
    episodes = goat.load_episodes(dataset / "goat" / "val")
    seen_types = set()
    for episode in episodes:
        _, grid = scenes.get(episode.scene_id)
        assert 5 <= len(episode.tasks) <= 10
        assert grid.is_navigable(np.asarray(episode.start_position))
        seen_types |= {t.goal_type for t in episode.tasks}
        for task in episode.tasks:
            assert task.goals and all(g.object_category == task.category for g in task.goals)
            assert (task.object_id is None) == (task.goal_type == "object")
            if task.goal_type == "description":
                assert task.lang_desc and task.category in task.lang_desc
            if task.goal_type == "image":
                camera = task.image_goal
                assert camera is not None and camera.hfov == pytest.approx(79.0)
                assert camera.image_dimensions == (256, 256)
                assert camera.position[1] == pytest.approx(grid.floor_y + 0.88, abs=1e-3)
    assert seen_types == {"object", "description", "image"}


def test_goat_descriptions_are_unique_per_category_in_each_scene(dataset: Path) -> None:
    described = 0
    for scene_id in ("apt_000", "apt_001"):
        with gzip.open(dataset / "goat" / "val" / "content" / f"{scene_id}.json.gz", "rt") as fh:
            goals = json.load(fh)["goals"]
        for key, instances in goals.items():
            texts = [g["lang_desc"] for g in instances if g["lang_desc"]]
            assert len(texts) == len(set(texts)), key
            for g in instances:
                if g["lang_desc"]:
                    assert g["object_category"] in g["lang_desc"] and "in the " in g["lang_desc"]
            described += len(texts)
    assert described >= 10


def test_openeqa_questions_have_all_categories_and_start_poses(dataset: Path) -> None:
    scenes = _Scenes(dataset)
    questions = openeqa.load_episodes(dataset / "openeqa" / "val" / "open-eqa-v0.json")
    assert {q.category for q in questions} == set(openeqa.CATEGORIES)
    assert len({q.question_id for q in questions}) == len(questions)
    for q in questions:
        assert q.start is not None and q.scene in ("apt_000", "apt_001")
        scene, grid = scenes.get(q.start.scene_id)
        assert grid.is_navigable(np.asarray(q.start.start_position))
        assert q.answer
        assert q.facts is not None and q.facts["kind"] in {
            "identify", "attribute", "clear", "locate", "neighbour", "use", "knowledge"
        }  # fmt: skip
        assert scene.annotations is not None and q.evidence
        assert all(scene.annotations.object_by_id(i) for i in q.evidence)


def test_evaluation_questions_are_the_training_questions_in_held_out_words(dataset: Path) -> None:
    heldout = openeqa.load_episodes(dataset / "openeqa" / "val" / openeqa.QUESTIONS_FILE)
    train = openeqa.load_episodes(dataset / "openeqa" / "val" / openeqa_writer.TRAIN_QUESTIONS_FILE)
    assert [q.question_id for q in heldout] == [q.question_id for q in train]
    assert [(q.answer, q.facts) for q in heldout] == [(q.answer, q.facts) for q in train]
    train_sentences = {q.question for q in train}
    assert not {q.question for q in heldout} & train_sentences


def test_goat_description_facts_single_out_the_described_instance(dataset: Path) -> None:
    scenes = _Scenes(dataset)
    described = 0
    for episode in goat.load_episodes(dataset / "goat" / "val"):
        scene, _ = scenes.get(episode.scene_id)
        assert scene.annotations is not None
        neighbours = find_neighbours(scene.annotations)
        for task in episode.tasks:
            if task.goal_type != "description":
                continue
            assert task.description_facts is not None
            stated = DescriptionFacts(
                task.description_facts["category"],
                task.description_facts["attributes"],
                task.description_facts["room"],
                tuple(task.description_facts["near"]),
            )
            fitting = [o.id for o in scene.annotations.objects if stated.fits(o, neighbours)]
            assert fitting == [task.object_id]
            described += 1
    assert described >= 3


def _decompressed_files(root: Path) -> dict[str, bytes]:
    """Every file of a dataset folder by relative path, .gz files decompressed (the stamp's timing left out)."""
    files = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != "dataset.json"):
        data = path.read_bytes()
        files[path.relative_to(root).as_posix()] = gzip.decompress(data) if path.suffix == ".gz" else data
    return files


def test_same_seed_gives_the_same_files_with_any_number_of_workers(tmp_path: Path) -> None:
    """Scenes are prepared in worker processes and written in scene order, so one process and two give the
    same bytes, on both splits."""
    config = DatasetConfig(num_scenes=1, test_scenes=1, seed=5)
    generate_dataset(tmp_path / "a", config, workers=1)
    generate_dataset(tmp_path / "b", config, workers=2)
    a, b = _decompressed_files(tmp_path / "a"), _decompressed_files(tmp_path / "b")
    assert "objectnav/test/content/apt_test_001.json.gz" in a
    assert a.keys() == b.keys()
    assert [name for name in a if a[name] != b[name]] == []


def _writer_failing_on_the_second_scene(scene_dir: Path, scene_id: str, seed: int) -> None:
    """A scene writer (module level: worker processes import it) that fails on apt_001."""
    if scene_id == "apt_001":
        raise ValueError("no apt_001 today")
    apartment_scene_writer(scene_dir, scene_id, seed)


def test_a_scene_failing_in_a_worker_fails_the_generation_and_leaves_no_dataset(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no apt_001 today"):
        generate_dataset(
            tmp_path / "ds",
            DatasetConfig(num_scenes=2),
            scene_writer=_writer_failing_on_the_second_scene,
            workers=2,
        )
    assert list(tmp_path.iterdir()) == []


def test_interrupted_generation_leaves_no_dataset(tmp_path: Path) -> None:
    calls: list[str] = []

    def failing_writer(scene_dir: Path, scene_id: str, seed: int) -> None:
        calls.append(scene_id)
        if len(calls) == 2:
            raise KeyboardInterrupt
        apartment_scene_writer(scene_dir, scene_id, seed)

    with pytest.raises(KeyboardInterrupt):
        generate_dataset(tmp_path / "ds", DatasetConfig(num_scenes=2), scene_writer=failing_writer, workers=1)
    assert calls == ["apt_000", "apt_001"]
    assert list(tmp_path.iterdir()) == []


def test_existing_folder_is_refused_without_overwrite(tmp_path: Path) -> None:
    (tmp_path / "ds").mkdir()
    (tmp_path / "ds" / "keep.txt").write_text("mine")
    with pytest.raises(DatasetGenerationError, match="ds: already exists"):
        generate_dataset(tmp_path / "ds", DatasetConfig(num_scenes=1))
    assert (tmp_path / "ds" / "keep.txt").read_text() == "mine"


def test_default_dataset_is_generated_once_and_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(default_dataset, "DEFAULT_CONFIG", DatasetConfig(num_scenes=1, seed=1))
    monkeypatch.setenv("TANGO_CACHE", str(tmp_path / "cache"))
    root = default_dataset.ensure_default_dataset()
    assert root == tmp_path / "cache" / default_dataset.DEFAULT_NAME and (root / STAMP_FILE).is_file()

    def generator_called(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("generator called")

    monkeypatch.setattr(default_dataset, "generate_dataset", generator_called)
    assert default_dataset.ensure_default_dataset() == root
    monkeypatch.setattr(default_dataset, "generator_version", lambda: "newer-code")
    with pytest.raises(RuntimeError, match="generator called"):
        default_dataset.ensure_default_dataset()


def test_stale_default_dataset_is_regenerated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(default_dataset, "DEFAULT_CONFIG", DatasetConfig(num_scenes=1, seed=1))
    root = tmp_path / default_dataset.DEFAULT_NAME
    root.mkdir()
    (root / STAMP_FILE).write_text(json.dumps({"format": "tango-synthetic/0"}))
    (tmp_path / f".{default_dataset.DEFAULT_NAME}.partial-killed").mkdir()
    assert default_dataset.ensure_default_dataset(tmp_path) == root
    assert not (tmp_path / f".{default_dataset.DEFAULT_NAME}.partial-killed").exists()
    stamp = read_stamp(root)
    assert stamp is not None and stamp["num_scenes"] == 1


def test_the_entry_point_prepares_the_default_dataset_only_for_a_task_that_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(default_dataset, "ensure_default_dataset", lambda: tmp_path)
    assert default_dataset.prepare_default_dataset({"task": {"name": "goat", "data_path": None}}) == tmp_path
    assert (
        default_dataset.prepare_default_dataset({"task": {"name": "goat", "data_path": "mine.json"}}) is None
    )
    assert default_dataset.prepare_default_dataset({"task": {"name": "graphnav"}}) is None


def test_loader_names_the_file_episode_and_field_of_a_subtask_with_an_unknown_object(
    dataset: Path, tmp_path: Path
) -> None:
    content = dataset / "goat" / "val" / "content" / "apt_000.json.gz"
    with gzip.open(content, "rt") as fh:
        data = json.load(fh)
    tasks = data["episodes"][0]["tasks"]
    index = next(i for i, t in enumerate(tasks) if t[1] != "object")
    tasks[index][2] = 99999
    broken = tmp_path / "val"
    (broken / "content").mkdir(parents=True)
    (broken / "val.json.gz").write_bytes((dataset / "goat" / "val" / "val.json.gz").read_bytes())
    with gzip.open(broken / "content" / "apt_000.json.gz", "wt") as fh:
        json.dump(data, fh)
    with pytest.raises(
        DatasetError,
        match=rf"apt_000\.json\.gz: episode 0 .*: tasks\[{index}\]\[2\]: object 99999 is not a goal",
    ):
        goat.load_episodes(broken)
    assert len(goat.read_episodes(broken).episodes) == len(data["episodes"]) - 1


def test_cli_generate_writes_and_refuses_to_clobber(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cli"
    assert (
        scenes_cli.main(["generate", "--out", str(out), "--scenes", "1", "--test-scenes", "0", "--seed", "2"])
        == 0
    )
    stamp = read_stamp(out)
    assert stamp is not None and stamp["seed"] == 2 and stamp["num_scenes"] == 1
    assert scenes_cli.main(["generate", "--out", str(out), "--scenes", "1"]) == 1
    assert "already exists" in capsys.readouterr().err


def test_cli_preview_writes_pngs_of_a_scene(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    apartment_scene_writer(tmp_path, "apt_000", 3)
    assert (
        scenes_cli.main(["preview", str(tmp_path / "apt_000.glb"), "--out", str(tmp_path / "preview")]) == 0
    )
    printed = capsys.readouterr().out.split()
    assert printed and all(Path(p).is_file() and p.endswith(".png") for p in printed)


def test_cli_generate_preset_v2_writes_the_previous_defaults_apartments(tmp_path: Path) -> None:
    """`--preset synthetic-v2` regenerates the previous default's smaller apartments (the v3 homes are larger)."""
    v2, v3 = tmp_path / "v2", tmp_path / "v3"
    assert scenes_cli.main(["generate", "--preset", "synthetic-v2", "--out", str(v2), "--scenes", "1"]) == 0
    assert scenes_cli.main(["generate", "--out", str(v3), "--scenes", "1"]) == 0
    v2_stamp, v3_stamp = read_stamp(v2), read_stamp(v3)
    assert v2_stamp is not None and v3_stamp is not None
    assert v2_stamp["config"]["apartment"] == _as_read(DatasetConfig())
    assert v3_stamp["config"]["apartment"] == _as_read(default_dataset.DEFAULT_CONFIG)
    assert v2_stamp["config"]["apartment"] != v3_stamp["config"]["apartment"]


def _as_read(config: DatasetConfig) -> Any:
    """The apartment settings as a dataset stamp holds them (JSON: tuples become lists)."""
    return json.loads(json.dumps(asdict(config.apartment)))
