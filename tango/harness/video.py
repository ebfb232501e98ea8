"""Per-episode MP4s (imageio-ffmpeg) and top-down thumbnails from the frames a runner passes in.

A frame is RGB | colourised depth | top-down map side by side at the RGB's height, above a text strip with
the program line that was running.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

TEXT_STRIP_PX = 28
DEPTH_MAX_M = 10.0


def colourise_depth(depth: np.ndarray, max_depth_m: float = DEPTH_MAX_M) -> np.ndarray:
    """HxW metres -> HxWx3 uint8, near bright and far dark, 0 (no reading) black."""
    scaled = np.clip(np.nan_to_num(depth, nan=0.0) / max_depth_m, 0.0, 1.0)
    grey = np.where(depth > 0, (1.0 - scaled) * 255.0, 0.0).astype(np.uint8)
    return np.stack([grey, grey, grey], axis=-1)


def _fit_height(image: np.ndarray, height: int) -> np.ndarray:
    if image.shape[0] == height:
        return image
    width = max(1, round(image.shape[1] * height / image.shape[0]))
    return np.asarray(Image.fromarray(image).resize((width, height), Image.Resampling.NEAREST))


def _as_rgb(image: np.ndarray) -> np.ndarray:
    image = np.asarray(image)
    if image.ndim == 2:
        image = np.stack([image] * 3, axis=-1)
    return np.ascontiguousarray(image[..., :3].astype(np.uint8))


def compose_frame(
    rgb: np.ndarray, depth: np.ndarray | None, topdown: np.ndarray | None, program_line: str
) -> np.ndarray:
    """One video frame: the panels side by side above a strip with the current program line (even size)."""
    rgb = _as_rgb(rgb)
    height = rgb.shape[0]
    panels = [rgb]
    if depth is not None:
        panels.append(_fit_height(colourise_depth(depth), height))
    if topdown is not None:
        panels.append(_fit_height(_as_rgb(topdown), height))
    row = np.concatenate(panels, axis=1)
    width = row.shape[1] + row.shape[1] % 2
    total_height = height + TEXT_STRIP_PX
    total_height += total_height % 2
    canvas = Image.new("RGB", (width, total_height), (0, 0, 0))
    canvas.paste(Image.fromarray(row), (0, 0))
    ImageDraw.Draw(canvas).text(
        (6, height + 6), program_line[:200], fill=(255, 255, 255), font=ImageFont.load_default()
    )
    return np.asarray(canvas)


class EpisodeFrames:
    """The FrameSink the harness hands a runner: writes an MP4 when video is on, keeps the last top-down map."""

    def __init__(self, video_path: Path | None, fps: int = 10) -> None:
        self.video_path = video_path
        self.fps = fps
        self.last_topdown: np.ndarray | None = None
        self.num_frames = 0
        self._writer: Any = None
        self._size: tuple[int, int] | None = None

    @property
    def enabled(self) -> bool:
        return self.video_path is not None

    def add(
        self,
        rgb: np.ndarray,
        depth: np.ndarray | None = None,
        topdown: np.ndarray | None = None,
        program_line: str = "",
    ) -> None:
        """Record one step (see tango.types.frames.FrameSink)."""
        if topdown is not None:
            self.last_topdown = topdown
        if self.video_path is None:
            return
        frame = compose_frame(rgb, depth, topdown, program_line)
        if self._writer is None:
            import imageio.v2 as imageio

            self.video_path.parent.mkdir(parents=True, exist_ok=True)
            self._size = (frame.shape[1], frame.shape[0])
            self._writer = imageio.get_writer(
                str(self.video_path),
                fps=self.fps,
                codec="libx264",
                macro_block_size=2,
                ffmpeg_log_level="error",
            )
        elif self._size is not None and (frame.shape[1], frame.shape[0]) != self._size:
            frame = np.asarray(Image.fromarray(frame).resize(self._size, Image.Resampling.NEAREST))
        self._writer.append_data(frame)
        self.num_frames += 1

    def close(self) -> Path | None:
        """Finish the video; its path if any frame was written."""
        if self._writer is None:
            return None
        self._writer.close()
        self._writer = None
        return self.video_path

    def save_thumbnail(self, path: Path, max_side: int = 640, min_side: int = 400) -> Path | None:
        """Write the last top-down map as a PNG a person can read (small maps enlarged by a whole factor,
        cell edges kept sharp; large ones shrunk to `max_side`); its path, or None if the runner sent no map."""
        if self.last_topdown is None:
            return None
        image = Image.fromarray(_as_rgb(self.last_topdown))
        factor = max(1, -(-min_side // max(image.size)))
        if factor > 1:
            image = image.resize((image.width * factor, image.height * factor), Image.Resampling.NEAREST)
        image.thumbnail((max_side, max_side))
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        return path
