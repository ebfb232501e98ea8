"""The oracle's per-frame visibility pass (boxes in one pass, each object's point from row / column counts inside
its box) gives exactly what a plain per-object computation with `region_point` gives, on random frames."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import ndimage

from tango.perception.geometry import region_point
from tango.perception.oracle.scene import OracleScene
from tango.perception.oracle.visible import _count_boxes, visible_objects
from tango.types.observation import Observation
from tango.types.scene import SceneObject


def _plain_visible(obs: Observation, scene: OracleScene, min_pixels: int) -> list[tuple]:
    """(id, pixels, box, mask, point) per visible object, largest first, computed the direct way."""
    semantic = np.asarray(obs.semantic)
    counts = np.bincount(semantic.ravel())
    found = []
    for object_id in range(1, len(counts)):
        if counts[object_id] < max(min_pixels, 1) or object_id not in scene.objects:
            continue
        rows, cols = np.nonzero(semantic == object_id)
        window = (slice(rows.min(), rows.max() + 1), slice(cols.min(), cols.max() + 1))
        box = [cols.min(), rows.min(), cols.max() + 1, rows.max() + 1]
        mask = semantic[window] == object_id
        found.append((object_id, int(counts[object_id]), box, mask, region_point(obs, rows, cols)))
    found.sort(key=lambda item: -item[1])
    return found


def _random_frame(rng: np.random.Generator, size: tuple[int, int], clip: float | None) -> Observation:
    """Blobs of random ids (some unannotated, some tiny) over depth with zeros, NaNs, infinities and clipped
    readings, seen from a random camera pose."""
    semantic = np.zeros(size, np.int32)
    for _ in range(rng.integers(1, 12)):
        r, c = rng.integers(0, size[0]), rng.integers(0, size[1])
        h, w = rng.integers(1, size[0] // 2), rng.integers(1, size[1] // 2)
        blob = rng.random((min(h, size[0] - r), min(w, size[1] - c))) < rng.uniform(0.2, 1.0)
        semantic[r : r + blob.shape[0], c : c + blob.shape[1]][blob] = rng.integers(1, 30)
    depth = rng.uniform(0.1, 6.0, size).astype(np.float32)
    specials = rng.random(size)
    depth[specials < 0.05] = 0.0
    depth[(specials >= 0.05) & (specials < 0.08)] = np.nan
    depth[(specials >= 0.08) & (specials < 0.1)] = np.inf
    if clip is not None:
        depth[(specials >= 0.1) & (specials < 0.2)] = clip
    if rng.random() < 0.2:  # an object whose pixels all lack depth
        depth[semantic == semantic.max()] = 0.0
    angle = rng.uniform(-np.pi, np.pi)
    pose = np.eye(4)
    pose[:3, :3] = [[np.cos(angle), 0, np.sin(angle)], [0, 1, 0], [-np.sin(angle), 0, np.cos(angle)]]
    pose[:3, 3] = rng.uniform(-5, 5, 3)
    return Observation(
        rgb=np.zeros((*size, 3), np.uint8),
        depth=depth,
        camera_pose=pose,
        hfov_deg=float(rng.uniform(60, 110)),
        agent_position=pose[:3, 3].copy(),
        agent_yaw=angle,
        semantic=semantic,
        depth_clip=clip,
    )


@pytest.mark.parametrize("clip", [None, 5.0])
def test_visible_objects_equal_the_plain_per_object_computation_bit_for_bit(clip: float | None) -> None:
    rng = np.random.default_rng(7)
    scene = OracleScene(
        "random", {i: SceneObject(i, f"thing{i}", (0, 0, 0), (1, 1, 1)) for i in range(1, 25)}, ()
    )
    for _ in range(60):
        size = (int(rng.integers(8, 80)), int(rng.integers(8, 80)))
        obs = _random_frame(rng, size, clip)
        min_pixels = int(rng.choice([0, 1, 5, 40]))
        expected = _plain_visible(obs, scene, min_pixels)
        found = visible_objects(obs, scene, min_pixels)
        assert [v.object.id for v in found] == [e[0] for e in expected]
        for item, (_, pixels, box, mask, point) in zip(found, expected):
            assert item.pixels == pixels
            assert item.box.tolist() == box
            assert np.array_equal(item.local_mask, mask)
            assert np.array_equal(item.paint(np.zeros(size, bool))[item.window], mask)
            assert np.array_equal(item.point, point, equal_nan=True)


@pytest.mark.parametrize("annotated", [(1,), ()])
def test_negative_instance_ids_are_still_a_clear_error(annotated: tuple[int, ...]) -> None:
    obs = _random_frame(np.random.default_rng(1), (16, 16), None)
    assert obs.semantic is not None
    obs.semantic[3, 3] = -1
    scene = OracleScene("random", {i: SceneObject(i, "thing", (0, 0, 0), (1, 1, 1)) for i in annotated}, ())
    with pytest.raises(ValueError, match="negative instance ids"):
        visible_objects(obs, scene, 1)


def test_counted_boxes_are_find_objects_boxes_with_the_pixel_counts() -> None:
    rng = np.random.default_rng(3)
    for _ in range(50):
        top = int(rng.integers(1, 30))
        frame = rng.integers(0, 2 * top + 2, (int(rng.integers(1, 40)), int(rng.integers(1, 40)))).astype(
            np.int32
        )
        frame[rng.random(frame.shape) < rng.uniform(0.0, 0.9)] = 0
        boxes, negative = _count_boxes(frame, top)
        assert not negative
        marked = frame.copy()
        marked[rng.integers(frame.shape[0]), rng.integers(frame.shape[1])] = -int(rng.integers(1, 5))
        assert _count_boxes(marked, top)[1]
        counts = np.bincount(frame.ravel(), minlength=2 * top + 2)
        for index, window in enumerate(ndimage.find_objects(frame, max_label=top)):
            label = index + 1
            if window is None:
                assert boxes[label, 0] == 0
                continue
            rows, cols = window
            assert boxes[label].tolist() == [counts[label], rows.start, rows.stop, cols.start, cols.stop]
        assert boxes[0, 0] == 0 and len(boxes) == top + 1
