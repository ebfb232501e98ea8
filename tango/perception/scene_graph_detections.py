"""The `scene_graph` answerer kind: every question through the model (tango.perception.scene_graph_answerer)
over a scene graph from the source `perception.answerer.graph` names.

- `detections` (here): what the bundle's detector reports for the labels of `vocabulary`, its room classifier
  names and its attribute reporter (`perception.attributes`) gives, fed frame by frame
  (tango.perception.detected_objects). The answerer itself reads no ground truth: it is an oracle only
  through those components, which `oracle_components` names on their own.
- `observed`: the annotated objects the agent saw, registered by tango.perception.oracle.answerer (an ORACLE;
  this module imports nothing from the oracles, the source registers itself with `graph_source`).

Also the `none` attribute reporter, the default of a stack without an attribute model: it reports nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tango.perception.config import GRAPH_SOURCES, AnswererConfig, AttributesConfig
from tango.perception.context import BuildContext
from tango.perception.detected_objects import DetectionGraph
from tango.perception.registry import register
from tango.perception.scene_graph import SceneGraph
from tango.perception.scene_graph_answerer import SceneGraphAnswerer, chat_backend
from tango.types.observation import Observation

GraphFn = Callable[[Observation], SceneGraph]
ObserveFn = Callable[[Observation], None]
SourceFactory = Callable[[AnswererConfig, BuildContext], tuple[GraphFn, ObserveFn | None]]
"""A graph source: from the answerer's config and the build context, the function that gives the graph when a
question comes, and the one that takes every frame (None when the source records frames elsewhere)."""
_SOURCES: dict[str, SourceFactory] = {}


def graph_source(name: str) -> Callable[[SourceFactory], SourceFactory]:
    """Decorator: `factory` builds the graph source `perception.answerer.graph=name`."""
    if name not in GRAPH_SOURCES:
        raise ValueError(f"unknown scene-graph source {name!r}; known: {GRAPH_SOURCES}")

    def add(factory: SourceFactory) -> SourceFactory:
        _SOURCES[name] = factory
        return factory

    return add


def graph_from_detections(config: AnswererConfig) -> bool:
    """Whether a scene-graph answerer reads the detector's reports (`graph: detections`) rather than the
    annotated objects observed; ValueError (a setup error) for an unknown source."""
    if config.graph not in GRAPH_SOURCES:
        raise ValueError(f"perception.answerer.graph is {config.graph!r}; choose from {GRAPH_SOURCES}")
    return config.graph == "detections"


def graph_from_annotations(config: AnswererConfig) -> bool:
    """Whether a scene-graph answerer reads ground truth: the ORACLE source, the annotated objects observed."""
    return not graph_from_detections(config)


@graph_source("detections")
def detections_source(config: AnswererConfig, ctx: BuildContext) -> tuple[GraphFn, ObserveFn | None]:
    """The graph of the bundle's detector's, room classifier's and attribute reporter's reports."""
    source = DetectionGraph(
        ctx.component("detector"), ctx.component("room"), config.vocabulary, ctx.component("attributes")
    )
    return source.graph, source.observe


@register("answerer", "scene_graph", oracle=graph_from_annotations, observes=graph_from_detections)
def scene_graph_answerer(config: AnswererConfig, ctx: BuildContext) -> SceneGraphAnswerer:
    """Every question through the model, over the graph of `config.graph`'s source."""
    graph_from_detections(config)  # a setup error for an unknown source
    graph, observer = _SOURCES[config.graph](config, ctx)
    return SceneGraphAnswerer(graph, chat_backend(config), observer=observer)


class NoAttributes:
    """Reports no attribute of any detection."""

    def report(self, obs: Observation, masks: np.ndarray) -> list[dict[str, str]]:
        return [{} for _ in masks]


@register("attributes", "none")
def no_attributes(config: AttributesConfig, ctx: BuildContext) -> NoAttributes:
    return NoAttributes()
