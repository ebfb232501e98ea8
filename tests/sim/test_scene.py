"""Scene loading: GLB + annotation round trip and clear errors naming the file."""

from __future__ import annotations

import json

import pytest

from tango.sim.scene import SceneError, load_scene, placed_meshes
from tests.sim.builders import room_annotations, write_room


def test_loads_glb_and_annotations(tmp_path) -> None:
    loaded = load_scene(write_room(tmp_path, "room_007"))
    assert loaded.scene_id == "room_007"
    assert [obj.category for obj in loaded.annotations.objects] == ["chair", "table", "plant"]
    assert loaded.annotations.object_by_id(2).room == "kitchen"
    ids = {item.instance_id for item in placed_meshes(loaded.mesh)}
    assert ids == {0, 1, 2, 3}


def test_scene_without_annotations_loads(tmp_path) -> None:
    glb = write_room(tmp_path)
    (tmp_path / "room_000.annotations.json").unlink()
    assert load_scene(glb).annotations is None
    with pytest.raises(SceneError, match="annotations.json: annotation file not found"):
        load_scene(glb, require_annotations=True)


def test_missing_glb_names_the_file(tmp_path) -> None:
    with pytest.raises(SceneError, match="nowhere.glb: scene file not found"):
        load_scene(tmp_path / "nowhere.glb")


def test_malformed_json_names_the_file(tmp_path) -> None:
    glb = write_room(tmp_path)
    (tmp_path / "room_000.annotations.json").write_text("{not json")
    with pytest.raises(SceneError, match="room_000.annotations.json: malformed JSON"):
        load_scene(glb)


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda d: d.update(colour="x"), r"unknown field\(s\) \['colour'\] at top level"),
        (lambda d: d["objects"][0].update(size=3), r"unknown field\(s\) \['size'\] at objects\[0\]"),
        (lambda d: d["objects"][1].pop("bbox"), r"missing field\(s\) \['bbox'\] at objects\[1\]"),
        (lambda d: d["objects"][1].update(id=1), r"duplicate object ids \[1\]"),
        (lambda d: d.update(format="other/2"), "expected 'tango-scene/1'"),
        (lambda d: d["rooms"][0].update(min=[0.0]), r"rooms\[0\].min must be a list of 2 numbers"),
    ],
)
def test_bad_annotation_fields_are_named(tmp_path, mutate, message) -> None:
    glb = write_room(tmp_path)
    data = room_annotations("room_000")
    mutate(data)
    (tmp_path / "room_000.annotations.json").write_text(json.dumps(data))
    with pytest.raises(SceneError, match=message):
        load_scene(glb)
