"""GraphNav maze grids: the dataset's .txt format, grid[x][y] with y up, and the maze-name convention.

File rows are printed top to bottom, so file row 0 is y = S - 1 (FORMATS.md, GraphNav).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# Absolute directions: 0 = N (+y), 1 = E (+x), 2 = S (-y), 3 = W (-x), as in explore_arrivals.
DIRECTION_VECTORS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIRECTION_NAMES = ("N", "E", "S", "W")
NAME_PATTERN = re.compile(r"^Maze_(\d+)x(\d+)_D(\d+)_T(\d+)_J(\d+)\+(\d+)$")


class MazeFormatError(ValueError):
    """A maze file or name that does not follow the GraphNav format (the message names the file)."""


@dataclass(frozen=True)
class MazeName:
    """`Maze_{S}x{S}_D{d}_T{t}_J{j}+{l}`; in our mazes d dead ends, t turns, j 3-way and l 4-way junctions."""

    size: int
    dead_ends: int
    turns: int
    junctions: int
    crossings: int

    def __str__(self) -> str:
        return (
            f"Maze_{self.size}x{self.size}_D{self.dead_ends}_T{self.turns}_J{self.junctions}+{self.crossings}"
        )

    @classmethod
    def parse(cls, name: str) -> MazeName:
        match = NAME_PATTERN.match(name)
        if not match or match.group(1) != match.group(2):
            raise MazeFormatError(f"{name!r} is not a maze name of the form Maze_SxS_Dd_Tt_Jj+l")
        size, _, d, t, j, l = (int(group) for group in match.groups())
        return cls(size, d, t, j, l)


@dataclass
class Maze:
    """An S x S grid of walls (False) and paths (True), indexed grid[x][y] with y increasing upward."""

    name: str
    grid: np.ndarray

    @property
    def size(self) -> int:
        return int(self.grid.shape[0])

    def is_path(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size and bool(self.grid[x, y])

    def open_directions(self, x: int, y: int) -> list[int]:
        """Absolute directions (0..3) in which the neighbouring cell is a path."""
        return [d for d, (dx, dy) in enumerate(DIRECTION_VECTORS) if self.is_path(x + dx, y + dy)]

    def path_cells(self) -> list[tuple[int, int]]:
        xs, ys = np.nonzero(self.grid)
        return [(int(x), int(y)) for x, y in zip(xs, ys)]

    def to_text(self) -> str:
        """The dataset's text form: one line per row, top row (y = S - 1) first, `0`/`1` separated by spaces."""
        rows = []
        for y in range(self.size - 1, -1, -1):
            rows.append(" ".join("1" if self.grid[x, y] else "0" for x in range(self.size)))
        return "\n".join(rows) + "\n"


def parse_maze_text(text: str, name: str, source: str = "<text>") -> Maze:
    """Parse maze rows (comments `//` or `#` and blank lines skipped) into a Maze; errors name the source."""
    rows: list[list[bool]] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "#")):
            continue
        tokens = stripped.split()
        if any(token not in ("0", "1") for token in tokens):
            raise MazeFormatError(f"{source}:{line_number}: expected only 0/1 tokens, got {stripped!r}")
        rows.append([token == "1" for token in tokens])
    if not rows:
        raise MazeFormatError(f"{source}: no maze rows")
    size = len(rows)
    if any(len(row) != size for row in rows):
        raise MazeFormatError(
            f"{source}: maze is not square ({size} rows, row lengths {sorted({len(r) for r in rows})})"
        )
    grid = np.zeros((size, size), dtype=bool)
    for row_index, row in enumerate(rows):
        y = size - 1 - row_index
        for x, value in enumerate(row):
            grid[x, y] = value
    return Maze(name=name, grid=grid)


def load_maze(path: str | Path) -> Maze:
    """Read `mazes/{name}.txt`."""
    path = Path(path)
    if not path.is_file():
        raise MazeFormatError(f"{path}: maze file not found")
    return parse_maze_text(path.read_text(), name=path.stem, source=str(path))


def write_maze(maze: Maze, mazes_dir: str | Path) -> Path:
    """Write `{mazes_dir}/{maze.name}.txt` with a comment header."""
    path = Path(mazes_dir) / f"{maze.name}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"// {maze.name} (grid[x][y], y up; top line is y = {maze.size - 1})\n" + maze.to_text())
    return path
