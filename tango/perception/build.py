"""`PerceptionBundle`: one episode's perception components, each built from the registry on first use.

The bundle gives a component's factory the episode's ground truth only when that component's kind is a
registered oracle; a configuration without oracle components needs no ground truth at all (the runner then
loads no annotations and turns the semantic sensor off).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Generic, TypeVar, overload

from tango.perception.config import PerceptionConfig, perception_config
from tango.perception.context import BuildContext, SharedModels
from tango.perception.detected_objects import AttributeReporter
from tango.perception.interfaces import (
    Answerer,
    DescriptionMatcher,
    Detector,
    ImageGoalLocator,
    MapView,
    Memory,
    RoomClassifier,
    ValueScorer,
)
from tango.perception.models import placement
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.registry import COMPONENTS, REGISTRY
from tango.types.observation import Observation

CLIP_KINDS = ("clip",)
T = TypeVar("T")


def oracle_components(config: PerceptionConfig) -> list[str]:
    """The components whose configured kind is a registered oracle (they read ground truth), sorted."""
    return sorted(
        name
        for name in COMPONENTS
        if REGISTRY.get(name, getattr(config, name).kind).reads_truth(getattr(config, name))
    )


def describe_config(config: PerceptionConfig) -> dict[str, Any]:
    """Names, paths and thresholds of every component; `oracle_components` lists those that read ground truth."""
    data = asdict(config)
    for group in ("filter", *COMPONENTS):
        if "clip" in data[group] and data[group]["kind"] not in CLIP_KINDS:
            data[group].pop("clip")
    data["answerer"].pop("llm")
    data["answerer"]["llm_model"] = config.answerer.llm.model if config.answerer.kind == "vlm" else ""
    if config.memory.kind == "frame_features":
        data["memory"]["features_from"] = f"scorer:{config.scorer.kind}"
    data["oracle_components"] = oracle_components(config)
    return data


class Component(Generic[T]):
    """A bundle attribute that builds the component of its name on first access (models load when used)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, bundle: None, owner: type) -> Component[T]: ...

    @overload
    def __get__(self, bundle: PerceptionBundle, owner: type) -> T: ...

    def __get__(self, bundle: PerceptionBundle | None, owner: type) -> T | Component[T]:
        if bundle is None:
            return self
        return bundle.component(self.name)


class PerceptionBundle:
    """The components the agent calls; `observe(obs, maps)` feeds every frame to the ground truth (when there is
    one) and to the memory."""

    def __init__(self, config: PerceptionConfig, ground_truth: GroundTruth | None = None) -> None:
        self.config = config
        self.ground_truth = ground_truth
        self.oracle_components = oracle_components(config)
        if self.oracle_components and ground_truth is None:
            raise ValueError(
                f"perception: the oracle component(s) {self.oracle_components} need the episode's ground truth "
                "(scene annotation and semantic sensor), and none was given"
            )
        self._models = SharedModels(placement(config.device, config.half))
        self._built: dict[str, Any] = {}
        self._observing = [
            name for name in COMPONENTS
            if REGISTRY.get(name, getattr(config, name).kind).wants_frames(getattr(config, name))
        ]  # fmt: skip

    detector: Component[Detector] = Component()
    scorer: Component[ValueScorer] = Component()
    answerer: Component[Answerer] = Component()
    matcher: Component[ImageGoalLocator] = Component()
    description: Component[DescriptionMatcher] = Component()
    room: Component[RoomClassifier] = Component()
    memory: Component[Memory] = Component()
    attributes: Component[AttributeReporter] = Component()

    def observe(self, obs: Observation, maps: MapView) -> None:
        """Record one frame the agent received: into the ground truth's observed objects, the memory and every
        component registered to observe frames (the scene-graph answerer over detections)."""
        if self.ground_truth is not None:
            self.ground_truth.observe(obs)
        self.memory.observe(obs, maps)
        for name in self._observing:
            self.component(name).observe(obs)

    def _scorer(self) -> ValueScorer:
        return self.scorer

    def describe(self) -> dict[str, Any]:
        """What produced the results, for episodes.jsonl and summary.json."""
        return describe_config(self.config)

    def component(self, name: str) -> Any:
        """The built component `name` (built now from the registry if it was not yet)."""
        if name not in self._built:
            section = getattr(self.config, name)
            spec = REGISTRY.get(name, section.kind)
            scorer = self._scorer
            context = BuildContext(self.config, self._models, scorer, component=self.component)
            if spec.reads_truth(section):
                assert self.ground_truth is not None
                context = OracleContext(
                    self.config, self._models, scorer, self.ground_truth, component=self.component
                )
            self._built[name] = spec.factory(section, context)
        return self._built[name]


def build_perception(cfg: Any = None, ground_truth: GroundTruth | None = None) -> PerceptionBundle:
    """The bundle for `cfg` (dataclass or dict); `ground_truth` is required by oracle components."""
    return PerceptionBundle(perception_config(cfg), ground_truth)
