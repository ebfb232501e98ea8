"""Everything the benchmark writers need about one scene: annotations, navigability, view points of every
instance, neighbours, and start poses from which a goal is reachable.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path

import moderngl
import numpy as np

from tango.scenes.datasets.facts import Neighbours, find_neighbours
from tango.scenes.datasets.viewpoints import ObjectView, ViewPointConfig, find_view_points, yaw_quaternion
from tango.scenes.datasets.visibility import VisibilityRenderer
from tango.sim.navgrid import NavGrid
from tango.sim.scene import load_scene
from tango.types.scene import SceneAnnotations, SceneObject

LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class StartPose:
    """A navigable start position and heading with its geodesic distance to the goal set."""

    position: tuple[float, float, float]
    yaw: float
    geodesic_distance: float
    euclidean_distance: float

    @property
    def rotation(self) -> tuple[float, float, float, float]:
        """The heading as a quaternion [x, y, z, w]."""
        return yaw_quaternion(self.yaw)


@dataclass
class SceneContext:
    """One scene prepared for episode writing; `scene_file` is the episodes' scene_id (relative to scenes/)."""

    scene_id: str
    scene_file: str
    annotations: SceneAnnotations
    grid: NavGrid
    views: dict[int, list[ObjectView]]
    neighbours: Neighbours

    def goal_objects(self, category: str | None = None) -> list[SceneObject]:
        """Instances (of `category`, or all) that have at least one view point."""
        return [
            o
            for o in self.annotations.objects
            if o.id in self.views and (category is None or o.category == category)
        ]

    def categories(self) -> list[str]:
        """Categories with at least one instance that has view points, sorted."""
        return sorted({o.category for o in self.goal_objects()})

    def view_positions(self, objects: list[SceneObject]) -> list[np.ndarray]:
        """The floor positions of all view points of these instances."""
        return [np.asarray(v.position) for o in objects for v in self.views[o.id]]

    def geodesic_to(self, start: np.ndarray, objects: list[SceneObject]) -> float:
        """Geodesic distance from start to the nearest view point of any of the instances."""
        return min(self.grid.geodesic_distance(start, self.view_positions([o])) for o in objects)

    def closest_object(self, start: np.ndarray, objects: list[SceneObject]) -> SceneObject:
        """The instance whose view points are geodesically nearest to start."""
        return min(objects, key=lambda o: self.grid.geodesic_distance(start, self.view_positions([o])))

    def sample_start(
        self, objects: list[SceneObject], rng: np.random.Generator, min_geodesic_m: float, tries: int = 60
    ) -> StartPose | None:
        """A random navigable start at least `min_geodesic_m` (geodesic) from the instances' view points."""
        targets = self.view_positions(objects)
        for _ in range(tries):
            start = self.grid.snap(self.grid.sample_navigable_point(rng))
            geodesic = self.geodesic_to(start, objects)
            if math.isfinite(geodesic) and geodesic >= min_geodesic_m:
                euclid = min(float(np.linalg.norm(start - t)) for t in targets)
                yaw = float(rng.uniform(-math.pi, math.pi))
                return StartPose(tuple(float(v) for v in start), yaw, geodesic, euclid)  # type: ignore[arg-type]
        return None


def build_scene_context(
    glb_path: Path,
    scene_file: str,
    config: ViewPointConfig,
    ctx: moderngl.Context | None = None,
    categories: frozenset[str] | None = None,
) -> SceneContext:
    """Load the scene, build its navigability grid and find the view points of every annotated instance, or of
    the instances of `categories` only (a benchmark that needs no others: rendering is most of the time)."""
    scene = load_scene(glb_path, require_annotations=True)
    annotations = scene.annotations
    assert annotations is not None
    grid = NavGrid.from_scene(scene.mesh, floor_y=annotations.floor_y)
    renderer = VisibilityRenderer(scene.mesh, config.width, config.height, config.hfov_deg, grid.floor_y, ctx)
    try:
        views = {}
        for obj in annotations.objects:
            if categories is not None and obj.category not in categories:
                continue
            found = find_view_points(grid, renderer, obj, config)
            if found:
                views[obj.id] = found
    finally:
        renderer.release()
    LOG.info("%s: %d of %d objects have view points", scene.scene_id, len(views), len(annotations.objects))
    return SceneContext(
        scene_id=scene.scene_id,
        scene_file=scene_file,
        annotations=annotations,
        grid=grid,
        views=views,
        neighbours=find_neighbours(annotations),
    )
