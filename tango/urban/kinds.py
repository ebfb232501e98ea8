"""UrbanGround's task kinds: numeric type plus id prefix, the rung of the ladder, and the episode conditions.

The app serialises two kinds under numeric type 12 (DynamicClosureNav for CN/DCR ids, ImplicitIntentNav for II
ids) and runs weather, time-of-day and pedestrian variants under their source's type, so a kind is told apart by
its id prefix first (as their registry does) and by its type otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

RUNGS = ("local_qa", "explicit_nav", "implicit", "multi_stop", "dynamic")


@dataclass(frozen=True)
class Kind:
    """One task kind: how it is scored (`family`), where its start is, and the conditions its episode runs in."""

    name: str
    prefix: str
    task_type: int
    rung: str
    family: str  # qa | nav | place_search | schedule | multipoint
    start_field: str
    weather: str | None = None
    clock: tuple[int, int] | None = None
    pedestrians: bool = False
    closures: str = "none"  # none | upfront | delayed


KINDS: tuple[Kind, ...] = (
    Kind("LandmarkQA", "LQ", 7, "local_qa", "qa", "qaStartPoint"),
    Kind("OrientationQA", "OQ", 8, "local_qa", "qa", "qaStartPoint"),
    Kind("SpatialQA", "SQ", 9, "local_qa", "qa", "qaStartPoint"),
    Kind("ShortNav", "SN", 0, "explicit_nav", "nav", "startPoint"),
    Kind("LongNav", "LN", 2, "explicit_nav", "nav", "startPoint"),
    Kind("InstructionNav", "IN", 10, "explicit_nav", "nav", "startPoint"),
    Kind("ConstrainedNav", "CN", 11, "explicit_nav", "nav", "startPoint", closures="upfront"),
    Kind("PlaceSearch", "PS", 3, "implicit", "place_search", "searchOrigin"),
    Kind("ImplicitIntentNav", "II", 12, "implicit", "nav", "exploreStart"),
    Kind("ScheduleWindowNav", "SF", 5, "multi_stop", "schedule", "scheduleStart"),
    Kind("MultipointNav", "MP", 13, "multi_stop", "multipoint", "multiRouteStart"),
    Kind("DynamicClosureNav", "DCR", 12, "dynamic", "nav", "startPoint", closures="delayed"),
    Kind("PedestrianLongNav", "PL", 2, "dynamic", "nav", "startPoint", pedestrians=True),
    Kind("RainShortNav", "RN", 0, "dynamic", "nav", "startPoint", weather="rainy"),
    Kind("NightNav", "NTN", 0, "dynamic", "nav", "startPoint", weather="sunny", clock=(23, 30)),
)
BY_PREFIX = {kind.prefix: kind for kind in KINDS}
BY_NAME = {kind.name: kind for kind in KINDS}
BASE_PREFIXES = ("LQ", "OQ", "SQ", "SN", "LN", "IN", "CN", "PS", "SF", "MP")
BY_TYPE = {kind.task_type: kind for kind in KINDS if kind.prefix in BASE_PREFIXES}


class UnknownKind(ValueError):
    """A task whose type and id prefix name no kind this evaluator scores."""


def id_prefix(task_id: str) -> str:
    return task_id.split("-", 1)[0].upper() if "-" in task_id else ""


def kind_of(task_id: str, task_type: int) -> Kind:
    """The kind of a task: by id prefix when the prefix is a known kind of that type family, else by type."""
    prefix = id_prefix(task_id)
    kind = BY_PREFIX.get(prefix)
    if kind is not None and kind.task_type == task_type:
        return kind
    if (
        task_type == 12 and prefix != "II"
    ):  # DynamicClosureNav payloads reuse CN-* ids (their registry routes non-II type 12 there)
        return BY_PREFIX["DCR"]
    if task_type in BY_TYPE:
        return BY_TYPE[task_type]
    known = ", ".join(f"{k.prefix}/{k.task_type}" for k in KINDS)
    raise UnknownKind(f"task {task_id!r}: type {task_type} with prefix {prefix!r} is no known kind ({known})")


def kinds_of_rung(rung: str) -> tuple[Kind, ...]:
    """The kinds of one rung, or of all rungs for 'all'."""
    if rung == "all":
        return KINDS
    if rung not in RUNGS:
        raise ValueError(f"urban.rung={rung!r}; choose one of {['all', *RUNGS]}")
    return tuple(kind for kind in KINDS if kind.rung == rung)
