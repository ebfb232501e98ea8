"""WGS84 helpers: haversine distance, a local east/north tangent plane, and segment intersection there.

Distances are horizontal (altitude ignored), as UrbanGround's arrival test is. The local frame is an
equirectangular projection about an origin, accurate to centimetres over a few kilometres.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

EARTH_RADIUS_M = 6_371_000.0


def haversine_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in metres between two WGS84 points (altitude ignored)."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi, dlam = phi2 - phi1, math.radians(lon2 - lon1)
    value = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2.0 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(value)))


@dataclass(frozen=True)
class LocalFrame:
    """East/north metres about (origin_lat, origin_lon); `to_geo` inverts `to_local` exactly."""

    origin_lat: float
    origin_lon: float

    @property
    def _metres_per_deg_lat(self) -> float:
        return math.radians(1.0) * EARTH_RADIUS_M

    @property
    def _metres_per_deg_lon(self) -> float:
        return math.radians(1.0) * EARTH_RADIUS_M * math.cos(math.radians(self.origin_lat))

    def to_local(self, lat: float, lon: float) -> tuple[float, float]:
        """(east, north) metres of a WGS84 point."""
        return (
            (lon - self.origin_lon) * self._metres_per_deg_lon,
            (lat - self.origin_lat) * self._metres_per_deg_lat,
        )

    def to_geo(self, east: float, north: float) -> tuple[float, float]:
        """(lat, lon) of a local point."""
        return (
            self.origin_lat + north / self._metres_per_deg_lat,
            self.origin_lon + east / self._metres_per_deg_lon,
        )


Point2 = tuple[float, float]


def _cross(o: Point2, a: Point2, b: Point2) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _within(p: Point2, a: Point2, b: Point2, eps: float = 1e-9) -> bool:
    return (
        min(a[0], b[0]) - eps <= p[0] <= max(a[0], b[0]) + eps
        and min(a[1], b[1]) - eps <= p[1] <= max(a[1], b[1]) + eps
    )


def segments_intersect(p1: Point2, p2: Point2, q1: Point2, q2: Point2, eps: float = 1e-9) -> bool:
    """True when the closed segments p1-p2 and q1-q2 share a point (touching counts)."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    if ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and (
        (d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)
    ):
        return True
    return (
        (abs(d1) <= eps and _within(p1, q1, q2))
        or (abs(d2) <= eps and _within(p2, q1, q2))
        or (abs(d3) <= eps and _within(q1, p1, p2))
        or (abs(d4) <= eps and _within(q2, p1, p2))
    )


def path_length_m(points: Iterable[tuple[float, float]]) -> float:
    """Sum of haversine distances along (lat, lon) points."""
    items = list(points)
    return sum(haversine_m(a[0], a[1], b[0], b[1]) for a, b in itertools.pairwise(items))


def spanning_tree_m(points: Sequence[tuple[float, float]]) -> float:
    """Length of the minimum spanning tree (haversine edges) over (lat, lon) points; 0 for fewer than two."""
    if len(points) < 2:
        return 0.0
    best = [math.inf] * len(points)
    in_tree = [False] * len(points)
    best[0] = 0.0
    total = 0.0
    for _ in range(len(points)):
        node = min((i for i in range(len(points)) if not in_tree[i]), key=lambda i: best[i])
        in_tree[node] = True
        total += best[node]
        for other in range(len(points)):
            if not in_tree[other]:
                distance = haversine_m(*points[node], *points[other])
                best[other] = min(best[other], distance)
    return total
