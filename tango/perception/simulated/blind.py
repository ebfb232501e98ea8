"""BLIND perception (`perception=blind`, the floor): components that perceive nothing and read no ground truth.

No detections, a flat value score (every prompt 0: the value map cannot rank frontiers), no room type, no
description or image-goal matches, an empty answer. What an agent achieves with them is what its exploration
and stopping rules achieve by chance.
"""

from __future__ import annotations

import numpy as np

from tango.perception.config import (
    AnswererConfig,
    DescriptionConfig,
    DetectorConfig,
    MatcherConfig,
    RoomConfig,
    ScorerConfig,
)
from tango.perception.context import BuildContext
from tango.perception.detections import Detections
from tango.perception.interfaces import DetectFn, Recollection, ViewLog
from tango.perception.registry import register
from tango.types.goals import GoalImage
from tango.types.observation import Observation

EMBEDDING_DIM = 1
"""The flat scorer's embeddings: one zero, so every frame is equally (un)like every target."""


class NoDetector:
    """Detects nothing."""

    def detect(self, obs: Observation, labels: list[str]) -> Detections:
        return Detections.empty()


class FlatScorer:
    """Scores every prompt 0 in every frame; embeddings are zero."""

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray:
        return np.zeros(len(prompts), dtype=np.float32)

    def image_embedding(self, obs: Observation) -> np.ndarray:
        return np.zeros(EMBEDDING_DIM, dtype=np.float32)

    def text_embedding(self, text: str) -> np.ndarray:
        return np.zeros(EMBEDDING_DIM, dtype=np.float32)


class NoRoom:
    """Names no room."""

    def classify(self, obs: Observation) -> str:
        return ""


class NoMatches:
    """Matches no description and no goal picture."""

    def match(self, obs: Observation, description: str, detect: DetectFn) -> list[Recollection]:
        return []

    def locate(self, goal: GoalImage, views: ViewLog) -> list[Recollection]:
        return []


class NoAnswer:
    """Answers nothing (an empty answer)."""

    def answer(self, obs: Observation, question: str, image: GoalImage | None = None) -> str:
        return ""


@register("detector", "none")
def no_detector(config: DetectorConfig, ctx: BuildContext) -> NoDetector:
    return NoDetector()


@register("scorer", "flat")
def flat_scorer(config: ScorerConfig, ctx: BuildContext) -> FlatScorer:
    return FlatScorer()


@register("room", "none")
def no_room(config: RoomConfig, ctx: BuildContext) -> NoRoom:
    return NoRoom()


@register("description", "none")
def no_description(config: DescriptionConfig, ctx: BuildContext) -> NoMatches:
    return NoMatches()


@register("matcher", "none")
def no_matcher(config: MatcherConfig, ctx: BuildContext) -> NoMatches:
    return NoMatches()


@register("answerer", "none")
def no_answer(config: AnswererConfig, ctx: BuildContext) -> NoAnswer:
    return NoAnswer()
