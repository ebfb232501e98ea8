"""The live state of the stand-in city: the avatar, view mode, map camera, clock, weather, pedestrians, the
active task (markers and closures) and the run counters; `state()` is the app's /state object.

Motion is continuous: a move of `seconds` advances in 0.1 s substeps at walking (1.4 m/s) or sprinting
(3.5 m/s) pace; a substep into a cell that is not walkable slides along the free axis or stops. Closures are
lines on the ground and on the map, not walls: crossing one is scored, not prevented (as in the app). Time is
simulation time: actions advance the clock by what they take, so runs are deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from tango.urban.city.layout import District
from tango.urban.city.mapstyle import DEFAULT_SPAN_M
from tango.urban.city.mapview import MapCamera
from tango.urban.city.raster import BUILDING, PAVEMENT_CLASSES, CityRaster
from tango.urban.server.pedestrians import Crowd
from tango.urban.taskfile import UrbanTask

WALK_M_S, SPRINT_M_S = 1.4, 3.5
DIRECTION_FACTORS = {
    "forward": (0.0, 1.0),
    "backward": (180.0, 0.7),
    "left": (-90.0, 0.9),
    "right": (90.0, 0.9),
}
SUBSTEP_S = 0.1
EYE_HEIGHT_M = 1.6
WEATHERS = {
    "sunny": 0.0,
    "partly_cloudy": 0.0,
    "cloudy": 0.0,
    "overcast": 0.0,
    "rainy": 0.55,
    "thunderstorm": 0.95,
}
CLOSURE_DISCLOSURE_S = 30.0
START_CLOCK_S = 10 * 3600.0
PEDESTRIAN_COUNT = 60


class ActionError(ValueError):
    """An action the app would refuse (unknown, wrong mode, bad field); the message says why (HTTP 400)."""


@dataclass
class ActiveTask:
    """The entered task as the world uses it: markers shown on the map, closures and when they appear (in
    simulation seconds since the task was entered, so setting the clock does not move them)."""

    task: UrbanTask
    markers: list[tuple[str, float, float]]
    closures: list[tuple[str, list[tuple[float, float]]]]
    closures_after_s: float
    elapsed_s: float = 0.0


@dataclass
class Counters:
    rain_hits: int = 0
    rain_exposure_seconds: float = 0.0
    pedestrian_collisions: int = 0
    building_collisions: int = 0
    stats_tracked_seconds: float = 0.0


@dataclass
class World:
    district: District
    raster: CityRaster
    tasks: dict[str, UrbanTask]
    east: float = 0.0
    north: float = 0.0
    yaw: float = 0.0
    pitch: float = 0.0
    mode: str = "first_person"
    clock_s: float = START_CLOCK_S
    time_scale: float = 1.0
    weather: str = "sunny"
    crowd: Crowd | None = None
    task: ActiveTask | None = None
    counters: Counters = field(default_factory=Counters)
    map_camera: MapCamera = field(default_factory=lambda: MapCamera(0.0, 0.0))
    selection: tuple[float, float] | None = None
    route: list[tuple[float, float]] = field(default_factory=list)
    shelter: np.ndarray | None = None
    pedestrian_seed: int = 0

    def __post_init__(self) -> None:
        start = self.district.shops[0].entrance
        self.east, self.north = start
        self.shelter = _shelter_mask(self.district, self.raster)

    # --- where the avatar is ---------------------------------------------------------------------------------

    @property
    def lat_lon(self) -> tuple[float, float]:
        return self.district.frame.to_geo(self.east, self.north)

    @property
    def altitude(self) -> float:
        return self.raster.height_at(self.east, self.north)

    @property
    def raining(self) -> bool:
        return WEATHERS[self.weather] > 0

    def sheltered(self) -> bool:
        row, col = self.raster.cell(self.east, self.north)
        return bool(self.shelter is not None and self.raster.inside(row, col) and self.shelter[row, col])

    def teleport(self, east: float, north: float, yaw: float | None = None) -> None:
        """Put the avatar at the nearest walkable cell to the point (the app snaps to the ground it finds)."""
        if not self.raster.is_walkable(east, north):
            grid = self.raster.navgrid()
            snapped = grid.snap(np.array([east, 0.0, -north]))
            east, north = float(snapped[0]), float(-snapped[2])
        self.east, self.north = east, north
        if yaw is not None:
            self.yaw = yaw % 360.0
        self.pitch = 0.0

    # --- time ---------------------------------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        """Let `seconds` of simulation time pass (pedestrians walk, rain falls on the unsheltered avatar)."""
        scaled = seconds * self.time_scale
        self.clock_s += scaled
        self.counters.stats_tracked_seconds += seconds
        if self.task is not None:
            self.task.elapsed_s += seconds
        if self.crowd is not None:
            self.crowd.advance(seconds)
            self.counters.pedestrian_collisions += self.crowd.collisions(self.east, self.north)
        if self.raining and not self.sheltered():
            self.counters.rain_exposure_seconds += seconds

    @property
    def clock_text(self) -> str:
        total = int(self.clock_s + 1e-6) % 86400
        return f"{total // 3600:02d}:{total % 3600 // 60:02d}:{total % 60:02d}"

    # --- motion ---------------------------------------------------------------------------------------------

    def move(
        self,
        direction: str,
        seconds: float,
        sprint: bool,
        yaw_rate: float = 0.0,
        pitch_rate: float = 0.0,
        on_substep: object = None,
    ) -> float:
        """Walk or sprint; returns metres covered. `on_substep(elapsed)` is called after every substep."""
        offset, factor = DIRECTION_FACTORS[direction]
        speed = (SPRINT_M_S if sprint else WALK_M_S) * factor
        steps = max(1, round(seconds / SUBSTEP_S))
        dt = seconds / steps
        covered, blocked_by_building = 0.0, False
        exposed = False
        for k in range(steps):
            self.yaw = (self.yaw + yaw_rate * dt) % 360.0
            self.pitch = float(np.clip(self.pitch + pitch_rate * dt, -90.0, 90.0))
            heading = math.radians(self.yaw + offset)
            dx, dy = math.sin(heading) * speed * dt, math.cos(heading) * speed * dt
            moved = False
            for cx, cy in ((dx, dy), (dx, 0.0), (0.0, dy)):
                if (cx or cy) and self.raster.is_walkable(self.east + cx, self.north + cy):
                    self.east += cx
                    self.north += cy
                    covered += math.hypot(cx, cy)
                    moved = True
                    break
            if not moved and self.raster.class_at(self.east + dx, self.north + dy) == BUILDING:
                blocked_by_building = True
            self.advance(dt)
            exposed = exposed or (self.raining and not self.sheltered())
            if callable(on_substep):
                on_substep((k + 1) * dt)
        if blocked_by_building:
            self.counters.building_collisions += 1
        if exposed:
            self.counters.rain_hits += 1
        return covered

    def look(self, yaw: float, pitch: float) -> None:
        self.yaw = (self.yaw + yaw) % 360.0
        self.pitch = float(np.clip(self.pitch + pitch, -89.0, 89.0))
        self.advance(0.3)

    # --- map ------------------------------------------------------------------------------------------------

    def open_map(self) -> None:
        self.mode = "map"
        self.map_camera = MapCamera(self.east, self.north, DEFAULT_SPAN_M)
        self.selection = None

    def map_pixel(self, x: float, y: float) -> tuple[float, float]:
        """Local point under normalised map coordinates (x right, y down, both 0-1)."""
        camera = self.map_camera
        return camera.to_local(x * camera.width, y * camera.height)

    # --- task -----------------------------------------------------------------------------------------------

    def enter_task(self, task_id: str) -> UrbanTask:
        """Load a task as the app does: teleport to its start, pin its markers, load its closures, and set the
        weather, the clock (its own time, else 10:00; the clock restarts with every task) and pedestrians."""
        if task_id not in self.tasks:
            raise ActionError(f"no task {task_id!r} in this build's task folder")
        task = self.tasks[task_id]
        from tango.urban.instructions import schedule_now_s

        kind = task.kind
        now = schedule_now_s(task) if kind.family == "schedule" else None
        hour, minute = kind.clock or (10, 0)
        self.clock_s = now if now is not None else hour * 3600.0 + minute * 60.0
        self.weather = kind.weather or "sunny"
        self.set_pedestrians(kind.pedestrians, self.pedestrian_seed)
        self.route = []
        frame = self.district.frame
        closures = [(zone.label, [frame.to_local(*v) for v in zone.vertices]) for zone in task.zones]
        delay = CLOSURE_DISCLOSURE_S if task.kind.closures == "delayed" else 0.0
        self.task = ActiveTask(task, _markers(task, frame), closures, delay)
        start = frame.to_local(task.start.lat, task.start.lon)
        self.teleport(*start, yaw=task.start.yaw)
        self.mode = "first_person"
        return task

    def exit_task(self) -> None:
        """Clear the task and what it set (weather, pedestrians, the drawn route)."""
        self.task = None
        self.mode = "first_person"
        self.weather = "sunny"
        self.crowd = None
        self.route = []

    def active_closures(self) -> list[tuple[str, list[tuple[float, float]]]]:
        if self.task is None or self.task.elapsed_s < self.task.closures_after_s:
            return []
        return self.task.closures

    def set_pedestrians(self, enabled: bool, seed: int) -> None:
        self.crowd = Crowd(self.raster, PEDESTRIAN_COUNT, seed) if enabled else None

    # --- what /state reports --------------------------------------------------------------------------------

    def state(self) -> dict[str, object]:
        lat, lon = self.lat_lon
        surface_class = self.raster.class_at(self.east, self.north)
        rain = WEATHERS[self.weather]
        counters = self.counters
        return {
            "mode": self.mode,
            "lat": round(lat, 8),
            "lon": round(lon, 8),
            "alt": round(self.altitude, 3),
            "yaw": round(self.yaw, 3),
            "pitch": round(self.pitch, 3),
            "surface": self.raster.surface_at(self.east, self.north) or "unknown",
            "on_sidewalk": surface_class in PAVEMENT_CLASSES,
            "time": self.clock_text,
            "weather": self.weather,
            "weather_label": self.weather.replace("_", " ").title(),
            "pedestrians_active": self.crowd is not None,
            "pedestrian_count": len(self.crowd) if self.crowd is not None else 0,
            "is_raining": rain > 0,
            "rain_intensity": rain,
            "being_rained_on": rain > 0 and not self.sheltered(),
            "has_overhead_shelter": self.sheltered(),
            "rain_hits": counters.rain_hits,
            "rain_exposure_seconds": round(counters.rain_exposure_seconds, 3),
            "pedestrian_collisions": counters.pedestrian_collisions,
            "building_collisions": counters.building_collisions,
            "stats_tracked_seconds": round(counters.stats_tracked_seconds, 3),
            "tiles_progress": 100.0,
            "tiles_settled": True,
            "idle": True,
        }

    def task_info(self) -> dict[str, object]:
        """/task: the active task's id, type, labelled end points and how many closures are in effect."""
        if self.task is None:
            return {"active": False}
        task = self.task.task
        frame = self.district.frame
        return {
            "active": True,
            "id": task.id,
            "type": task.type,
            "type_name": task.kind.name,
            "end_points": [
                {"label": label, **dict(zip(("lat", "lon"), frame.to_geo(east, north)))}
                for label, east, north in self.task.markers
            ],
            "restricted_zones": len(self.active_closures()),
        }


