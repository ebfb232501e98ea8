"""A maze as a 3D scene: floor tiles, wall blocks, and a landmark hung above every key node.

World frame (docs/architecture.md): y up; grid x maps to world +x and grid y (north) to world -z, so heading
d (0=N, 1=E, 2=S, 3=W) is yaw -d * pi/2. Landmarks hang between LANDMARK_BOTTOM and about 2.6 m: above the
camera's field of view at its own node, visible at the end of every corridor leading to it.
Each landmark is the node `obj_{k+1}` for key node k, so the semantic sensor reports key node k as k + 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
import trimesh

from tango.benchmarks.graphnav.keygraph import Cell, KeyGraph
from tango.benchmarks.graphnav.landmarks import NUM_MODELS, landmark_model
from tango.benchmarks.graphnav.maze import Maze

CELL_SIZE = 2.0
WALL_HEIGHT = 3.2
CAMERA_HEIGHT = 1.0
LANDMARK_BOTTOM = 1.75
FLOOR_COLOR = (120, 110, 100, 255)
WALL_COLOR = (200, 200, 205, 255)


def cell_center(cell: Cell) -> np.ndarray:
    """World position (floor level) of a grid cell's centre."""
    return np.array([cell[0] * CELL_SIZE, 0.0, -cell[1] * CELL_SIZE])


def heading_yaw(direction: int) -> float:
    """Camera yaw facing absolute direction (0=N ... 3=W)."""
    return -direction * np.pi / 2.0


def landmark_id(graph: KeyGraph, node: Cell) -> int:
    """The semantic instance id of node's landmark (its index in graph.nodes, plus one)."""
    return graph.nodes.index(node) + 1


def model_for(maze_name: str, node_index: int) -> int:
    """The landmark model of a key node: a per-maze shuffle of the catalog (distinct within a maze).

    A maze of side 17 has at most 81 key nodes (its lattice points), fewer than the 127 models.
    """
    seed = sum(ord(c) * (i + 1) for i, c in enumerate(maze_name)) % (2**32)
    order = np.random.default_rng(seed).permutation(NUM_MODELS)
    return int(order[node_index % NUM_MODELS])


@dataclass
class MazeScene:
    """The trimesh scene of a maze and the landmark model used at each key node."""

    scene: trimesh.Scene
    models: dict[Cell, int]


def build_maze_scene(maze: Maze, graph: KeyGraph) -> MazeScene:
    """Walls on wall cells and around the border, a floor under path cells, a landmark per key node."""
    size = maze.size
    scene = trimesh.Scene()
    walls = []
    for x in range(-1, size + 1):
        for y in range(-1, size + 1):
            if maze.is_path(x, y):
                continue
            box = trimesh.creation.box(extents=(CELL_SIZE, WALL_HEIGHT, CELL_SIZE))
            box.apply_translation(cell_center((x, y)) + np.array([0.0, WALL_HEIGHT / 2, 0.0]))
            walls.append(box)
    wall_mesh = cast(trimesh.Trimesh, trimesh.util.concatenate(walls))
    wall_colors = np.tile(np.array(WALL_COLOR, np.uint8), (len(wall_mesh.faces), 1))
    wall_mesh.visual = trimesh.visual.ColorVisuals(wall_mesh, face_colors=wall_colors)
    scene.add_geometry(wall_mesh, node_name="walls", geom_name="walls")
    extent = size * CELL_SIZE
    floor = trimesh.creation.box(extents=(extent, 0.02, extent))
    floor.apply_translation([extent / 2 - CELL_SIZE / 2, -0.01, -(extent / 2 - CELL_SIZE / 2)])
    floor_colors = np.tile(np.array(FLOOR_COLOR, np.uint8), (len(floor.faces), 1))
    floor.visual = trimesh.visual.ColorVisuals(floor, face_colors=floor_colors)
    scene.add_geometry(floor, node_name="floor", geom_name="floor")
    models = {}
    for index, node in enumerate(graph.nodes):
        models[node] = model_for(maze.name, index)
        mesh = landmark_model(models[node])
        top_offset = -mesh.bounds[0][1]
        mesh.apply_translation(cell_center(node) + np.array([0.0, LANDMARK_BOTTOM + top_offset, 0.0]))
        name = f"obj_{landmark_id(graph, node)}"
        scene.add_geometry(mesh, node_name=name, geom_name=name)
    return MazeScene(scene=scene, models=models)
