"""The task-set validator: replays each task's reference route through the app's API within its step limit.

Navigation kinds must arrive (and never cross a closure), multi-point and schedule tasks must be completed
(schedules on time), a place search must end at a ground-truth place; QA tasks must be answerable as stated:
after four quarter turns from the start the LandmarkQA answer is legible and no distractor is, the
OrientationQA place is in the answer's quarter, and the SpatialQA answer is legible at the end of its route.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tango.urban.client import ClientConfig, UrbanClient
from tango.urban.config import DEFAULT_MAX_STEPS
from tango.urban.episode import EpisodeOver, UrbanEpisode
from tango.urban.geo import LocalFrame
from tango.urban.routes import follow
from tango.urban.scoring import score
from tango.urban.server.launcher import ServerProcess
from tango.urban.server.standin import TASK_DIR, read_city
from tango.urban.taskfile import UrbanTask, load_task_dir
from tango.urban.taskgen.build import read_references

log = logging.getLogger(__name__)


@dataclass
class Verdict:
    task_id: str
    ok: bool
    steps: int
    limit: int
    reason: str = ""


def _look_around(episode: UrbanEpisode, pitch: float = 0.0) -> dict[str, float]:
    """Sign name -> bearing relative to the heading at the call, over four quarter turns (4 steps; 6 when
    looking up first and back down at the end)."""
    seen: dict[str, float] = {}
    if pitch:
        episode.act({"action": "look", "yaw": 0.0, "pitch": pitch})
    for turn in (0.0, 90.0, 180.0, 270.0):
        if turn:
            episode.act({"action": "look", "yaw": 90.0, "pitch": 0.0})
        for sign in episode.visible_signs():
            seen.setdefault(str(sign["text"]), (turn + float(sign["bearing_deg"])) % 360.0)
    if pitch:
        episode.act({"action": "look", "yaw": 90.0, "pitch": -pitch})
    return seen


def _walk(episode: UrbanEpisode, frame: LocalFrame, legs: list[list[list[float]]]) -> None:
    def step(action: dict[str, Any]) -> tuple[tuple[float, float], float]:
        state = episode.act(action)
        return frame.to_local(state["lat"], state["lon"]), float(state["yaw"])

    for leg in legs:
        waypoints = [frame.to_local(lat, lon) for lat, lon in leg]
        here = frame.to_local(*episode.position)
        follow(step, here, episode.yaw, [here, *waypoints[1:]], arrive_m=1.5)


def _qa_verdict(
    episode: UrbanEpisode, task: UrbanTask, legs: list[list[list[float]]], frame: LocalFrame
) -> str:
    options = task.qa_options
    correct = options[task.qa_answer_index or 0]
    if task.kind.base == "SQ":
        _walk(episode, frame, legs)
    seen = _look_around(episode, 35.0 if task.kind.base == "SQ" else 0.0)
    if task.kind.base == "OQ":
        name = task.description.split("Where is ", 1)[-1].split(" relative", 1)[0]
        if name not in seen:
            return f"{name!r} is not legible from the start"
        quadrant = int(((seen[name] + 45) % 360) // 90)
        return (
            "" if quadrant == task.qa_answer_index else f"{name!r} is in quarter {quadrant}, not the answer's"
        )
    if correct not in seen:
        return f"the answer {correct!r} is not legible"
    if task.kind.base == "LQ":
        shown = [o for o in options if o != correct and o in seen]
        if shown:
            return f"distractors are legible too: {shown}"
    episode.give_answer("ABCD"[task.qa_answer_index or 0])
    return ""


def validate_task(
    client: UrbanClient, task: UrbanTask, reference: dict[str, Any], frame: LocalFrame, limit: int
) -> Verdict:
    episode = UrbanEpisode(client, task, limit)
    episode.start()
    legs = reference.get("legs") or []
    try:
        if task.kind.family == "qa":
            reason = _qa_verdict(episode, task, legs, frame)
            if reason:
                return Verdict(task.id, False, episode.steps, limit, reason)
        else:
            _walk(episode, frame, legs)
    except EpisodeOver:
        pass
    finally:
        episode.finish()
    metrics, _ = score(episode)
    ok = bool(metrics["success"]) or task.kind.family == "qa"
    reason = "" if ok else f"reference replay failed: {episode.end_reason}, {metrics}"
    return Verdict(
        task.id,
        ok and episode.steps <= limit,
        episode.steps,
        limit,
        reason or ("" if episode.steps <= limit else "over the step limit"),
    )


def validate_city(
    city_dir: str | Path,
    max_steps: dict[str, int] | None = None,
    kinds: list[str] | None = None,
    log_path: str | Path | None = None,
) -> list[Verdict]:
    """Replay every task of a city folder on a fresh stand-in server; one Verdict per task."""
    city = read_city(city_dir)
    frame = LocalFrame(*city["origin"])
    tasks, _ = load_task_dir(Path(city_dir) / TASK_DIR)
    references = read_references(city_dir)
    limits = dict(DEFAULT_MAX_STEPS, **(max_steps or {}))
    server = ServerProcess(city_dir, log_path=log_path)
    verdicts = []
    try:
        client = UrbanClient(ClientConfig(server.start()))
        for task in tasks:
            if kinds and task.kind.prefix not in kinds:
                continue
            verdict = validate_task(
                client,
                task,
                references.get(task.id, {}),
                frame,
                limits.get(task.kind.prefix) or limits[task.kind.base],
            )
            log.info(
                "%s %s (%d/%d steps) %s",
                "ok " if verdict.ok else "FAIL",
                task.id,
                verdict.steps,
                verdict.limit,
                verdict.reason,
            )
            verdicts.append(verdict)
    finally:
        server.stop()
    return verdicts
