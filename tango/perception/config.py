"""Dataclass configs for the `perception` group (configs/perception/*.yaml mirror them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tango.llm import LLMConfig

DEFAULT_ROOMS = [
    "bathroom", "bedroom", "dining room", "hallway", "kitchen", "living room", "office", "laundry room",
]  # fmt: skip


@dataclass
class ClipConfig:
    """An open_clip model: a built-in name plus a pretrained tag or checkpoint file, or `local-dir:PATH`."""

    model: str = "ViT-B-32"
    pretrained: str = "openai"


@dataclass
class DetectorConfig:
    """Which detector: `oracle` (semantic frame), `owlv2` or `owlvit` (transformers), optionally DETR for COCO."""

    kind: str = "oracle"
    path: str = ""
    threshold: float = 0.1
    nms_iou: float = 0.5
    detr_path: str = ""
    detr_threshold: float = 0.7
    min_pixels: int = 100
    label_similarity: float = 0.0


@dataclass
class FilterConfig:
    """CLIP look-alike filter: crops are classified as target vs `similar_classes[target]` vs "other"."""

    kind: str = "none"
    clip: ClipConfig = field(default_factory=ClipConfig)
    similar_classes: dict[str, list[str]] = field(default_factory=dict)
    threshold: float = 0.5
    crop_padding: float = 0.1


@dataclass
class ScorerConfig:
    """Value-map scorer: `text_oracle` (MiniLM over labels in view), `clip`, or `blip2_itm`."""

    kind: str = "text_oracle"
    clip: ClipConfig = field(default_factory=ClipConfig)
    path: str = ""
    head: str = "itc"
    text_model: str = ""
    min_pixels: int = 100


@dataclass
class AnswererConfig:
    """Question answering: `oracle` (observed objects only), `blip2` (transformers), or `vlm` (chat client)."""

    kind: str = "oracle"
    path: str = ""
    max_new_tokens: int = 20
    prompt: str = "Question: {question} Answer:"
    text_model: str = ""
    llm: LLMConfig = field(default_factory=LLMConfig)


@dataclass
class MatcherConfig:
    """Image-goal matcher: `sift` (OpenCV) or `lightglue` (kornia, local weights), where a view matches at
    `min_inliers`; or `oracle` (the goal picture's instance from its semantic render)."""

    kind: str = "sift"
    ratio: float = 0.8
    min_inliers: int = 7
    max_features: int = 2000
    ransac_reprojection_px: float = 3.0
    contrast_threshold: float = 0.01
    edge_threshold: float = 20.0
    lightglue_weights: str = ""
    disk_weights: str = ""


@dataclass
class DescriptionConfig:
    """Description-goal scorer: `oracle` (MiniLM + observed attributes) or `clip` (crop-text similarity)."""

    kind: str = "oracle"
    clip: ClipConfig = field(default_factory=ClipConfig)
    text_model: str = ""


@dataclass
class RoomConfig:
    """Room classifier: `oracle` (annotated room at the agent's position) or `clip` (zero-shot over `rooms`)."""

    kind: str = "oracle"
    clip: ClipConfig = field(default_factory=ClipConfig)
    rooms: list[str] = field(default_factory=lambda: list(DEFAULT_ROOMS))


@dataclass
class PerceptionConfig:
    """All perception components; `device` is auto|cpu|cuda, `half` uses fp16 on cuda."""

    name: str = "oracle"
    device: str = "auto"
    half: bool = True
    detector: DetectorConfig = field(default_factory=DetectorConfig)
    filter: FilterConfig = field(default_factory=FilterConfig)
    scorer: ScorerConfig = field(default_factory=ScorerConfig)
    answerer: AnswererConfig = field(default_factory=AnswererConfig)
    matcher: MatcherConfig = field(default_factory=MatcherConfig)
    description: DescriptionConfig = field(default_factory=DescriptionConfig)
    room: RoomConfig = field(default_factory=RoomConfig)


def perception_config(source: Any = None) -> PerceptionConfig:
    """A validated `PerceptionConfig` from a dataclass, dict or OmegaConf node (unknown keys are an error)."""
    from omegaconf import OmegaConf

    if isinstance(source, PerceptionConfig):
        return source
    merged = OmegaConf.merge(OmegaConf.structured(PerceptionConfig), source or {})
    config = OmegaConf.to_object(merged)
    assert isinstance(config, PerceptionConfig)
    return config
