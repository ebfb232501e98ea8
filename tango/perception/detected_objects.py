"""A memory of objects built from what perception reported frame by frame, written as a scene graph: the
detector's labelled masks with depth give each object's place and size, the room classifier's names of the
agent's views give the rooms. It reads nothing but the detections, the depth frame, the camera pose and the
room names, so a graph from it is as good (or as wrong) as the perception that fed it.

- Objects: a detection joins the remembered object of its label whose floor footprint it overlaps (by at
  least MERGE_OVERLAP of the smaller footprint) or whose centre lies within MERGE_DISTANCE_M, or an object of
  another label whose box it overlaps by SAME_BOX_IOU (intersection over union in 3D: one thing named two
  ways, a couch once called an armchair); else it starts a new one. An object is named by the label most of
  its sightings gave. An object's box is the union of its sightings' boxes (the extent of the mask's back-projected
  depth between the LOW_PERCENTILE and HIGH_PERCENTILE), so views from several sides add up to the whole
  object. Objects seen in fewer than MIN_SIGHTINGS frames are left out (a false detection rarely repeats at
  the same place).
- Rooms: the agent's floor positions fall in CELL_M cells; each cell is named by the most frequent room name
  of the views taken in it and its 8 neighbours (one confused view does not make a room), and 4-connected
  cells of one name form a room instance; instances with fewer than MIN_ROOM_VIEWS views are dropped.
  Two instances of one type are one room when the agent's path went from one to the other through at most
  BRIDGE_CELLS cells of neither (a stretch of confused views inside a room, not a second room of the type,
  which lies past a doorway and another room). An object belongs to the instance among those with a cell
  within ROOM_REACH_M of its centre that its own sightings' room names favour (views from closer count
  more), else the nearest.
- Attributes: each sighting's values from the attribute reporter (`perception.attributes`) are counted per
  object; an object has, per attribute, the value most of its sightings reported.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from tango.perception.detections import Detections, normalise_label
from tango.perception.interfaces import Detector, RoomClassifier
from tango.perception.scene_graph import GraphObject, SceneGraph
from tango.types.observation import Observation

MERGE_OVERLAP = 0.3
MERGE_DISTANCE_M = 0.5
SAME_BOX_IOU = 0.5
MIN_EXTENT_M = 0.05
LOW_PERCENTILE, HIGH_PERCENTILE = 3.0, 97.0
MAX_MASK_SAMPLES = 600
"""Mask pixels back-projected per detection (an even subsample of larger masks)."""
MIN_SIGHTINGS = 2
CELL_M = 0.5
MIN_ROOM_VIEWS = 4
ROOM_REACH_M = 1.2
BRIDGE_CELLS = 2
"""The three room choices, measured on the val split's 42 questions against the annotated rooms
(docs/openeqa.md): 4 views keep the small rooms 8 and 12 lost, a 2-cell (1 m) bridge joins most same-room
fragments, and reaches from 0.6 to 2 m give objects their room's type alike, 1.2 m best by a little."""


