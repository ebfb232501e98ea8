"""What the city primitives do, over an UrbanEpisode: look and read signs, read the map, find places on it,
plan on the map as read and walk there through the app's actions, answer.

Every app action is charged to the program's step budget. Position and heading come from the app's state
(a GPS and compass reading); the map is known only from map views this agent opened; signs are read by the
configured reader (`ocr`: Tesseract on the screenshot, tango.urban.agents.ocr; `oracle`: the stand-in's ground
truth, a named oracle; `none`: no sign reading).
"""

from __future__ import annotations

import itertools
import logging
import math
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from tango.trace.budget import Budget
from tango.urban.agents.citymap import ObservedMap
from tango.urban.agents.mapreader import MapReading, find_icons, find_label, read_walkability
from tango.urban.city.mapstyle import DEFAULT_SPAN_M
from tango.urban.city.mapview import MapCamera
from tango.urban.episode import UrbanEpisode
from tango.urban.geo import LocalFrame
from tango.urban.routes import Point, follow, heading_to, route_length

log = logging.getLogger(__name__)
QUARTERS = ("front", "right", "behind", "left")
OCR_VIEW = (
    1280,
    960,
)  # screenshots read by OCR: twice the default size, so shop boards are tall enough to read
OCR_PITCH_DEG = 12.0  # how far up OCR views look
CAMERA_HFOV_DEG = 75.0  # the first-person camera's horizontal field of view (bearings of text read by OCR)
_WORD = re.compile(r"[a-z0-9]+")


@dataclass
class Sighting:
    text: str
    bearing: float  # compass degrees from the agent
    distance_m: float


