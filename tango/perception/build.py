"""`build_perception(cfg, scene)`: one bundle of perception components per episode, models reused per process."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import numpy as np

from tango.agent.observation import Observation
from tango.llm import ChatClient
from tango.perception.answerers import VlmAnswerer
from tango.perception.blip2 import Blip2Answerer, Blip2ItmScorer
from tango.perception.clip import ClipEmbedder
from tango.perception.clip_filter import ClipFilter
from tango.perception.config import ClipConfig, PerceptionConfig, perception_config
from tango.perception.description import ClipDescriptionScorer, OracleDescriptionScorer
from tango.perception.detections import Detections
from tango.perception.detr import DetrDetector
from tango.perception.image_goal import ImageMatcher, LightGlueMatcher, SiftMatcher
from tango.perception.models import Placement, placement
from tango.perception.observed_memory import ObservedObjects
from tango.perception.oracle import OracleDetector, visible_objects
from tango.perception.oracle_answerer import OracleAnswerer
from tango.perception.oracle_image_goal import OracleImageMatcher
from tango.perception.oracle_scene import OracleScene
from tango.perception.owl import OwlDetector
from tango.perception.pipeline import DetectionPipeline, Detector
from tango.perception.rooms import ClipRoomClassifier, OracleRoomClassifier
from tango.perception.text_similarity import TextEmbedder
from tango.perception.value_scorers import ClipScorer, OracleTextScorer


class ValueScorer(Protocol):
    """`score(obs, prompts) -> (P,)`."""

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray: ...


class Answerer(Protocol):
    """`answer(obs, question) -> str`."""

    def answer(self, obs: Observation, question: str) -> str: ...


class DescriptionScorer(Protocol):
    """`score(obs, description, detections) -> (N,)`."""

    def score(self, obs: Observation, description: str, detections: Detections) -> np.ndarray: ...


class RoomClassifier(Protocol):
    """`classify(obs) -> room type`."""

    def classify(self, obs: Observation) -> str: ...


@dataclass
class PerceptionBundle:
    """The components primitives call; `memory` holds the objects observed so far (fed by `observe`)."""

    config: PerceptionConfig
    detector: Detector
    filter: ClipFilter | None
    scorer: ValueScorer
    answerer: Answerer
    matcher: ImageMatcher | OracleImageMatcher
    description: DescriptionScorer
    room: RoomClassifier
    scene: OracleScene | None = None
    memory: ObservedObjects = field(default_factory=ObservedObjects)

    def observe(self, obs: Observation) -> None:
        """Record the objects visible in `obs` into the observed memory (oracle components only read that)."""
        if self.scene is not None and obs.semantic is not None:
            self.memory.record(visible_objects(obs, self.scene, self.config.detector.min_pixels))

    def describe(self) -> dict[str, Any]:
        """What produced the results, for episodes.jsonl and summary.json."""
        return describe_config(self.config)


def describe_config(config: PerceptionConfig) -> dict[str, Any]:
    """Names, paths and thresholds of every component; `oracle` lists the components that read ground truth."""
    data = asdict(config)
    for group in ("filter", "scorer", "description", "room"):
        if data[group]["kind"] != "clip":
            data[group].pop("clip")
    data["answerer"].pop("llm")
    data["answerer"]["llm_model"] = config.answerer.llm.model if config.answerer.kind == "vlm" else ""
    data["oracle_components"] = sorted(
        name
        for name, kind in (
            ("detector", config.detector.kind),
            ("scorer", config.scorer.kind),
            ("answerer", config.answerer.kind),
            ("description", config.description.kind),
            ("room", config.room.kind),
            ("matcher", config.matcher.kind),
        )
        if kind.endswith("oracle")
    )
    return data


def _need_scene(scene: OracleScene | None, component: str) -> OracleScene:
    if scene is None:
        raise ValueError(
            f"perception: the oracle {component} needs the scene annotation (scene=None was given)"
        )
    return scene


def _clip(config: ClipConfig, where: Placement) -> ClipEmbedder:
    return ClipEmbedder(config, where)


def build_detector(
    config: PerceptionConfig, where: Placement, scene: OracleScene | None
) -> tuple[Detector, ClipFilter | None]:
    """The configured detector (oracle, or OWL + optional DETR routing + NMS + optional CLIP filter)."""
    det = config.detector
    if det.kind == "oracle":
        text = TextEmbedder("", where) if det.label_similarity > 0 else None
        return OracleDetector(
            _need_scene(scene, "detector"), det.min_pixels, det.label_similarity, text
        ), None
    if det.kind not in ("owlv2", "owlvit"):
        raise ValueError(f"perception.detector.kind must be oracle, owlv2 or owlvit, got {det.kind!r}")
    owl = OwlDetector(det.kind, det.path, det.threshold, where)
    coco = DetrDetector(det.detr_path, det.detr_threshold, where) if det.detr_path else None
    flt = config.filter
    clip_filter = None
    if flt.kind == "clip":
        clip_filter = ClipFilter(
            _clip(flt.clip, where), dict(flt.similar_classes), flt.threshold, flt.crop_padding
        )
    elif flt.kind != "none":
        raise ValueError(f"perception.filter.kind must be none or clip, got {flt.kind!r}")
    return DetectionPipeline(owl, coco, det.nms_iou, clip_filter), clip_filter


def build_scorer(config: PerceptionConfig, where: Placement, scene: OracleScene | None) -> ValueScorer:
    """The configured value scorer."""
    cfg = config.scorer
    if cfg.kind == "text_oracle":
        return OracleTextScorer(
            _need_scene(scene, "scorer"), TextEmbedder(cfg.text_model, where), cfg.min_pixels
        )
    if cfg.kind == "clip":
        return ClipScorer(_clip(cfg.clip, where))
    if cfg.kind == "blip2_itm":
        return Blip2ItmScorer(cfg.path, cfg.head, where)
    raise ValueError(f"perception.scorer.kind must be text_oracle, clip or blip2_itm, got {cfg.kind!r}")


def build_answerer(
    config: PerceptionConfig, where: Placement, scene: OracleScene | None, memory: ObservedObjects
) -> Answerer:
    """The configured question answerer (the oracle one shares the bundle's observed memory)."""
    cfg = config.answerer
    if cfg.kind == "oracle":
        text = TextEmbedder(cfg.text_model, where)
        return OracleAnswerer(_need_scene(scene, "answerer"), config.detector.min_pixels, memory, text)
    if cfg.kind == "blip2":
        return Blip2Answerer(cfg.path, cfg.prompt, cfg.max_new_tokens, where)
    if cfg.kind == "vlm":
        return VlmAnswerer(ChatClient(cfg.llm))
    raise ValueError(f"perception.answerer.kind must be oracle, blip2 or vlm, got {cfg.kind!r}")


def build_matcher(config: PerceptionConfig) -> ImageMatcher | OracleImageMatcher:
    """The configured image-goal matcher."""
    cfg = config.matcher
    if cfg.kind == "sift":
        return SiftMatcher(
            cfg.ratio, cfg.min_inliers, cfg.max_features, cfg.ransac_reprojection_px,
            cfg.contrast_threshold, cfg.edge_threshold,
        )  # fmt: skip
    if cfg.kind == "lightglue":
        return LightGlueMatcher(
            cfg.lightglue_weights, cfg.disk_weights, cfg.min_inliers, cfg.ransac_reprojection_px
        )
    if cfg.kind == "oracle":
        return OracleImageMatcher(config.detector.min_pixels)
    raise ValueError(f"perception.matcher.kind must be sift, lightglue or oracle, got {cfg.kind!r}")


def build_description(
    config: PerceptionConfig, where: Placement, scene: OracleScene | None, memory: ObservedObjects
) -> DescriptionScorer:
    """The configured description-goal scorer."""
    cfg = config.description
    if cfg.kind == "oracle":
        return OracleDescriptionScorer(
            _need_scene(scene, "description scorer"), memory, TextEmbedder(cfg.text_model, where)
        )
    if cfg.kind == "clip":
        return ClipDescriptionScorer(_clip(cfg.clip, where))
    raise ValueError(f"perception.description.kind must be oracle or clip, got {cfg.kind!r}")


def build_room(config: PerceptionConfig, where: Placement, scene: OracleScene | None) -> RoomClassifier:
    """The configured room classifier."""
    cfg = config.room
    if cfg.kind == "oracle":
        return OracleRoomClassifier(_need_scene(scene, "room classifier"))
    if cfg.kind == "clip":
        return ClipRoomClassifier(_clip(cfg.clip, where), list(cfg.rooms))
    raise ValueError(f"perception.room.kind must be oracle or clip, got {cfg.kind!r}")


def build_perception(cfg: Any = None, scene: OracleScene | None = None) -> PerceptionBundle:
    """Every component of `cfg` (dataclass, dict or OmegaConf); `scene` is required by oracle components."""
    config = perception_config(cfg)
    where = placement(config.device, config.half)
    memory = ObservedObjects()
    detector, clip_filter = build_detector(config, where, scene)
    return PerceptionBundle(
        config=config,
        detector=detector,
        filter=clip_filter,
        scorer=build_scorer(config, where, scene),
        answerer=build_answerer(config, where, scene, memory),
        matcher=build_matcher(config),
        description=build_description(config, where, scene, memory),
        room=build_room(config, where, scene),
        scene=scene,
        memory=memory,
    )
