"""The four visual annotation conditions: the action tokens and what is drawn on each sub-view.

C1 none (tokens left/front/right), C2 arrows (← ↑ →), C3 letters (L F R), C4 digits (1 2 3).
The card's image folders are images/maze_nodes_{noLabel,Arrow,LFR,Num}.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SLOTS = ("left", "front", "right")
SLOT_OFFSETS = {"left": -1, "front": 0, "right": 1}


@dataclass(frozen=True)
class Condition:
    """A condition's name, its image folder suffix and the token of each slot (left, front, right)."""

    name: str
    folder: str
    tokens: tuple[str, str, str]

    def slot_of(self, token: str) -> str | None:
        """The slot a token names (surrounding spaces ignored), or None for anything else."""
        cleaned = token.strip()
        for slot, own in zip(SLOTS, self.tokens):
            if cleaned == own or (self.name == "C1" and cleaned.lower() == own):
                return slot
        return None

    def token_of(self, slot: str) -> str:
        return self.tokens[SLOTS.index(slot)]


CONDITIONS = {
    "C1": Condition("C1", "noLabel", ("left", "front", "right")),
    "C2": Condition("C2", "Arrow", ("←", "↑", "→")),
    "C3": Condition("C3", "LFR", ("L", "F", "R")),
    "C4": Condition("C4", "Num", ("1", "2", "3")),
}


def get_condition(name: str) -> Condition:
    if name not in CONDITIONS:
        raise ValueError(f"unknown GraphNav condition {name!r}; one of {sorted(CONDITIONS)}")
    return CONDITIONS[name]


def _draw_arrow(image: np.ndarray, slot: str, color: tuple[int, int, int]) -> None:
    height, width = image.shape[:2]
    center = (width // 2, height - height // 6)
    length = max(4, width // 6)
    tips = {
        "left": (center[0] - length, center[1]),
        "front": (center[0], center[1] - length),
        "right": (center[0] + length, center[1]),
    }
    tails = {
        "left": (center[0] + length, center[1]),
        "front": (center[0], center[1] + length // 2),
        "right": (center[0] - length, center[1]),
    }
    cv2.arrowedLine(image, tails[slot], tips[slot], color, max(1, width // 40), tipLength=0.4)


def annotate(stitched: np.ndarray, condition: Condition) -> np.ndarray:
    """A copy of a left|front|right image with the condition's marks drawn near the bottom of each sub-view."""
    image = np.ascontiguousarray(stitched.copy())
    if condition.name == "C1":
        return image
    width = image.shape[1] // 3
    for index, slot in enumerate(SLOTS):
        sub = image[:, index * width : (index + 1) * width]
        sub = np.ascontiguousarray(sub)
        if condition.name == "C2":
            _draw_arrow(sub, slot, (255, 230, 0))
        else:
            text = condition.tokens[index]
            scale = max(0.3, width / 128)
            (text_w, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
            origin = (width // 2 - text_w // 2, sub.shape[0] - sub.shape[0] // 10)
            cv2.putText(
                sub, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 230, 0), max(1, int(2 * scale))
            )
        image[:, index * width : (index + 1) * width] = sub
    return image