def _markers(task: UrbanTask, frame: object) -> list[tuple[str, float, float]]:
    """The points the app pins on the map: a navigation goal, multi-point targets, schedule stops. Implicit
    intent and place search show none (the place is what the agent must find)."""
    from tango.urban.geo import LocalFrame

    assert isinstance(frame, LocalFrame)
    points = []
    if task.kind.family == "nav" and task.end is not None and task.kind.prefix != "II":
        points.append((task.end.label or "Destination", task.end.lat, task.end.lon))
    points += [
        (t.note or t.point.label or f"Target {i + 1}", t.point.lat, t.point.lon)
        for i, t in enumerate(task.targets)
    ]
    points += [
        (s.target.label or f"Stop {i + 1}", s.target.lat, s.target.lon) for i, s in enumerate(task.schedule)
    ]
    return [(label, *frame.to_local(lat, lon)) for label, lat, lon in points]


def _shelter_mask(district: District, raster: CityRaster) -> np.ndarray:
    """Cells under a shop awning (0.9 m out from the facade, 8 m wide)."""
    mask = np.zeros(raster.classes.shape, bool)
    for shop in district.shops:
        (x0, y0), (x1, y1) = shop.facade
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        nx, ny = shop.normal
        for along in np.arange(-4.0, 4.01, 0.5):
            for out in np.arange(0.0, 0.91, 0.45):
                east = cx + nx * out + (0.0 if nx else along)
                north = cy + ny * out + (along if nx else 0.0)
                row, col = raster.cell(east, north)
                if raster.inside(row, col):
                    mask[row, col] = True
    return mask
