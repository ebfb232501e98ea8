"""The text an agent is given for a task, per kind, carrying what UrbanGround's evaluators put in their task
text: start and goal points for explicit navigation, the closures of a ConstrainedNav task, the question and
lettered options of a QA task, the need or request of implicit tasks, the visits of multi-stop tasks. A task's
hidden fields (an implicit task's end point, the answer index, a dynamic closure before its notice, the
ground-truth places of a search) never appear here."""

from __future__ import annotations

from tango.urban.kinds import BY_PREFIX, Kind
from tango.urban.schedule import ParsedSchedule, parse_schedule
from tango.urban.taskfile import UrbanTask, Zone

LETTERS = "ABCD"


def describe_closures(zones: tuple[Zone, ...]) -> str:
    if not zones:
        return "No road closures are in effect."
    lines = []
    for zone in zones:
        points = "; ".join(f"({lat:.6f}, {lon:.6f})" for lat, lon in zone.vertices)
        lines.append(f"- {zone.label}: closure line through waypoints [{points}]")
    return "\n".join(lines)


def closure_notice(task: UrbanTask) -> str:
    """The one-off notice of a dynamic closure, given when it appears."""
    return (
        "NOTICE: a road closure has just appeared and is shown on the map. From now on you must not cross it:\n"
        f"{describe_closures(task.zones)}\nReplan your route around it."
    )


def _label(kind: Kind) -> str:
    """The kind's name in task text: a weather or time-of-day variant keeps its source's prompt unchanged, as
    their condition evaluators do."""
    return BY_PREFIX[kind.base].name if kind.evaluator.startswith("Condition") else kind.name


def task_instruction(task: UrbanTask) -> str:
    kind, start = task.kind, task.start.describe()
    if kind.family == "qa":
        options = "\n".join(f"{letter}. {text}" for letter, text in zip(LETTERS, task.qa_options))
        return f"[{_label(kind)}] {task.description}\n{options}\nAnswer with one letter."
    if kind.prefix == "II":
        return (
            f"[Implicit Intent Navigation]\nCurrent location: {start}\nEveryday goal: {task.description}\n"
            "Work out what kind of place meets this need, find a suitable one nearby and walk to it."
        )
    if kind.family == "place_search":
        return (
            f"[Place Search]\nCurrent location: {start}\nRequest: {task.description}\n"
            "Find a suitable place nearby, walk to its entrance and stop there."
        )
    if kind.family == "multipoint":
        return (
            f"[Multi-Point Route]\nCurrent location: {start}\n{task.description}\n"
            f"There are {len(task.targets)} places to visit in any order; plan an efficient route."
        )
    if kind.family == "schedule":
        return (
            f"[Time-Window Schedule]\nCurrent location: {start}\n{task.description}\n"
            "Visit the places in this order and arrive by each time; the clock runs while you act."
        )
    assert task.end is not None
    lines = [f"[{_label(kind)}]", f"Start: {start}", f"Goal: {task.end.describe()}"]
    if kind.base == "IN" and task.description:
        lines.append(f"Turn-by-turn instructions: {task.description}")
    elif task.description:
        lines.append(task.description)
    if kind.closures == "upfront":
        lines.append("Road closures in effect for the whole task (never cross these lines):")
        lines.append(describe_closures(task.zones))
    return "\n".join(lines)


def parsed_schedule(task: UrbanTask) -> ParsedSchedule:
    """The schedule's times read from its description (tango.urban.schedule)."""
    return parse_schedule(task.description, [stop.target.label for stop in task.schedule])


def schedule_now_s(task: UrbanTask) -> float | None:
    """The schedule's stated current time (seconds after midnight), else 45 minutes before its first time."""
    parsed = parsed_schedule(task)
    if parsed.now_s is not None:
        return parsed.now_s
    first = next((d for d in schedule_deadlines_s(task) if d is not None), None)
    return None if first is None else first - 45 * 60.0


def schedule_deadlines_s(task: UrbanTask) -> list[float | None]:
    """Each stop's deadline (seconds after midnight): the file's `deadline` (tango's own files), else the time
    the description gives it; None when it gives none."""
    parsed = parsed_schedule(task).deadlines_s
    deadlines: list[float | None] = []
    for index, stop in enumerate(task.schedule):
        if stop.deadline:
            hour, minute = (int(part) for part in stop.deadline.split(":"))
            deadlines.append(hour * 3600 + minute * 60.0)
        else:
            deadlines.append(parsed[index])
    return deadlines
