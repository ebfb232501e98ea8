"""What the agent sees at a key node: a stitched left | front | right view, rendered or read from the dataset.

`RenderedViews` renders the maze scene (tango.sim.render.Renderer) with three square sub-views of 90 degrees;
`DatasetImageViews` reads the published images when they are present (RGB only: no semantics, so only
image-based recognition works on them). Both return `NodeView`s; the condition's marks are drawn by the env.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from tango.benchmarks.graphnav.keygraph import Cell, KeyGraph
from tango.benchmarks.graphnav.maze import DIRECTION_NAMES, Maze
from tango.benchmarks.graphnav.observed import visible_directions
from tango.benchmarks.graphnav.scene3d import (
    CAMERA_HEIGHT,
    CELL_SIZE,
    build_maze_scene,
    cell_center,
    heading_yaw,
)
from tango.sim.pose import camera_pose


@dataclass
class NodeView:
    """A stitched left|front|right frame (or a single overview); semantic/depth are None for dataset images."""

    rgb: np.ndarray
    semantic: np.ndarray | None = None
    depth: np.ndarray | None = None

    def sub_view(self, index: int) -> NodeView:
        """Sub-view 0 (left), 1 (front) or 2 (right)."""
        width = self.rgb.shape[1] // 3
        cut = slice(index * width, (index + 1) * width)
        return NodeView(
            rgb=self.rgb[:, cut],
            semantic=None if self.semantic is None else self.semantic[:, cut],
            depth=None if self.depth is None else self.depth[:, cut],
        )


class ViewSource(Protocol):
    """Where node views come from."""

    def node_view(self, node: Cell, heading: int) -> NodeView: ...

    def destination_view(self, node: Cell) -> NodeView: ...


@dataclass
class ViewConfig:
    """Sub-view resolution (pixels, square, 90 degree field of view) and render depth range."""

    resolution: int = 128
    depth_max: float = 80.0


class RenderedViews:
    """Renders node views of one maze on demand and caches them."""

    def __init__(self, maze: Maze, graph: KeyGraph, config: ViewConfig | None = None) -> None:
        from tango.sim.render import Renderer

        self.config = config or ViewConfig()
        self.graph = graph
        self.scene = build_maze_scene(maze, graph)
        size = self.config.resolution
        self._renderer = Renderer(self.scene.scene, size, size, 90.0, 0.0, self.config.depth_max)
        self._cache: dict[tuple[Cell, int], NodeView] = {}

    def _render(self, position: np.ndarray, yaw: float, pitch: float = 0.0) -> NodeView:
        frame = self._renderer.render(camera_pose(position, yaw, pitch, CAMERA_HEIGHT))
        assert frame.rgb is not None
        return NodeView(rgb=frame.rgb.copy(), semantic=frame.semantic, depth=frame.depth)

    def node_view(self, node: Cell, heading: int) -> NodeView:
        key = (node, heading)
        if key not in self._cache:
            parts = [self._render(cell_center(node), heading_yaw(d)) for d in visible_directions(heading)]
            self._cache[key] = NodeView(
                rgb=np.concatenate([p.rgb for p in parts], axis=1),
                semantic=np.concatenate([p.semantic for p in parts], axis=1),  # type: ignore[misc]
                depth=np.concatenate([p.depth for p in parts], axis=1),  # type: ignore[misc]
            )
        return self._cache[key]

    def destination_view(self, node: Cell) -> NodeView:
        """The goal's overview: from a cell away down its first open corridor, looking up at its landmark."""
        direction = min(self.graph.neighbors.get(node) or {0: node})  # an isolated node: look from the north
        dx, dy = ((0, 1), (1, 0), (0, -1), (-1, 0))[direction]
        position = cell_center(node) + np.array([dx, 0.0, -dy]) * CELL_SIZE * 0.9
        return self._render(position, heading_yaw((direction + 2) % 4), pitch=np.deg2rad(30.0))

    def close(self) -> None:
        self._renderer.release()


class DatasetImageViews:
    """The published images: `images/maze_nodes_{folder}/{S}x{S}/` + a file template (an assumption, see docs)."""

    def __init__(self, data_root: str | Path, maze: Maze, folder: str, template: str) -> None:
        self.base = Path(data_root) / "images" / f"maze_nodes_{folder}" / f"{maze.size}x{maze.size}"
        self.maze = maze
        self.template = template

    def _read(self, node: Cell, heading: str) -> NodeView:
        from PIL import Image

        path = self.base / self.template.format(
            maze_name=self.maze.name, x=node[0], y=node[1], heading=heading
        )
        if not path.is_file():
            raise FileNotFoundError(f"{path}: GraphNav image not found (graphnav.image_template?)")
        return NodeView(rgb=np.asarray(Image.open(path).convert("RGB")))

    def node_view(self, node: Cell, heading: int) -> NodeView:
        return self._read(node, DIRECTION_NAMES[heading])

    def destination_view(self, node: Cell) -> NodeView:
        return self._read(node, "overview")

    def close(self) -> None:
        return None


def dataset_images_present(data_root: str | Path, folder: str) -> bool:
    return (Path(data_root) / "images" / f"maze_nodes_{folder}").is_dir()
