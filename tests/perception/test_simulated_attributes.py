"""The simulated attribute reporter (tango.perception.simulated.attributes): its miss and confusion rates follow
its error model (exact binomial intervals, two-sided 99.9%, as tests/perception/test_simulated.py), errors rise
with distance, the oracle kind reports the annotation exactly, and the scene graph from detections carries
the reported values, so a colour question under simulated perception is answerable from it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy.stats import binom

from tango.perception.build import build_perception
from tango.perception.oracle.ground_truth import GroundTruth
from tango.perception.oracle.scene import OracleScene
from tango.perception.simulated.attributes import AttributeNoise
from tests.perception.test_scene_graph import ScriptedChat
from tests.perception.test_simulated import _frame, _object, _scene
from tests.support.presets import preset

FRAMES = 400
RED_FABRIC = {"color": "red", "material": "fabric"}


def _coloured(object_id: int, centre_z: float, half: float, attributes: dict[str, str]) -> dict[str, Any]:
    return {**_object(object_id, "chair", centre_z, half), "attributes": attributes}


def _bundle(scene: OracleScene, *overrides: tuple[str, Any]) -> Any:
    config = preset("perception", "simulated")
    for key, value in overrides:
        config["attributes"]["options"][key] = value
    return build_perception(config, GroundTruth(scene, 100))


def _masks(obs: Any, ids: list[int]) -> np.ndarray:
    return np.stack([np.asarray(obs.semantic) == i for i in ids])


def _counts(scene: OracleScene, bundle: Any) -> tuple[int, int, int]:
    """(reported red, reported a near value of red, reported nothing) of the chair's colour over FRAMES views."""
    red = near = missed = 0
    for offset in range(FRAMES):
        obs = _frame(scene, offset)
        colour = bundle.attributes.report(obs, _masks(obs, [1]))[0].get("color")
        red += colour == "red"
        near += colour in ("orange", "pink", "brown")
        missed += colour is None
    return red, near, missed


def _inside(count: int, p: float) -> bool:
    low, high = binom.interval(0.999, FRAMES, p)
    return bool(low <= count <= high)


@pytest.mark.parametrize("centre_z", [-1.5, -5.0])
def test_misses_and_confusions_follow_the_error_model(centre_z: float) -> None:
    scene = _scene(_coloured(1, centre_z, 0.3, RED_FABRIC))
    bundle = _bundle(scene)
    obs = _frame(scene, 0)
    mask = _masks(obs, [1])[0]
    noise = AttributeNoise(
        **{k: v for k, v in preset("perception", "simulated")["attributes"]["options"].items()}
    )
    side = np.sqrt(mask.sum() * 640 * 480 / mask.size)
    clear = float(noise.clear(np.array([side]), np.array([-centre_z - 0.3]))[0])
    confused = noise.confusion_floor + noise.confusion * (1 - clear)
    red, near, missed = _counts(scene, bundle)
    assert _inside(missed, 1 - clear), (missed, 1 - clear)
    assert _inside(near, clear * confused), (near, clear * confused)
    assert red + near + missed == FRAMES


def test_errors_rise_with_distance_and_a_noiseless_model_reports_the_annotation() -> None:
    near_scene = _scene(_coloured(1, -1.5, 0.3, RED_FABRIC))
    far_scene = _scene(_coloured(1, -5.0, 0.3, RED_FABRIC))
    assert (
        _counts(near_scene, _bundle(near_scene))[0] > _counts(far_scene, _bundle(far_scene))[0] + FRAMES // 5
    )
    exact = _bundle(far_scene, ("base_logit", 60.0), ("confusion_floor", 0.0), ("confusion", 0.0))
    assert _counts(far_scene, exact) == (FRAMES, 0, 0)


def test_the_oracle_kind_reports_exactly_and_a_background_mask_reports_nothing() -> None:
    scene = _scene(_coloured(1, -5.0, 0.2, {"color": "gray", "material": "metal", "size": "small"}))
    config = preset("perception", "oracle")
    bundle = build_perception(config, GroundTruth(scene, 100))
    obs = _frame(scene, 0)
    background = np.asarray(obs.semantic) == 0
    assert bundle.attributes.report(obs, np.stack([_masks(obs, [1])[0], background])) == [
        {"color": "gray", "material": "metal"},  # size is not among the reported attributes
        {},
    ]
    blind = build_perception(preset("perception", "blind"))
    assert blind.oracle_components == [] and blind.attributes.report(obs, background[None]) == [{}]


def test_the_graph_from_simulated_detections_carries_the_reported_colour() -> None:
    scene = _scene(_coloured(1, -2.0, 0.4, RED_FABRIC))
    config = preset("perception", "simulated")
    config["answerer"]["kind"] = "scene_graph"
    config["answerer"]["backend"] = "endpoint"  # built without a model file; the scripted chat replaces it
    bundle = build_perception(config, GroundTruth(scene, 100))
    assert "attributes" in bundle.oracle_components and "answerer" not in bundle.oracle_components
    chat = ScriptedChat("red")
    bundle.answerer.chat = chat
    for offset in range(40):
        bundle.answerer.observe(_frame(scene, offset))
    assert bundle.answerer.answer(_frame(scene, 0), "What colour is the chair?") == "red"
    assert "- chair: red fabric;" in chat.requests[0][1]["content"]
