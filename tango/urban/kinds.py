"""UrbanGround's task kinds: numeric type plus id prefix, the evaluator their registry routes it to, the rung of
the ladder, and the conditions its episode runs in.

Their registry decides by id prefix first and by numeric type otherwise: rain variants (RQ, RN), pedestrian
variants (PD, PL), weather and time-of-day variants (TS/OC/CL/EV/NT with a Q or N suffix) reuse the type of
their source task; type 12 serves ImplicitIntentNav (II ids) and DynamicClosureNav (any other id). A task whose
prefix and type route to no evaluator is an `UnknownKind` (their harness skips it). `evaluator` is the class
name their registry picks, recorded per episode as `urban_evaluator`; `base` is the prefix of the plain kind
whose agent template and scoring a variant shares (an OrientationQA under rain is still an OrientationQA).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

RUNGS = ("local_qa", "explicit_nav", "implicit", "multi_stop", "dynamic", "conditions")


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
    evaluator: str = ""
    base: str = ""

    @property
    def condition(self) -> str | None:
        """The environmental condition of a variant ("rain", "night", "pedestrians"...), None for a plain kind."""
        return _CONDITION_NAMES.get(self.prefix)


def _kind(
    name: str, prefix: str, task_type: int, rung: str, family: str, start: str, **extra: object
) -> Kind:
    evaluator = str(extra.pop("evaluator", f"{name}Evaluator"))
    base = str(extra.pop("base", prefix))
    return Kind(name, prefix, task_type, rung, family, start, evaluator=evaluator, base=base, **extra)  # type: ignore[arg-type]


KINDS: tuple[Kind, ...] = (
    _kind("LandmarkQA", "LQ", 7, "local_qa", "qa", "qaStartPoint"),
    _kind("OrientationQA", "OQ", 8, "local_qa", "qa", "qaStartPoint"),
    _kind("SpatialQA", "SQ", 9, "local_qa", "qa", "qaStartPoint"),
    _kind("ShortNav", "SN", 0, "explicit_nav", "nav", "startPoint"),
    _kind("LongNav", "LN", 2, "explicit_nav", "nav", "startPoint"),
    _kind("InstructionNav", "IN", 10, "explicit_nav", "nav", "startPoint"),
    _kind("ConstrainedNav", "CN", 11, "explicit_nav", "nav", "startPoint", closures="upfront"),
    _kind("PlaceSearch", "PS", 3, "implicit", "place_search", "searchOrigin"),
    _kind("ImplicitIntentNav", "II", 12, "implicit", "nav", "exploreStart"),
    _kind("ScheduleWindowNav", "SF", 5, "multi_stop", "schedule", "scheduleStart"),
    _kind("MultipointNav", "MP", 13, "multi_stop", "multipoint", "multiRouteStart"),
    _kind("DynamicClosureNav", "DCR", 12, "dynamic", "nav", "startPoint", closures="delayed", base="CN"),
    _kind("PedestrianLongNav", "PL", 2, "dynamic", "nav", "startPoint", pedestrians=True, base="LN"),
    _kind("RainShortNav", "RN", 0, "dynamic", "nav", "startPoint", weather="rainy", base="SN"),
    _kind(
        "NightNav",
        "NTN",
        0,
        "dynamic",
        "nav",
        "startPoint",
        weather="sunny",
        clock=(23, 30),
        evaluator="ConditionShortNavEvaluator",
        base="SN",
    ),
)
"""The kinds tango's stand-in task generator writes (one rung each)."""