def thick(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The box grown about its centre to at least MIN_EXTENT_M along every axis."""
    grow = np.clip(MIN_EXTENT_M - (high - low), 0, None) / 2
    return low - grow, high + grow


@dataclass
class DetectedObject:
    """One remembered object: its label, box (world min / max corners), sightings and the room names of the
    views that showed it, weighted by closeness."""

    key: int
    labels: Counter[str]
    low: np.ndarray
    high: np.ndarray
    sightings: int = 1
    room_votes: dict[str, float] = field(default_factory=dict)
    attribute_votes: dict[str, Counter[str]] = field(default_factory=dict)

    def vote(self, attributes: dict[str, str]) -> None:
        """Count one sighting's reported attribute values."""
        for attribute, value in attributes.items():
            self.attribute_votes.setdefault(attribute, Counter())[value] += 1

    @property
    def attributes(self) -> dict[str, str]:
        """Each reported attribute's most frequent value (the first reported wins ties)."""
        return {k: votes.most_common(1)[0][0] for k, votes in sorted(self.attribute_votes.items())}

    @property
    def label(self) -> str:
        """The label most sightings gave (the first given wins ties)."""
        return self.labels.most_common(1)[0][0]

    @property
    def center(self) -> np.ndarray:
        return (self.low + self.high) / 2

    def box_iou(self, low: np.ndarray, high: np.ndarray) -> float:
        """3D intersection over union of this object's box and another, each at least MIN_EXTENT_M thick (a
        flat face seen head-on has no depth extent)."""
        (a_low, a_high), (b_low, b_high) = thick(self.low, self.high), thick(low, high)
        inter = float(np.prod(np.clip(np.minimum(a_high, b_high) - np.maximum(a_low, b_low), 0, None)))
        volumes = float(np.prod(a_high - a_low)) + float(np.prod(b_high - b_low))
        return inter / (volumes - inter)

    def footprint_overlap(self, low: np.ndarray, high: np.ndarray) -> float:
        """Intersection of the two floor footprints (each at least MIN_EXTENT_M wide) over the smaller one."""
        boxes = [thick(self.low, self.high), thick(low, high)]
        (a_low, a_high), (b_low, b_high) = ((lo[[0, 2]], hi[[0, 2]]) for lo, hi in boxes)
        inter = float(np.prod(np.clip(np.minimum(a_high, b_high) - np.maximum(a_low, b_low), 0, None)))
        return inter / min(float(np.prod(a_high - a_low)), float(np.prod(b_high - b_low)))


def mask_box(obs: Observation, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """World box (min, max corners) of a mask's valid depth pixels, trimmed to the percentiles; None when the
    mask has no valid depth."""
    rows, cols = np.nonzero(mask)
    if len(rows) > MAX_MASK_SAMPLES:
        pick = np.linspace(0, len(rows) - 1, MAX_MASK_SAMPLES).astype(np.int64)
        rows, cols = rows[pick], cols[pick]
    depth = np.asarray(obs.depth, dtype=np.float64)[rows, cols]
    valid = np.isfinite(depth) & (depth > 0)
    if obs.depth_clip is not None:
        valid &= depth < obs.depth_clip
    if not np.any(valid):
        return None
    k = obs.intrinsics()
    u, v, d = cols[valid].astype(np.float64), rows[valid].astype(np.float64), depth[valid]
    camera = np.stack([(u - k[0, 2]) / k[0, 0] * d, -(v - k[1, 2]) / k[1, 1] * d, -d, np.ones_like(d)])
    world = (np.asarray(obs.camera_pose, dtype=np.float64) @ camera)[:3].T
    return np.percentile(world, LOW_PERCENTILE, axis=0), np.percentile(world, HIGH_PERCENTILE, axis=0)


class RoomCells:
    """Room names of the agent's views by floor cell, and the room instances they form."""

    def __init__(self) -> None:
        self.votes: dict[tuple[int, int], Counter[str]] = {}
        self.path: list[tuple[int, int]] = []

    @staticmethod
    def cell(point: np.ndarray) -> tuple[int, int]:
        return int(np.floor(point[0] / CELL_M)), int(np.floor(point[2] / CELL_M))

    def record(self, position: np.ndarray, room: str) -> None:
        """Count the view's room name in the agent's cell, and note the cell on the agent's path."""
        cell = self.cell(position)
        if not self.path or self.path[-1] != cell:
            self.path.append(cell)
        if room:
            self.votes.setdefault(cell, Counter())[normalise_label(room)] += 1

    def instances(self) -> dict[tuple[int, int], tuple[str, str]]:
        """cell -> (room type, instance key) for the cells of the kept room instances."""
        named: dict[tuple[int, int], str] = {}
        for x, z in self.votes:
            around: Counter[str] = Counter()
            for dx in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    around.update(self.votes.get((x + dx, z + dz), Counter()))
            named[(x, z)] = around.most_common(1)[0][0]
        rooms: dict[tuple[int, int], tuple[str, str]] = {}
        seen: set[tuple[int, int]] = set()
        for start in sorted(named):
            if start in seen:
                continue
            component, stack = [], [start]
            seen.add(start)
            while stack:
                x, z = stack.pop()
                component.append((x, z))
                for nxt in ((x + 1, z), (x - 1, z), (x, z + 1), (x, z - 1)):
                    if nxt in named and nxt not in seen and named[nxt] == named[start]:
                        seen.add(nxt)
                        stack.append(nxt)
            if sum(sum(self.votes[c].values()) for c in component) >= MIN_ROOM_VIEWS:
                key = f"{named[start]}@{start[0]},{start[1]}"
                rooms.update({c: (named[start], key) for c in component})
        return self._bridged(rooms)

    def _bridged(
        self, rooms: dict[tuple[int, int], tuple[str, str]]
    ) -> dict[tuple[int, int], tuple[str, str]]:
        """`rooms` with instances of one type joined where the agent's path went from one to the other through at
        most BRIDGE_CELLS cells of neither: a stretch of confused views splits a room, a real second room of the
        type lies beyond a doorway and some other room."""
        parent = {key: key for _, key in rooms.values()}

        def root(key: str) -> str:
            while parent[key] != key:
                key = parent[key]
            return key

        last: dict[str, tuple[str, int, tuple[int, int]]] = {}
        for index, cell in enumerate(self.path):
            if cell not in rooms:
                continue
            name, key = rooms[cell]
            if name in last:
                before, at, where = last[name]
                apart = max(abs(cell[0] - where[0]), abs(cell[1] - where[1])) - 1
                if index - at - 1 <= BRIDGE_CELLS and apart <= BRIDGE_CELLS and root(before) != root(key):
                    a, b = root(before), root(key)
                    parent[max(a, b)] = min(a, b)
            last[name] = (key, index, cell)
        return {cell: (name, root(key)) for cell, (name, key) in rooms.items()}


class DetectedObjects:
    """Objects and rooms remembered from detections and room names (see the module docstring)."""

    def __init__(self) -> None:
        self.objects: list[DetectedObject] = []
        self.rooms = RoomCells()

    def record(
        self,
        obs: Observation,
        detections: Detections,
        room: str,
        attributes: list[dict[str, str]] | None = None,
    ) -> None:
        """Add one frame: its detections (with masks), the room name of the view and the attribute values
        reported for each detection (`attributes`, one dict per detection; None: none reported)."""
        self.rooms.record(np.asarray(obs.agent_position, dtype=np.float64), room)
        if detections.masks is None:
            return
        eye = np.asarray(obs.camera_pose, dtype=np.float64)[:3, 3]
        reported = attributes if attributes is not None else [{} for _ in detections.labels]
        for label, mask, values in zip(detections.labels, detections.masks, reported):
            box = mask_box(obs, mask)
            if box is None:
                continue
            self._add(normalise_label(label), box[0], box[1], room, eye).vote(values)

    def _add(
        self, label: str, low: np.ndarray, high: np.ndarray, room: str, eye: np.ndarray
    ) -> DetectedObject:
        """The remembered object the detection joins (or the new one it starts)."""
        center = (low + high) / 2
        weight = 1.0 / (1.0 + float(np.hypot(*(center - eye)[[0, 2]])))
        for obj in self.objects:
            if label in obj.labels:
                near = float(np.hypot(*(obj.center - center)[[0, 2]])) <= MERGE_DISTANCE_M
                same = near or obj.footprint_overlap(low, high) >= MERGE_OVERLAP
            else:
                same = obj.box_iou(low, high) >= SAME_BOX_IOU
            if same:
                obj.low, obj.high = np.minimum(obj.low, low), np.maximum(obj.high, high)
                obj.sightings += 1
                obj.labels[label] += 1
                if room:
                    name = normalise_label(room)
                    obj.room_votes[name] = obj.room_votes.get(name, 0.0) + weight
                return obj
        votes = {normalise_label(room): weight} if room else {}
        self.objects.append(DetectedObject(len(self.objects), Counter({label: 1}), low, high, 1, votes))
        return self.objects[-1]

    def graph(self) -> SceneGraph:
        """The objects seen at least MIN_SIGHTINGS times, in the room instances of the views, as a graph."""
        rooms = self.rooms.instances()
        cells = np.array(list(rooms), dtype=np.float64).reshape(-1, 2)
        names = list(rooms.values())
        nodes = []
        for obj in self.objects:
            if obj.sightings < MIN_SIGHTINGS:
                continue
            room, key = self._room_of(obj, cells, names)
            size = obj.high - obj.low
            nodes.append(
                GraphObject(
                    key=str(obj.key), category=obj.label, room=room, room_key=key,
                    center=tuple(float(c) for c in obj.center), size=tuple(float(s) for s in size),  # type: ignore[arg-type]
                    attributes=obj.attributes, sightings=obj.sightings,
                )
            )  # fmt: skip
        return SceneGraph(nodes)

    @staticmethod
    def _room_of(obj: DetectedObject, cells: np.ndarray, names: list[tuple[str, str]]) -> tuple[str, str]:
        """(room type, instance key) of an object, ("", "") when no room instance was kept."""
        if not len(cells):
            return "", ""
        centres = (cells + 0.5) * CELL_M
        distance = np.hypot(centres[:, 0] - obj.center[0], centres[:, 1] - obj.center[2])
        reach = np.flatnonzero(distance <= ROOM_REACH_M)
        if len(reach):
            best = max(reach, key=lambda i: (obj.room_votes.get(names[i][0], 0.0), -distance[i]))
            return names[int(best)]
        return names[int(np.argmin(distance))]


class AttributeReporter(Protocol):
    """What perception reports of each detection's appearance: {attribute: value} per mask of a frame (the
    `attributes` component; tango.perception.simulated.attributes)."""

    def report(self, obs: Observation, masks: np.ndarray) -> list[dict[str, str]]: ...


class DetectionGraph:
    """The scene graph of what a detector (asked for `vocabulary`), a room classifier and an attribute reporter
    reported about every frame handed to `observe`."""

    def __init__(
        self,
        detector: Detector,
        room: RoomClassifier,
        vocabulary: list[str],
        attributes: AttributeReporter | None = None,
    ) -> None:
        if not vocabulary:
            raise ValueError(
                "perception.answerer.vocabulary is empty: the detector would be asked for nothing"
            )
        self.detector = detector
        self.room = room
        self.attributes = attributes
        self.vocabulary = list(dict.fromkeys(normalise_label(label) for label in vocabulary))
        self.memory = DetectedObjects()

    def observe(self, obs: Observation) -> None:
        """Record one frame's detections, room name and the attributes reported for the detections."""
        found = self.detector.detect(obs, self.vocabulary)
        reported = None
        if self.attributes is not None and found.masks is not None and len(found.labels):
            reported = self.attributes.report(obs, found.masks)
        self.memory.record(obs, found, self.room.classify(obs), reported)

    def graph(self, obs: Observation) -> SceneGraph:
        """The graph of everything recorded (`obs` was recorded by the bundle already)."""
        return self.memory.graph()
