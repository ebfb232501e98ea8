"""What the agent sees at a key node: a stitched left | front | right view, rendered or read from the dataset.

`RenderedViews` renders the maze scene (tango.sim.render.Renderer) with three square sub-views of 90 degrees;
`DatasetImageViews` reads the published renders when they are present (RGB only: no semantics, so only
image-based recognition works on them). Both return `NodeView`s; the condition's marks are drawn by the env.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from tango.benchmarks.graphnav.availability import MissingImages
from tango.benchmarks.graphnav.keygraph import Cell, KeyGraph
from tango.benchmarks.graphnav.maze import Maze
from tango.benchmarks.graphnav.observed import visible_directions
from tango.benchmarks.graphnav.scene3d import (
    CAMERA_HEIGHT,
    CELL_SIZE,
    build_maze_scene,
    cell_center,
    heading_yaw,
)
from tango.types.poses import camera_pose


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


NODE_IN_NAME = re.compile(r"_X(\d+)_Y(\d+)")
FROM_IN_NAME = re.compile(r"_From(North|East|South|West)_", re.IGNORECASE)
FROM_NAMES = ("North", "East", "South", "West")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


def maze_image_dir(data_root: str | Path, folder: str, maze: Maze) -> Path:
    """`images/maze_nodes_{folder}/{S}x{S}/{maze_name}/`: one maze's published renders of one condition."""
    return Path(data_root) / "images" / f"maze_nodes_{folder}" / f"{maze.size}x{maze.size}" / maze.name


class DatasetImageViews:
    """One maze's published renders, indexed by file name as the published toolkit reads them.

    Every name holds `_X{x}_Y{y}`; a stitched left|front|right view also holds `LFR` and
    `_From{North|East|South|West}_`, the side the agent came from (it faces the opposite way); a goal image holds
    `overview`. A view that is not on disk raises MissingImages (no fallback to another view).
    """

    def __init__(self, data_root: str | Path, maze: Maze, folder: str) -> None:
        self.folder = maze_image_dir(data_root, folder, maze)
        self._views: dict[tuple[Cell, int], Path] = {}
        self._overviews: dict[Cell, Path] = {}
        files = sorted(self.folder.iterdir()) if self.folder.is_dir() else []
        for path in files:
            node_match = NODE_IN_NAME.search(path.name)
            if path.suffix.lower() not in IMAGE_SUFFIXES or node_match is None:
                continue
            node = (int(node_match.group(1)), int(node_match.group(2)))
            from_match = FROM_IN_NAME.search(path.name)
            if from_match and "lfr" in path.name.lower():
                side = FROM_NAMES.index(from_match.group(1).capitalize())
                self._views.setdefault((node, side), path)
            elif "overview" in path.name.lower():
                self._overviews.setdefault(node, path)

    @property
    def present(self) -> bool:
        return bool(self._views)

    def missing(self, views: list[tuple[Cell, int]], goal: Cell) -> list[str]:
        """The needed (node, heading) views and goal overview that are not on disk, described."""
        gaps = [
            f"LFR view of {list(node)} from {FROM_NAMES[(heading + 2) % 4]}"
            for node, heading in views
            if (node, (heading + 2) % 4) not in self._views
        ]
        return gaps + ([] if goal in self._overviews else [f"overview of {list(goal)}"])

    @staticmethod
    def _read(path: Path) -> NodeView:
        from PIL import Image

        return NodeView(rgb=np.asarray(Image.open(path).convert("RGB")))

    def node_view(self, node: Cell, heading: int) -> NodeView:
        path = self._views.get((node, (heading + 2) % 4))
        if path is None:
            side = FROM_NAMES[(heading + 2) % 4]
            raise MissingImages(f"{self.folder}: no LFR view of node {list(node)} arriving from {side}")
        return self._read(path)

    def destination_view(self, node: Cell) -> NodeView:
        if node not in self._overviews:
            raise MissingImages(f"{self.folder}: no overview image of node {list(node)}")
        return self._read(self._overviews[node])

    def close(self) -> None:
        return None


def dataset_images_present(data_root: str | Path, folder: str) -> bool:
    return (Path(data_root) / "images" / f"maze_nodes_{folder}").is_dir()
