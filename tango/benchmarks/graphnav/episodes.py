"""GraphNav path episodes: `paths/{task}/*.jsonl`, one episode per line, fields as published.

Files are `{maze_name}.jsonl` (ours) or `{maze_name}_L{L}_junc{j}.jsonl` (the published extractor's); the
field readings (min_gap, min_savings, explore_path_len_target) are the card's, see validate.py.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tango.benchmarks.graphnav.keygraph import Cell

TASKS = ("repeated", "reversed", "shortcut")
REQUIRED_FIELDS = (
    "maze_name",
    "episode_id",
    "explore_path",
    "explore_arrivals",
    "start_idx",
    "goal_idx",
    "start",
    "goal",
    "explore_subpath",
    "ideal_path",
    "explore_len_steps",
    "ideal_len_steps",
)

FIELD_ORDER = (
    "maze_name",
    "episode_id",
    "explore_path_len_target",
    "explore_path",
    "explore_arrivals",
    "start_idx",
    "goal_idx",
    "start",
    "goal",
    "explore_subpath",
    "ideal_path",
    "explore_len_steps",
    "ideal_len_steps",
    "junctions_on_ideal",
    "constraints",
)


class EpisodeFormatError(ValueError):
    """A path file line that does not follow the GraphNav episode format (the message names file and line)."""


@dataclass
class Constraints:
    """The `constraints` block of an episode; None where a file leaves a field out."""

    state_space: str | None = None
    observed_graph: str | None = None
    visibility: str | None = None
    min_gap: int | None = None  # index gap between start and goal on the explore path
    min_savings: int | None = None  # steps the ideal path saves over the explored subpath
    min_junctions_on_ideal: int | None = None
    ideal_is_global_shortest_on_key_graph: bool | None = None
    ideal_has_junction_deg_ge_3_on_key_graph: bool | None = None
    junction_include_endpoints: bool | None = None


@dataclass
class Episode:
    """One GraphNav trip: an exploration walk over key nodes and a start/goal pair on it."""

    maze_name: str
    episode_id: str
    explore_path: list[Cell]
    explore_arrivals: list[int | None]
    start_idx: int
    goal_idx: int
    start: Cell
    goal: Cell
    explore_subpath: list[Cell]
    ideal_path: list[Cell]
    explore_len_steps: int
    ideal_len_steps: int
    junctions_on_ideal: int = 0
    explore_path_len_target: int | None = None  # nodes of explore_path
    constraints: Constraints = field(default_factory=Constraints)
    task: str = ""

    def to_json(self) -> dict[str, Any]:
        """The JSON object of one line, coordinates as [x, y] lists."""
        record = asdict(self)
        record.pop("task")
        record["constraints"] = {k: v for k, v in record["constraints"].items() if v is not None}
        for key in ("explore_path", "explore_subpath", "ideal_path"):
            record[key] = [list(cell) for cell in record[key]]
        record["start"], record["goal"] = list(self.start), list(self.goal)
        return {key: record[key] for key in FIELD_ORDER}


def _cell(value: Any, where: str) -> Cell:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise EpisodeFormatError(f"{where}: expected [x, y] integers, got {value!r}")
    return (int(value[0]), int(value[1]))


def episode_from_json(record: dict[str, Any], task: str, where: str) -> Episode:
    """Build an Episode from one decoded line; `where` (file:line) prefixes every error."""
    missing = [name for name in REQUIRED_FIELDS if name not in record]
    if missing:
        raise EpisodeFormatError(f"{where}: missing fields {missing}")
    known = set(Constraints.__dataclass_fields__)
    constraints = Constraints(**{k: v for k, v in (record.get("constraints") or {}).items() if k in known})
    return Episode(
        maze_name=str(record["maze_name"]),
        episode_id=str(record["episode_id"]),
        explore_path=[_cell(c, f"{where} explore_path") for c in record["explore_path"]],
        explore_arrivals=[None if a is None else int(a) for a in record["explore_arrivals"]],
        start_idx=int(record["start_idx"]),
        goal_idx=int(record["goal_idx"]),
        start=_cell(record["start"], f"{where} start"),
        goal=_cell(record["goal"], f"{where} goal"),
        explore_subpath=[_cell(c, f"{where} explore_subpath") for c in record["explore_subpath"]],
        ideal_path=[_cell(c, f"{where} ideal_path") for c in record["ideal_path"]],
        explore_len_steps=int(record["explore_len_steps"]),
        ideal_len_steps=int(record["ideal_len_steps"]),
        junctions_on_ideal=int(record.get("junctions_on_ideal", 0)),
        explore_path_len_target=record.get("explore_path_len_target"),
        constraints=constraints,
        task=task,
    )


def load_episodes(path: str | Path, task: str | None = None) -> list[Episode]:
    """Read one `paths/{task}/{maze}.jsonl`; the task defaults to the parent folder's name."""
    path = Path(path)
    if not path.is_file():
        raise EpisodeFormatError(f"{path}: path file not found")
    task = task or path.parent.name
    episodes = []
    for line_number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{line_number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise EpisodeFormatError(f"{where}: not JSON ({error})") from error
        episodes.append(episode_from_json(record, task, where))
    return episodes


def write_episodes(episodes: list[Episode], path: str | Path) -> Path:
    """Write episodes as JSON lines (the dataset's format)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(e.to_json()) + "\n" for e in episodes))
    return path


def path_files(data_root: str | Path, task: str) -> list[Path]:
    """All `{data_root}/paths/{task}/*.jsonl`, sorted by name."""
    return sorted((Path(data_root) / "paths" / task).glob("*.jsonl"))
