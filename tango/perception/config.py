"""The `perception` config schema (registered with hydra's ConfigStore; configs/perception/*.yaml are presets).

The defaults are a stack of real models that reads no ground truth; the `oracle` preset names every component
it replaces with an oracle. `kind` picks a registered implementation (tango.perception.registry); `options`
carries settings of kinds that the fields here do not cover (e.g. a plugin detector's input size).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tango.config_utils import dataclass_from_dict
from tango.llm import LLMConfig

OBJECT_VOCABULARY = [
    "bed", "pillow", "nightstand", "wardrobe", "lamp", "chair", "armchair", "couch", "coffee table", "table",
    "desk", "counter", "cabinet", "bookshelf", "tv", "tv stand", "laptop", "picture", "mirror", "clock", "plant",
    "vase", "toilet", "sink", "bathtub", "shower", "washing machine", "refrigerator", "oven", "microwave",
    "stool", "trash can", "book", "bottle", "cup", "rug", "curtain", "fireplace",
]  # fmt: skip
"""Common indoor object classes (COCO's indoor and household classes, HM3D ObjectNav's goals, furniture), one
word per kind, no two synonyms: the labels the scene-graph answerer over detections asks the detector for."""
GRAPH_SOURCES = ("observed", "detections")

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
    """Which detector: `owlv2`, `owlvit` (transformers; optionally DETR for COCO labels), `yolo` (OpenCV DNN),
    `oracle` (semantic frame), `simulated` (semantic frame degraded by the error model in `options`), `none`;
    `path` is a model folder or hub id in the local cache."""

    kind: str = "owlv2"
    path: str = "google/owlv2-base-patch16-ensemble"
    threshold: float = 0.1
    nms_iou: float = 0.5
    detr_path: str = ""
    detr_threshold: float = 0.7
    min_pixels: int = 100
    label_similarity: float = 0.0
    options: dict[str, Any] = field(default_factory=dict)


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
    """Value-map scorer: `clip`, `blip2_itm`, `text_oracle` (MiniLM over the annotated labels in view),
    `simulated` (the same with noise; its settings in `options`) or `flat` (0 for every prompt)."""

    kind: str = "clip"
    clip: ClipConfig = field(default_factory=ClipConfig)
    path: str = ""
    head: str = "itc"
    text_model: str = ""
    min_pixels: int = 100
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class AnswererConfig:
    """Question answering: `blip2` (transformers), `vlm` (chat client), `oracle` (rules over the observed
    objects) or `scene_graph` (the observed objects as text, answered by a language model).

    For `scene_graph` (and the `oracle` answerer's `fallback: scene_graph`, for questions its rules do not
    cover): `backend` is `local` (the fetched GGUF model `local_model`, "" = tango.llm's default, in-process)
    or `endpoint` (`llm`: any OpenAI-compatible server). `graph` is where the scene graph comes from:
    `observed`, the annotated objects the agent saw (an oracle), or `detections`, what the bundle's detector
    reports for the labels of `vocabulary` and its room classifier names, frame by frame
    (tango.perception.detected_objects; an oracle only when those components are)."""

    kind: str = "blip2"
    path: str = "Salesforce/blip2-opt-2.7b"
    max_new_tokens: int = 20
    prompt: str = "Question: {question} Answer:"
    text_model: str = ""
    llm: LLMConfig = field(default_factory=LLMConfig)
    backend: str = "local"
    local_model: str = ""
    fallback: str = "none"
    graph: str = "observed"
    vocabulary: list[str] = field(default_factory=lambda: list(OBJECT_VOCABULARY))


@dataclass
class MatcherConfig:
    """Image goals: `sift` (OpenCV) or `lightglue` (kornia, local weights) keypoint matching against the kept
    views, where a view matches at `min_inliers`; or `oracle` (the goal picture's instance from its semantic
    render, found where the agent saw it)."""

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
    """Description goals: `clip` (crop-text similarity of the detections of the described object, kept from
    `min_similarity`) or `oracle` (MiniLM + the observed annotations)."""

    kind: str = "clip"
    clip: ClipConfig = field(default_factory=ClipConfig)
    text_model: str = ""
    min_similarity: float = 0.25
    crop_padding: float = 0.1
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class RoomConfig:
    """Room classifier: `clip` (zero-shot over `rooms`) or `oracle` (annotated room at the agent's position)."""

    kind: str = "clip"
    clip: ClipConfig = field(default_factory=ClipConfig)
    rooms: list[str] = field(default_factory=lambda: list(DEFAULT_ROOMS))
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class MemoryConfig:
    """What the agent remembers beyond its own detections: `frame_features` (TANGO's memory: the value scorer's
    embedding of each frame over the map cells it saw; when the search target changes, explore_scene() first
    goes to the best-matching cell if its cosine similarity reaches `threshold`), `none`, or `oracle`
    (recall() returns the annotated objects the agent has seen). The threshold is in the scorer's similarity
    units: 0.3 for BLIP-2 ITC as TANGO's GOAT config, 0.25 for CLIP ViT-B/32, 0.6 for the oracle embedder
    (BENCHMARKS.md, memory threshold)."""

    kind: str = "frame_features"
    threshold: float = 0.25


@dataclass
class AttributesConfig:
    """Attribute reporter: what colour, material, ... perception reports for a detected object (the scene graph
    from detections carries them). `none` (reports nothing: no real attribute model is wired yet), `oracle`
    (the annotated values of the object under the mask) or `simulated` (those values degraded by the error
    model in `options`, tango.perception.simulated.attributes)."""

    kind: str = "none"
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class PerceptionConfig:
    """All perception components; `name` is the preset's, `device` is auto|cpu|cuda, `half` uses fp16 on cuda."""

    name: str = "custom"
    device: str = "auto"
    half: bool = True
    detector: DetectorConfig = field(default_factory=DetectorConfig)
    filter: FilterConfig = field(default_factory=FilterConfig)
    scorer: ScorerConfig = field(default_factory=ScorerConfig)
    answerer: AnswererConfig = field(default_factory=AnswererConfig)
    matcher: MatcherConfig = field(default_factory=MatcherConfig)
    description: DescriptionConfig = field(default_factory=DescriptionConfig)
    room: RoomConfig = field(default_factory=RoomConfig)
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    attributes: AttributesConfig = field(default_factory=AttributesConfig)


def perception_config(source: Any = None) -> PerceptionConfig:
    """A `PerceptionConfig` from a dataclass, or a dict of its fields (unknown keys are an error naming them)."""
    if isinstance(source, PerceptionConfig):
        return source
    return dataclass_from_dict(PerceptionConfig, source or {}, "perception")
