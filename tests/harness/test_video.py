"""Video frames: RGB | depth | top-down with the program line; the MP4 decodes back to the same frame count."""

from __future__ import annotations

from pathlib import Path

import imageio.v2 as imageio
import numpy as np

from tango.harness.video import TEXT_STRIP_PX, EpisodeFrames, colourise_depth, compose_frame


def test_compose_frame_lays_panels_side_by_side_with_a_text_strip() -> None:
    rgb = np.full((30, 40, 3), 200, dtype=np.uint8)
    depth = np.full((30, 40), 2.0, dtype=np.float32)
    topdown = np.zeros((60, 60, 3), dtype=np.uint8)
    frame = compose_frame(rgb, depth, topdown, "navigate_to(obj)")
    assert frame.shape == (30 + TEXT_STRIP_PX, 40 + 40 + 30, 3)
    assert (frame[:30, :40] == 200).all()
    blank = compose_frame(rgb, depth, topdown, "")
    assert frame[30:].max() > 200 and blank[30:].max() == 0  # the program line is drawn in white


def test_depth_colours_near_brighter_than_far_and_missing_black() -> None:
    colours = colourise_depth(np.array([[1.0, 5.0, 0.0]], dtype=np.float32))
    assert colours[0, 0, 0] > colours[0, 1, 0] > colours[0, 2, 0] == 0


def test_episode_frames_write_an_mp4_and_a_thumbnail(tmp_path: Path) -> None:
    frames = EpisodeFrames(tmp_path / "v.mp4", fps=5)
    for step in range(7):
        frames.add(
            np.full((33, 47, 3), step * 30, dtype=np.uint8),
            None,
            np.zeros((20, 20, 3), np.uint8),
            f"line {step}",
        )
    assert frames.close() == tmp_path / "v.mp4"
    reader = imageio.get_reader(str(tmp_path / "v.mp4"))
    assert sum(1 for _ in reader) == 7
    reader.close()
    assert frames.save_thumbnail(tmp_path / "t.png") == tmp_path / "t.png"


def test_disabled_frames_write_no_video_but_keep_the_map(tmp_path: Path) -> None:
    frames = EpisodeFrames(None)
    frames.add(np.zeros((8, 8, 3), np.uint8), topdown=np.ones((8, 8, 3), np.uint8))
    assert not frames.enabled and frames.close() is None
    assert frames.save_thumbnail(tmp_path / "t.png") is not None