_PLAIN = {kind.prefix: kind for kind in KINDS if kind.base == kind.prefix}
BY_TYPE = {kind.task_type: kind for kind in _PLAIN.values() if kind.prefix != "II"}
_QA_EVALUATOR_STEM = {7: "Exploration", 8: "Orientation", 9: "Spatial"}
_QA_BASE = {7: "LQ", 8: "OQ", 9: "SQ"}
# prefix -> (report name stem, set_weather value, clock or None): their condition table's settings
_CONDITIONS: dict[str, tuple[str, str, tuple[int, int] | None]] = {
    "TS": ("Thunderstorm", "thunderstorm", None),
    "OC": ("Overcast", "overcast", None),
    "CL": ("Cloudy", "cloudy", None),
    "EV": ("Dusk", "sunny", (18, 30)),
    "NT": ("Night", "sunny", (23, 30)),
}
_CONDITION_NAMES = {
    **{stem + suffix: name.lower() for stem, (name, _, _) in _CONDITIONS.items() for suffix in "QN"},
    "RQ": "rain",
    "RN": "rain",
    "PD": "pedestrians",
    "PL": "pedestrians",
    "DCR": "dynamic_closure",
}
VARIANT_PREFIXES = frozenset({"RQ", "PD", *(stem + suffix for stem in _CONDITIONS for suffix in "QN")})
BY_PREFIX = {**{p: _PLAIN["SN"] for p in VARIANT_PREFIXES}, **{kind.prefix: kind for kind in KINDS}}
"""Every id prefix tango knows (the generated kinds and the other variants their registry routes)."""


class UnknownKind(ValueError):
    """A task whose type and id prefix route to no evaluator in their registry (their harness skips it)."""


def id_prefix(task_id: str) -> str:
    return task_id.split("-", 1)[0].upper() if "-" in task_id else ""


def _unknown(task_id: str, task_type: int, prefix: str) -> UnknownKind:
    return UnknownKind(
        f"task {task_id!r}: type {task_type} with prefix {prefix!r} has no UrbanGround evaluator"
    )


def kind_of(task_id: str, task_type: int) -> Kind:
    """The kind of a task as their registry routes it: variant prefixes first, then type 12 by prefix, then
    the numeric type. UnknownKind when no evaluator takes it."""
    prefix = id_prefix(task_id)
    qa_stem = _QA_EVALUATOR_STEM.get(task_type)
    if prefix == "RQ":
        if qa_stem is None:
            raise _unknown(task_id, task_type, prefix)
        base = _PLAIN[_QA_BASE[task_type]]
        return replace(
            base,
            name=f"Rain{base.name}",
            prefix=prefix,
            rung="conditions",
            weather="rainy",
            evaluator=f"Rain{qa_stem}QAEvaluator",
            base=base.prefix,
        )
    if prefix in ("RN", "PL", "PD"):
        if prefix == "PD":
            sn = _PLAIN["SN"]
            return replace(
                sn,
                name="PedestrianShortNav",
                prefix="PD",
                rung="dynamic",
                pedestrians=True,
                evaluator="PedestrianShortNavEvaluator",
                base="SN",
            )
        return replace(next(k for k in KINDS if k.prefix == prefix), task_type=task_type)
    condition = _CONDITIONS.get(prefix[:2]) if len(prefix) == 3 and prefix[2] in "QN" else None
    if condition is not None:
        stem, weather, clock = condition
        if prefix[2] == "Q":
            if qa_stem is None:
                raise _unknown(task_id, task_type, prefix)
            base = _PLAIN[_QA_BASE[task_type]]
            evaluator = f"Condition{qa_stem}QAEvaluator"
            name = f"{stem}QA"
        else:
            base, evaluator, name = _PLAIN["SN"], "ConditionShortNavEvaluator", f"{stem}Nav"
        rung = "dynamic" if prefix == "NTN" else "conditions"
        return replace(
            base,
            name=name,
            prefix=prefix,
            task_type=task_type,
            rung=rung,
            weather=weather,
            clock=clock,
            evaluator=evaluator,
            base=base.prefix,
        )
    if task_type == 12:
        return _PLAIN["II"] if prefix == "II" else next(k for k in KINDS if k.prefix == "DCR")
    if task_type in BY_TYPE:
        return BY_TYPE[task_type]
    raise _unknown(task_id, task_type, prefix)


def kinds_of_rung(rung: str) -> tuple[str, ...]:
    """The id prefixes of one rung, or of all rungs for 'all'."""
    if rung == "all":
        return tuple(BY_PREFIX)
    if rung not in RUNGS:
        raise ValueError(f"urban.rung={rung!r}; choose one of {['all', *RUNGS]}")
    prefixes = [kind.prefix for kind in KINDS if kind.rung == rung]
    if rung == "conditions":
        prefixes += sorted(VARIANT_PREFIXES - {"PD", "NTN"})
    if rung == "dynamic":
        prefixes.append("PD")
    return tuple(prefixes)
