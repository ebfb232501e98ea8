"""What a perception component factory receives: the perception config and the episode's shared models.

One `SharedModels` serves one episode's bundle, so components that ask for the same CLIP or sentence model
share one embedder (and its memo of the current frame). A `BuildContext` holds no ground truth: only oracle
factories get the `OracleContext` (tango.perception.oracle.ground_truth) that adds it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tango.perception.clip import ClipEmbedder
from tango.perception.config import ClipConfig, PerceptionConfig
from tango.perception.interfaces import ValueScorer
from tango.perception.models import Placement
from tango.perception.text_similarity import TextEmbedder


@dataclass
class SharedModels:
    """Where models run, and the embedders built so far for this bundle (one per model)."""

    where: Placement
    _clips: dict[tuple[str, str], ClipEmbedder] = field(default_factory=dict, repr=False)
    _texts: dict[str, TextEmbedder] = field(default_factory=dict, repr=False)

    def clip(self, config: ClipConfig) -> ClipEmbedder:
        """The bundle's embedder for this open_clip model (built on the first request)."""
        key = (config.model, config.pretrained)
        if key not in self._clips:
            self._clips[key] = ClipEmbedder(config, self.where)
        return self._clips[key]

    def text(self, model: str = "") -> TextEmbedder:
        """The bundle's sentence embedder for `model` ("" = the packaged all-MiniLM-L6-v2)."""
        if model not in self._texts:
            self._texts[model] = TextEmbedder(model, self.where)
        return self._texts[model]


def _no_components(name: str) -> Any:
    raise ValueError(f"perception: no bundle to take the {name} component from (a component built alone)")


@dataclass
class BuildContext:
    """The whole perception config, the bundle's shared models, its value scorer (built on first call), whose
    embeddings the feature memory stores, and `component(name)`: another of the bundle's components (the
    scene-graph answerer over detections reads the detector and the room classifier)."""

    config: PerceptionConfig
    models: SharedModels
    value_scorer: Callable[[], ValueScorer]
    component: Callable[[str], Any] = field(default=_no_components, kw_only=True)
