"""POST /action: one flat JSON action, checked and applied to the World as the app's documented schema says.

First-person actions need first-person mode and map actions map mode (the app's view modes); `terminate` is
the runner's signal, never an app action. Returns the human-readable `action` label of the reply. Every action
takes simulation time (walking its seconds, a look 0.3 s, a jump 0.8 s, a map action 0.5 s, a route 1 s), so the
app's duration-weighted counters (rain exposure, time on the sidewalk) and the clock move as they would.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tango.urban.city.mapstyle import MAX_SPAN_M, MIN_SPAN_M
from tango.urban.server.world import WEATHERS, ActionError, World

FIRST_PERSON = frozenset({"move", "sprint", "look", "jump"})
MAP_ONLY = frozenset(
    {
        "map_select",
        "map_pan",
        "map_zoom",
        "map_orbit",
        "identify_location",
        "navigate",
        "clear_route",
        "map_teleport",
        "close_map",
    }
)
JUMP_S = 0.8
DIRECTIONS = ("forward", "backward", "left", "right")


def _number(action: dict[str, Any], name: str, default: float | None = None) -> float:
    if name not in action:
        if default is None:
            raise ActionError(f"{action['action']} needs a numeric {name!r}")
        return default
    value = action[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(float(value)):
        raise ActionError(f"{action['action']}: {name!r} must be a finite number, got {value!r}")
    return float(value)


def _jump_at(action: dict[str, Any], seconds: float) -> float | None:
    """When a move jumps (`jump_at` seconds in, or at its start with `jump: true`); None when it does not."""
    if "jump_at" in action:
        return min(seconds, max(0.0, _number(action, "jump_at")))
    return 0.0 if action.get("jump") is True else None


def _navigate(world: World) -> str:
    """Draw the walking route from the avatar to the selected point on the map (the app's `navigate`)."""
    if world.selection is None:
        raise ActionError("navigate needs a map_select first")
    grid = world.raster.navgrid()
    path = grid.shortest_path(
        np.array([world.east, 0.0, -world.north]), np.array([world.selection[0], 0.0, -world.selection[1]])
    )
    world.advance(1.0)
    if not path:
        world.route = []
        return "navigate: no walking route to the selected point"
    world.route = [(float(p[0]), float(-p[2])) for p in path]
    length = sum(math.dist(a, b) for a, b in zip(world.route, world.route[1:]))
    return f"navigate: route drawn, {length:.0f} m"


def describe_point(world: World, east: float, north: float) -> str:
    """What the map knows at a point: the nearest shop or landmark within 20 m, the surface, coordinates."""
    lat, lon = world.district.frame.to_geo(east, north)
    parts = [f"{lat:.6f},{lon:.6f}"]
    places = [
        (shop.name, shop.category.replace("_", " "), shop.label_anchor) for shop in world.district.shops
    ]
    places += [(lm.name, "landmark", lm.footprint.center) for lm in world.district.landmarks]
    nearest = min(places, key=lambda p: math.hypot(p[2][0] - east, p[2][1] - north))
    if math.hypot(nearest[2][0] - east, nearest[2][1] - north) <= 20.0:
        parts.append(f"{nearest[0]} ({nearest[1]})")
    surface = world.raster.surface_at(east, north)
    if surface:
        parts.append(surface)
    return ": ".join(parts[:1]) + (": " + ", ".join(parts[1:]) if len(parts) > 1 else "")


def perform(
    world: World, action: Any, on_substep: Callable[[float], None] | None = None, pedestrian_seed: int = 0
) -> str:
    """Apply one action; ActionError (with the reason) when the app would refuse it."""
    if not isinstance(action, dict) or not isinstance(action.get("action"), str):
        raise ActionError('an action is one JSON object with a string "action" field')
    name = action["action"]
    if name == "terminate":
        raise ActionError("terminate is the runner's signal to stop; it is not sent to the app")
    if name in FIRST_PERSON and world.mode != "first_person":
        raise ActionError(f"{name} is unavailable in map mode; close_map first")
    if name in MAP_ONLY and world.mode != "map":
        raise ActionError(f"{name} is unavailable in first-person mode; open_map first")
    if name in ("move", "sprint"):
        direction = action.get("dir")
        if direction not in DIRECTIONS:
            raise ActionError(f"{name}: dir must be one of {list(DIRECTIONS)}, got {direction!r}")
        seconds = min(10.0, max(0.0, _number(action, "seconds", 0.5)))
        jump_at = _jump_at(action, seconds)
        covered = world.move(
            direction,
            seconds,
            name == "sprint",
            _number(action, "yaw_rate", 0.0),
            _number(action, "pitch_rate", 0.0),
            on_substep,
        )
        jumped = "" if jump_at is None else f", jump at {jump_at:g}s"
        return f"{name}: {direction} for {seconds:g}s ({covered:.1f} m{jumped})"
    if name == "look":
        world.look(
            max(-180.0, min(180.0, _number(action, "yaw", 0.0))),
            max(-90.0, min(90.0, _number(action, "pitch", 0.0))),
        )
        return f"look: yaw {action.get('yaw', 0)}, pitch {action.get('pitch', 0)}"
    if name == "jump":
        world.advance(JUMP_S)
        return "jump"
    if name == "open_map":
        world.open_map()
        world.advance(0.5)
        return "open_map"
    if name == "close_map":
        world.mode = "first_person"
        return "close_map"
    if name == "map_pan":
        east = max(-2000.0, min(2000.0, _number(action, "east", 0.0)))
        north = max(-2000.0, min(2000.0, _number(action, "north", 0.0)))
        world.map_camera.east += east
        world.map_camera.north += north
        world.advance(0.5)
        return f"map_pan: east {east:g} m, north {north:g} m"
    if name == "map_zoom":
        factor = max(0.25, min(4.0, _number(action, "factor", 1.0)))
        world.map_camera.span_m = max(MIN_SPAN_M, min(MAX_SPAN_M, world.map_camera.span_m * factor))
        world.advance(0.5)
        return f"map_zoom: factor {factor:g} (span {world.map_camera.span_m:.0f} m)"
    if name == "map_orbit":
        yaw = max(-180.0, min(180.0, _number(action, "yaw", 0.0)))
        pitch = max(-90.0, min(90.0, _number(action, "pitch", 0.0)))
        world.advance(0.5)
        return f"map_orbit: yaw {yaw:g}, pitch {pitch:g} (the stand-in's map stays a north-up plan)"
    if name == "navigate":
        return _navigate(world)
    if name == "clear_route":
        world.route = []
        return "clear_route"
    if name == "map_select":
        x = max(0.0, min(1.0, _number(action, "x", 0.5)))
        y = max(0.0, min(1.0, _number(action, "y", 0.5)))
        world.selection = world.map_pixel(x, y)
        world.advance(0.5)
        return f"map_select: {describe_point(world, *world.selection)}"
    if name == "identify_location":
        if world.selection is None:
            raise ActionError("identify_location needs a map_select first")
        return f"identify_location: {describe_point(world, *world.selection)}"
    if name == "map_teleport":
        if world.selection is None:
            raise ActionError("map_teleport needs a map_select first")
        world.teleport(*world.selection)
        world.mode = "first_person"
        return "map_teleport"
    return _environment_action(world, name, action, pedestrian_seed)


def _environment_action(world: World, name: str, action: dict[str, Any], pedestrian_seed: int) -> str:
    if name == "teleport":
        lat, lon = _number(action, "lat"), _number(action, "lon")
        height = _number(action, "height", _number(action, "alt", 0.0))
        world.teleport(*world.district.frame.to_local(lat, lon))
        world.mode = "first_person"
        return f"teleport: {lat:.6f},{lon:.6f}, height {height:g} m (landed at {world.altitude:.1f} m)"
    if name == "where_am_i":
        return f"where_am_i: {world.raster.surface_at(world.east, world.north) or 'unknown surface'}"
    if name in ("show_network", "hide_network", "toggle_network"):
        return f"{name}: the stand-in map always shows the pedestrian surfaces"
    if name == "set_weather":
        asked = action.get("weather")
        weather = asked if isinstance(asked, str) and asked in WEATHERS else "sunny"
        world.weather = weather
        return f"set_weather: {weather}" + ("" if weather == asked else f" ({asked!r} is no weather; sunny)")
    if name == "set_time":
        hour, minute = _number(action, "hour"), _number(action, "minute", 0.0)
        if not (0 <= hour < 24 and 0 <= minute < 60):
            raise ActionError(f"set_time: hour 0-23 and minute 0-59, got {hour:g}:{minute:g}")
        day = world.clock_s // 86400 * 86400
        world.clock_s = day + int(hour) * 3600 + int(minute) * 60
        return f"set_time: {int(hour):02d}:{int(minute):02d}"
    if name == "set_time_scale":
        world.time_scale = max(0.0, min(100.0, _number(action, "factor", 1.0)))
        return f"set_time_scale: {world.time_scale:g}"
    if name in ("enable_pedestrians", "disable_pedestrians"):
        world.set_pedestrians(name == "enable_pedestrians", pedestrian_seed)
        return name
    if name == "enter_task":
        task = world.enter_task(str(action.get("id", "")))
        return f"enter_task: {task.id}"
    if name == "exit_task":
        world.exit_task()
        return "exit_task"
    raise ActionError(f"unknown action {name!r}")
