"""Renderer: depth against analytic ray casts, semantic ids against the annotation, the EGL error."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from tango.sim import render as render_module
from tango.sim.render import Renderer, RendererError
from tango.sim.scene import load_scene
from tango.types.poses import camera_pose
from tests.sim.builders import textured_quad_scene, write_basis_like_glb, write_room

WIDTH = HEIGHT = 256
HFOV = 79.0


def _plane_scene() -> trimesh.Scene:
    """A large floor (obj_1, y = 0) and a wall facing +z (obj_2, its face at z = -4)."""
    scene = trimesh.Scene()
    floor = trimesh.creation.box((40.0, 0.2, 40.0))
    floor.apply_translation([0.0, -0.1, 0.0])
    wall = trimesh.creation.box((40.0, 10.0, 0.2))
    wall.apply_translation([0.0, 5.0, -4.1])
    scene.add_geometry(floor, node_name="obj_1")
    scene.add_geometry(wall, node_name="obj_2")
    return scene


def _analytic_depth(pose: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel optical-axis depth and id by intersecting pixel-centre rays with the planes y = 0, z = -4."""
    focal = (WIDTH / 2.0) / np.tan(np.deg2rad(HFOV) / 2.0)
    cols, rows = np.meshgrid(np.arange(WIDTH) + 0.5, np.arange(HEIGHT) + 0.5)
    rays_cam = np.stack(
        [(cols - WIDTH / 2) / focal, -(rows - HEIGHT / 2) / focal, -np.ones_like(cols)], axis=-1
    )
    rays = rays_cam @ pose[:3, :3].T
    origin = pose[:3, 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        t_floor = np.where(rays[..., 1] < 0, (0.0 - origin[1]) / rays[..., 1], np.inf)
        t_wall = np.where(rays[..., 2] < 0, (-4.0 - origin[2]) / rays[..., 2], np.inf)
    depth = np.minimum(t_floor, t_wall)  # the camera-z component of every ray is -1, so t is the depth
    ids = np.where(t_floor < t_wall, 1, 2)
    return depth, ids


@pytest.mark.parametrize("yaw,pitch", [(0.0, -0.5), (0.4, -0.2), (-0.3, 0.0)])
def test_depth_matches_analytic_planes_within_1cm(yaw: float, pitch: float) -> None:
    renderer = Renderer(_plane_scene(), WIDTH, HEIGHT, HFOV, depth_min=0.0, depth_max=100.0)
    pose = camera_pose(np.array([0.3, 0.0, 0.5]), yaw, pitch, height=0.88)
    frame = renderer.render(pose)
    expected, expected_ids = _analytic_depth(pose)
    assert frame.depth.shape == (HEIGHT, WIDTH) and frame.depth.dtype == np.float32
    same_surface = frame.semantic == expected_ids
    assert same_surface.mean() > 0.99
    assert np.abs(frame.depth[same_surface] - expected[same_surface]).max() < 0.01
    renderer.release()


def test_depth_outside_clip_range_is_zero() -> None:
    renderer = Renderer(_plane_scene(), WIDTH, HEIGHT, HFOV, depth_min=0.5, depth_max=3.0)
    pose = camera_pose(np.array([0.0, 0.0, 0.5]), 0.0, 0.0, height=0.88)
    frame = renderer.render(pose)
    expected, _ = _analytic_depth(pose)
    outside = (expected < 0.5) | (expected > 3.0)
    assert outside.any() and (~outside).any()
    assert (frame.depth[outside & (np.abs(expected - 3.0) > 0.01)] == 0).all()
    inside = ~outside & (np.abs(expected - 3.0) > 0.01)
    assert np.abs(frame.depth[inside] - expected[inside]).max() < 0.01
    renderer.release()


def test_semantic_ids_match_annotation_boxes(tmp_path) -> None:
    loaded = load_scene(write_room(tmp_path))
    renderer = Renderer(loaded.mesh, WIDTH, HEIGHT, HFOV, depth_min=0.0, depth_max=20.0)
    pose = camera_pose(np.array([-1.0, 0.0, -1.0]), np.deg2rad(135.0), -0.3, height=0.88)
    frame = renderer.render(pose)
    seen = set(np.unique(frame.semantic).tolist()) - {0}
    assert 1 in seen
    focal = (WIDTH / 2.0) / np.tan(np.deg2rad(HFOV) / 2.0)
    for object_id in seen:
        obj = loaded.annotations.object_by_id(object_id)
        rows, cols = np.nonzero(frame.semantic == object_id)
        depth = frame.depth[rows, cols]
        points_cam = np.stack(
            [(cols + 0.5 - WIDTH / 2) / focal * depth, -(rows + 0.5 - HEIGHT / 2) / focal * depth, -depth],
            axis=1,
        )
        points = points_cam @ pose[:3, :3].T + pose[:3, 3]
        assert (points >= np.array(obj.bbox_min) - 0.02).all() and (
            points <= np.array(obj.bbox_max) + 0.02
        ).all()
    assert frame.rgb.dtype == np.uint8 and frame.rgb.shape == (HEIGHT, WIDTH, 3)
    chair = frame.rgb[frame.semantic == 1].mean(axis=0)
    assert chair[0] > 1.5 * chair[1]  # the red chair reads red
    renderer.release()


def test_requested_sensors_only() -> None:
    renderer = Renderer(_plane_scene(), 64, 48, HFOV, sensors=("depth",))
    frame = renderer.render(camera_pose(np.zeros(3), 0.0, 0.0, height=0.88))
    assert frame.rgb is None and frame.semantic is None and frame.depth.shape == (48, 64)
    renderer.release()


def test_missing_egl_names_the_debian_packages(monkeypatch) -> None:
    def fail(**kwargs):
        raise RuntimeError("libEGL.so not found")

    monkeypatch.setattr(render_module.moderngl, "create_standalone_context", fail)
    with pytest.raises(RendererError, match="libegl1 libegl-mesa0 libgl1-mesa-dri"):
        Renderer(_plane_scene(), 32, 32)


def test_textures_render_upright_through_glb(tmp_path) -> None:
    glb = tmp_path / "quad.glb"
    textured_quad_scene().export(str(glb))
    renderer = Renderer(load_scene(glb).mesh, 64, 64, 90.0)
    rgb = renderer.render(np.eye(4)).rgb.astype(int)
    corners = {"red": rgb[20, 20], "green": rgb[20, 44], "blue": rgb[44, 20], "yellow": rgb[44, 44]}
    assert corners["red"][0] > 120 and corners["red"][1:].max() < 30
    assert corners["green"][1] > 120 and corners["green"][[0, 2]].max() < 30
    assert corners["blue"][2] > 120 and corners["blue"][:2].max() < 30
    assert min(corners["yellow"][:2]) > 120 and corners["yellow"][2] < 30
    renderer.release()


def test_undecodable_basis_texture_renders_grey_with_exact_depth(tmp_path) -> None:
    source = tmp_path / "quad.glb"
    textured_quad_scene().export(str(source))
    target = tmp_path / "QUADscene.basis.glb"
    write_basis_like_glb(source, target)
    loaded = load_scene(target)
    assert loaded.scene_id == "QUADscene" and loaded.annotations is None
    renderer = Renderer(loaded.mesh, 64, 64, 90.0)
    frame = renderer.render(np.eye(4))
    centre = frame.rgb[24:40, 24:40].reshape(-1, 3).astype(int)
    assert (centre.max(axis=1) - centre.min(axis=1)).max() <= 2 and centre.mean() > 40  # uniform grey
    assert np.abs(frame.depth[24:40, 24:40] - 2.0).max() < 1e-4
    assert (frame.semantic == 0).all()
    renderer.release()


def test_frames_without_colour_and_deferred_colour_are_the_full_render_bits(tmp_path) -> None:
    """A render without rgb skips the colour writes yet gives the same depth and ids; the deferred image, drawn
    later and after other frames, is the full render's image."""
    loaded = load_scene(write_room(tmp_path))
    renderer = Renderer(loaded.mesh, WIDTH, HEIGHT, HFOV, depth_min=0.0, depth_max=20.0)
    poses = [
        camera_pose(np.array([x, 0.0, z]), yaw, pitch, height=0.88)
        for x, z, yaw, pitch in [(-1.0, -1.0, 2.3, -0.3), (0.5, 0.2, 0.4, 0.0), (1.0, -0.5, -1.2, -0.5)]
    ]
    full = [renderer.render(pose) for pose in poses]
    deferred = []
    for pose, expected in zip(poses, full, strict=True):
        frame = renderer.render(pose, ("depth", "semantic"))
        assert frame.rgb is None
        assert np.array_equal(frame.depth, expected.depth) and np.array_equal(
            frame.semantic, expected.semantic
        )
        deferred.append(renderer.deferred_rgb(pose))
    for image, expected in zip(deferred, full, strict=True):
        assert np.array_equal(image(), expected.rgb)
    assert len({frame.rgb.tobytes() for frame in full}) == 3  # the poses see different images
    renderer.release()
    with pytest.raises(RendererError, match="released"):
        deferred[0]()


def test_renderers_with_their_own_contexts_in_one_process_each_draw_their_own_scene() -> None:
    """Several simulators in one process (the PointNav trainer's environments): a renderer made after another
    must not take over the first one's frames (moderngl draws in whichever context is current)."""
    pose = camera_pose(np.array([0.3, 0.0, 0.5]), 0.0, -0.2, height=0.88)
    first = Renderer(_plane_scene(), 64, 64, HFOV, depth_min=0.0, depth_max=100.0)
    alone = first.render(pose).depth
    empty = trimesh.Scene()
    empty.add_geometry(trimesh.creation.box((0.1, 0.1, 0.1)), node_name="obj_1")
    second = Renderer(empty, 32, 32, HFOV, depth_min=0.0, depth_max=100.0)
    for _ in range(2):
        assert np.array_equal(first.render(pose).depth, alone)
        assert second.render(pose).depth.max() == 0.0  # the small box is below the field of view
    second.release()
    assert np.array_equal(first.render(pose).depth, alone)
    first.release()
