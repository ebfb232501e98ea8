"""Scene preview: a top-down map and first-person RGB / depth / semantic PNGs that show the scene."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tango.scenes.apartment import generate_apartment
from tango.scenes.preview import PreviewConfig, write_preview
from tango.sim.scene import SceneError


def test_preview_writes_map_and_views(tmp_path: Path) -> None:
    glb, _ = generate_apartment(2).write(tmp_path / "scene", "apt_002")
    paths = write_preview(glb, tmp_path / "preview", PreviewConfig(views=2, width=96, height=96))
    names = sorted(p.name for p in paths)
    assert names[0] == "apt_002_map.png"
    assert {f"apt_002_view{k}_{s}.png" for k in range(2) for s in ("rgb", "depth", "semantic")} <= set(names)
    for path in paths:
        assert path.is_file() and path.stat().st_size > 0
    map_image = np.asarray(Image.open(tmp_path / "preview" / "apt_002_map.png"))
    assert map_image.shape[0] > 300 and map_image.shape[1] > 300
    assert len(np.unique(map_image.reshape(-1, 3), axis=0)) > 20, (
        "the map should show rooms, objects and labels"
    )
    for k in range(2):
        rgb = np.asarray(Image.open(tmp_path / "preview" / f"apt_002_view{k}_rgb.png"))
        semantic = np.asarray(Image.open(tmp_path / "preview" / f"apt_002_view{k}_semantic.png"))
        assert rgb.shape == (96, 96, 3) and rgb.std() > 5, "a first-person view should not be blank"
        assert semantic.any(), f"view {k} should see at least one object"


def test_preview_of_a_missing_scene_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(SceneError, match="nope.glb"):
        write_preview(tmp_path / "nope.glb", tmp_path / "out")


def test_preview_of_a_scene_without_annotations_shows_navigable_area(tmp_path: Path) -> None:
    glb, ann = generate_apartment(3).write(tmp_path / "scene", "bare")
    ann.unlink()
    paths = write_preview(glb, tmp_path / "preview", PreviewConfig(views=1, width=64, height=64))
    assert [p.name for p in paths] == [
        "bare_map.png",
        "bare_view0_rgb.png",
        "bare_view0_depth.png",
        "bare_view0_semantic.png",
    ]
    map_image = np.asarray(Image.open(paths[0]))
    assert len(np.unique(map_image.reshape(-1, 3), axis=0)) >= 2
    assert np.asarray(Image.open(paths[1])).shape == (64, 64, 3)
