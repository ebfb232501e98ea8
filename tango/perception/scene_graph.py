"""A scene graph of what the agent's perception observed: objects (category, room, position, size and the
attributes and captions its components reported), the rooms they were seen in, and relations the graph
computes with its own geometry. It is written as compact text for a language model (the scene-graph answerer,
tango.perception.scene_graph_answerer) and queried by the rule-based answerer
(tango.perception.oracle.answerer).

Nothing here knows where the observations came from: an oracle source fills it from the annotated objects
the agent saw, a perception pipeline from its detections; the graph never reads the rest of a scene.

Relations (this module's own definitions, stated for a reader of the text):
- `beside`: for each object, the two other-category objects of its room whose centres are closest to its
  centre in the floor plane, with that distance;
- `on`: an object whose centre lies over another object's floor footprint and whose bottom is within
  STACK_GAP_M of that object's top, the lower object being the larger in footprint.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

STACK_GAP_M = 0.08
"""How far (metres) an object's bottom may be above or below another's top for it to count as lying on it
(bounding boxes of soft or uneven things leave a few centimetres either way)."""
BESIDE_COUNT = 2
"""How many closest objects the text lists beside each object."""


@dataclass(frozen=True)
class GraphObject:
    """One observed object: `key` identifies it, `room_key` the room instance it was seen in ("" unknown),
    `room` that room's type; `center` (x, y, z) and `size` (x, y, z extents, y up) in metres; `attributes`
    reported values (color, material, ...); `caption` free text a captioner gave ("" none); `sightings` how
    many frames showed it."""

    key: str
    category: str
    room: str
    room_key: str
    center: tuple[float, float, float]
    size: tuple[float, float, float]
    attributes: dict[str, str] = field(default_factory=dict)
    caption: str = ""
    sightings: int = 1

    @property
    def height(self) -> float:
        """Vertical extent (m)."""
        return self.size[1]

    @property
    def volume(self) -> float:
        """Bounding-box volume (m^3)."""
        return float(np.prod(self.size))

    @property
    def bottom(self) -> float:
        return self.center[1] - self.size[1] / 2

    @property
    def top(self) -> float:
        return self.center[1] + self.size[1] / 2

    def over_footprint(self, point: tuple[float, float, float]) -> bool:
        """Whether a point lies over this object's footprint in the floor plane."""
        return all(abs(point[axis] - self.center[axis]) <= self.size[axis] / 2 for axis in (0, 2))


def floor_distance(a: GraphObject, b: GraphObject) -> float:
    """Distance between two objects' centres in the floor plane (m)."""
    return float(np.hypot(a.center[0] - b.center[0], a.center[2] - b.center[2]))


def lies_on(item: GraphObject, base: GraphObject) -> bool:
    """Whether `item` lies on `base`: its centre over the base's footprint, its bottom at the base's top
    (within STACK_GAP_M) and the base the larger of the two in footprint."""
    return (
        item.key != base.key
        and base.over_footprint(item.center)
        and abs(item.bottom - base.top) <= STACK_GAP_M
        and base.size[0] * base.size[2] > item.size[0] * item.size[2]
    )


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") or "0"


class SceneGraph:
    """The observed objects and the rooms they were seen in, with the graph's own relations."""

    def __init__(self, objects: list[GraphObject]) -> None:
        self.objects = sorted(objects, key=lambda o: (o.room, o.room_key, o.category, o.key))

    def room_instances(self) -> dict[str, str]:
        """room_key -> room type of every room an object was seen in."""
        return {o.room_key: o.room for o in self.objects if o.room_key and o.room}

    def room_counts(self) -> Counter[str]:
        """How many distinct rooms of each type were seen."""
        return Counter(self.room_instances().values())

    def of_category(self, category: str, room: str = "") -> list[GraphObject]:
        """Observed objects of `category` (in rooms of type `room` when given), most often seen first."""
        found = [o for o in self.objects if o.category == category and (not room or o.room == room)]
        return sorted(found, key=lambda o: -o.sightings)

    def categories(self) -> list[str]:
        return sorted({o.category for o in self.objects})

    def beside(self, obj: GraphObject) -> list[tuple[float, GraphObject]]:
        """The BESIDE_COUNT closest other-category objects of the same room, closest first, with distances."""
        others = [
            (floor_distance(obj, other), other.key, other)
            for other in self.objects
            if other.category != obj.category and other.room_key == obj.room_key
        ]
        return [(d, other) for d, _, other in sorted(others, key=lambda t: (t[0], t[1]))[:BESIDE_COUNT]]

    def lies_on(self, obj: GraphObject) -> GraphObject | None:
        """The object `obj` lies on, if any (the highest such top)."""
        bases = [base for base in self.objects if lies_on(obj, base)]
        return max(bases, key=lambda b: b.top) if bases else None

    def text(self) -> str:
        """The graph as compact text: one line per room seen, one per object with its reported facts, size,
        position, what it lies on and what is closest to it."""
        if not self.objects:
            return "Nothing has been observed."
        names = self._names()
        counts = self.room_counts()
        lines = ["Rooms seen: " + (", ".join(f"{n} {t}" for t, n in sorted(counts.items())) or "none")]
        current = None
        for obj in self.objects:
            room = (obj.room, obj.room_key)
            if room != current:
                current = room
                lines.append(f"[{names.get(obj.room_key, 'unknown room')}]")
            lines.append("- " + self._object_line(obj, names))
        return "\n".join(lines)

    def _names(self) -> dict[str, str]:
        """room_key -> "bedroom 1", "bedroom 2" (numbered when a type was seen more than once)."""
        counts = self.room_counts()
        seen: Counter[str] = Counter()
        names: dict[str, str] = {}
        for key, room in sorted(self.room_instances().items(), key=lambda kv: (kv[1], kv[0])):
            seen[room] += 1
            names[key] = f"{room} {seen[room]}" if counts[room] > 1 else room
        return names

    def _object_line(self, obj: GraphObject, names: dict[str, str]) -> str:
        """ "lamp: white fabric large; 0.33x0.56x0.33 m; on nightstand; near nightstand 0.05, pillow 0.86" """
        described = " ".join(v for _, v in sorted(obj.attributes.items()))
        parts = [obj.category + (f": {described}" if described else "")]
        if obj.caption:
            parts.append(f'"{obj.caption}"')
        parts.append("x".join(_number(v) for v in obj.size) + " m")
        base = self.lies_on(obj)
        if base is not None:
            parts.append(f"on {base.category}")
        near = self.beside(obj)
        if near:
            parts.append("near " + ", ".join(f"{o.category} {_number(dist)}" for dist, o in near))
        return "; ".join(parts)