@dataclass
class UrbanBackend:
    episode: UrbanEpisode
    budget: Budget
    signs: str = "oracle"
    frame: LocalFrame = field(init=False)
    city: ObservedMap = field(default_factory=ObservedMap)
    camera: MapCamera | None = None
    sightings: dict[str, Sighting] = field(default_factory=dict)
    start_yaw: float = 0.0
    notices_seen: int = 0
    replans: int = 0

    def __post_init__(self) -> None:
        self.frame = LocalFrame(*self.episode.position)
        self.start_yaw = self.episode.yaw

    # --- acting --------------------------------------------------------------------------------------------

    @property
    def here(self) -> Point:
        return self.frame.to_local(*self.episode.position)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        self.budget.charge_steps()
        return self.episode.act(action)

    def _step(self, action: dict[str, Any]) -> tuple[Point, float]:
        self.act(action)
        return self.here, self.episode.yaw

    def close_map(self) -> None:
        if self.episode.mode == "map":
            self.act({"action": "close_map"})

    # --- signs ----------------------------------------------------------------------------------------------

    def read_signs(self) -> list[str]:
        """Texts read in the current view, remembered with their bearing: by OCR of the screenshot (`ocr`),
        the stand-in's ground truth (`oracle`), or none."""
        self.close_map()
        if self.signs == "none":
            return []
        if self.signs == "ocr":
            return self._read_signs_ocr()
        found = []
        for sign in self.episode.visible_signs():
            text = str(sign["text"])
            bearing = (self.episode.yaw + float(sign["bearing_deg"])) % 360.0
            self.sightings.setdefault(text, Sighting(text, bearing, float(sign["distance_m"])))
            found.append(text)
        return found

    def _read_signs_ocr(self) -> list[str]:
        from tango.urban.agents.ocr import read_text

        width, height = OCR_VIEW
        rgb = self.episode.observe("png", width, height)
        found = []
        for line in read_text(rgb):
            bearing = (self.episode.yaw + line.bearing_deg(rgb.shape[1], CAMERA_HFOV_DEG)) % 360.0
            self.sightings.setdefault(line.text, Sighting(line.text, bearing, math.nan))
            found.append(line.text)
        return found

    def look_around(self) -> list[str]:
        """A full circle of views (back to the first heading), reading signs at each: six 60-degree turns, or
        for OCR eight 45-degree turns looking 12 degrees up (boards hang above eye level; a wider overlap
        between views catches a board squarely in some view, where OCR reads it)."""
        turns, pitch = (8, OCR_PITCH_DEG) if self.signs == "ocr" else (6, 0.0)
        if pitch:
            self.act({"action": "look", "yaw": 0.0, "pitch": pitch})
        seen = self.read_signs()
        for turn in range(turns):
            self.act({"action": "look", "yaw": 360.0 / turns, "pitch": 0.0})
            if turn < turns - 1:
                seen += [name for name in self.read_signs() if name not in seen]
        if pitch:
            self.act({"action": "look", "yaw": 0.0, "pitch": -pitch})
        return seen

    def relative_direction(self, name: str) -> str:
        """front / right / behind / left of a place relative to the heading at the start: from where its sign was
        read, else from where the map prints its name."""
        sighting = self.sightings.get(name)
        if sighting is None:
            scored = [(match_score(name, text), s) for text, s in self.sightings.items()]
            score, best = max(scored, key=lambda item: item[0], default=(0.0, None))
            sighting = best if score > 0.6 else None
        if sighting is not None:
            bearing = sighting.bearing
        else:  # not read in view: where the map prints its name
            place = self.locate(name)
            if not place:
                return ""
            bearing = heading_to(self.here, self.frame.to_local(*place))
        relative = (bearing - self.start_yaw) % 360.0
        return QUARTERS[int(((relative + 45.0) % 360.0) // 90.0)]

    # --- the map --------------------------------------------------------------------------------------------

    def _read_view(self, east: float, north: float) -> MapReading:
        """Open the map (centred on the agent), pan to the point if needed, and read the view."""
        if self.episode.mode != "map":
            self.act({"action": "open_map"})
            here = self.here
            self.camera = MapCamera(here[0], here[1], DEFAULT_SPAN_M, self.episode.width, self.episode.height)
        assert self.camera is not None
        de, dn = east - self.camera.east, north - self.camera.north
        if math.hypot(de, dn) > 1.0:
            self.act({"action": "map_pan", "east": round(de, 2), "north": round(dn, 2)})
            self.camera.east += round(de, 2)
            self.camera.north += round(dn, 2)
        rgb = self.episode.observe("png")
        camera = MapCamera(
            self.camera.east, self.camera.north, self.camera.span_m, rgb.shape[1], rgb.shape[0]
        )
        reading = MapReading(camera, rgb, read_walkability(rgb))
        self.city.add(reading)
        return reading

    def cover(self, points: list[Point], margin_m: float = 40.0, refresh: bool = False) -> None:
        """Read map views until the box around the points (plus a margin) has been seen."""
        width = DEFAULT_SPAN_M * 0.9
        height = DEFAULT_SPAN_M * self.episode.height / self.episode.width * 0.9
        east0, east1 = min(p[0] for p in points) - margin_m, max(p[0] for p in points) + margin_m
        north0, north1 = min(p[1] for p in points) - margin_m, max(p[1] for p in points) + margin_m
        columns, rows = (
            max(1, math.ceil((east1 - east0) / width)),
            max(1, math.ceil((north1 - north0) / height)),
        )
        for i in range(columns):
            for j in range(rows):
                ce = east0 + (i + 0.5) * (east1 - east0) / columns
                cn = north0 + (j + 0.5) * (north1 - north0) / rows
                box = (ce - width / 2, cn - height / 2, ce + width / 2, cn + height / 2)
                if refresh or self.city.observed_fraction(*box) < 0.95:
                    self._read_view(ce, cn)

    def _spiral(self, rings: int = 2) -> list[Point]:
        """View centres outward from here, leaving out views already read (their readings are searched first)."""
        here = self.here
        width = DEFAULT_SPAN_M * 0.9
        height = DEFAULT_SPAN_M * self.episode.height / self.episode.width * 0.9
        cells = [(i, j) for i in range(-rings, rings + 1) for j in range(-rings, rings + 1)]
        cells.sort(key=lambda c: math.hypot(c[0] * width, c[1] * height))
        centres = [(here[0] + i * width, here[1] + j * height) for i, j in cells]
        return [
            c
            for c in centres
            if self.city.observed_fraction(
                c[0] - width / 2, c[1] - height / 2, c[0] + width / 2, c[1] + height / 2
            )
            < 0.9
        ]

    def locate(self, name: str) -> list[float]:
        """[lat, lon] of a place whose name the map prints (searching views outward from here), or []."""
        for reading in self.city.readings:
            point = find_label(reading, name)
            if point is not None:
                return list(self.frame.to_geo(*point))
        for center in self._spiral():
            point = find_label(self._read_view(*center), name)
            if point is not None:
                return list(self.frame.to_geo(*point))
        return []

    def find_nearest(self, category: str) -> list[float]:
        """[lat, lon] of the place of a category (by its map icon) nearest to walk to, or []."""
        candidates: list[Point] = []
        for center in self._spiral(1):
            candidates += find_icons(self._read_view(*center), category)
            if candidates:
                break
        if not candidates:
            return []
        here = self.here
        self.cover([here, *candidates], 20.0)
        nearest = sorted(candidates, key=lambda p: math.hypot(p[0] - here[0], p[1] - here[1]))[:4]
        best = min(nearest, key=lambda p: self.city.distance(here, p))
        return list(self.frame.to_geo(*best))

    def walking_distance(self, lat: float, lon: float) -> float:
        goal = self.frame.to_local(lat, lon)
        self.cover([self.here, goal])
        distance = self.city.distance(self.here, goal)
        return distance if math.isfinite(distance) else 1e6

    def plan_visits(self, names: list[str]) -> list[list[float]]:
        """The places in the visiting order of the shortest walk (every order tried), each [lat, lon]."""
        points = {name: self.locate(name) for name in names}
        found = [(name, self.frame.to_local(*p)) for name, p in points.items() if p]
        if not found:
            return []
        here = self.here
        self.cover([here, *[p for _, p in found]])
        best_order, best_length = None, math.inf
        for order in itertools.permutations(found):
            stops = [here, *[p for _, p in order]]
            length = sum(self.city.distance(a, b) for a, b in itertools.pairwise(stops))
            if length < best_length:
                best_order, best_length = order, length
        order = best_order or tuple(found)
        return [list(self.frame.to_geo(*p)) for _, p in order]

    # --- walking --------------------------------------------------------------------------------------------

    def _new_notice(self) -> bool:
        return len(self.episode.notices) > self.notices_seen

    def walk_to(self, lat: float, lon: float) -> bool:
        """Walk to the point (or the nearest walkable point to it) along the map as read; replans after a
        closure notice or when blocked. True when it got there."""
        goal = self.frame.to_local(lat, lon)
        for attempt in range(4):
            start = self.here
            self.cover([start, goal], refresh=self._new_notice())
            self.notices_seen = len(self.episode.notices)
            route = self.city.plan(start, goal, tolerance_m=12.0)
            if not route:
                self.cover([start, goal], margin_m=120.0)
                route = self.city.plan(start, goal, tolerance_m=12.0)
                if not route:
                    log.info("no route to %s on the map as read", goal)
                    return False
            self.close_map()
            outcome, position, _ = follow(
                self._step, self.here, self.episode.yaw, route, arrive_m=1.2, should_stop=self._new_notice
            )
            if outcome == "arrived":
                return True
            self.replans += 1
            log.info("walk_to: %s at %s (attempt %d); replanning", outcome, position, attempt + 1)
        return math.hypot(self.here[0] - goal[0], self.here[1] - goal[1]) < 12.0

    def route_length_to(self, lat: float, lon: float) -> float:
        route = self.city.plan(self.here, self.frame.to_local(lat, lon), 12.0)
        return route_length(route) if route else math.inf


def _word_match(word: str, seen: list[str]) -> float:
    return max((SequenceMatcher(None, word, other).ratio() for other in seen), default=0.0)


def match_score(name: str, text: str) -> float:
    """How well a text read in view matches a name: the mean over the name's words of the best similarity
    (difflib ratio) to a word of the text, words under 0.75 counting zero, so a partly misread name
    ("Blue Bay Cini") still matches and one shared word ("Market" for "Coral Market") scores only half."""
    name_words, words = _WORD.findall(name.lower()), _WORD.findall(text.lower())
    if not name_words:
        return 0.0
    scores = [_word_match(word, words) for word in name_words]
    return sum(score for score in scores if score >= 0.75) / len(name_words)


def choose(options: list[str], evidence: list[str], min_score: float = 0.6) -> str:
    """The letter of the option that best matches one evidence text (match_score above `min_score`); failing
    that, the only option holding every word of some evidence text ("front" in "In front of you"); else ""."""
    best, best_score = "", min_score
    for letter, option in zip("ABCD", options):
        score = max((match_score(str(option), str(text)) for text in evidence), default=0.0)
        if score > best_score:
            best, best_score = letter, score
    if best:
        return best
    for text in evidence:
        words = set(_WORD.findall(str(text).lower()))
        holding = [
            letter for letter, o in zip("ABCD", options) if words and words <= set(_WORD.findall(o.lower()))
        ]
        if len(holding) == 1:
            return holding[0]
    return ""
