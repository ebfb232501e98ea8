"""SIMULATED attribute reporter: the colour and material of a detected object, as the annotation gives them,
degraded by the error model `AttributeNoise`. Registered as an oracle (it reads the semantic frame and the
annotation) and named in `oracle_components`: degraded ground truth, not a model. The `oracle` kind is the
same reporter without errors.

For each detection mask the reporter takes the annotated object most of the mask's pixels show (none for a
false positive on the background: nothing is reported) and, per reported attribute, draws:

    clear = logistic(base_logit + size_slope * min(0, ln(side / size_full_px))
                     - distance_slope * max(0, distance_m - distance_free_m))
    missed        with P = 1 - clear                                  (no value reported)
    confused      with P = confusion_floor + confusion * (1 - clear)  (given reported: a near value instead)

`side` is the square root of the mask's pixels rescaled to a 640x480 frame (COCO's scale, as the simulated
detector), `distance_m` the median depth under the mask. A confused value is one of `near_values[value]`
(grey for black or white, beige for white or brown, leather for fabric, ...), picked uniformly; a value with
no near values is never confused. Draws are keyed by (seed, scene, camera pose, attribute, object id), like
every simulated draw (tango.perception.simulated.draws): the same view reports the same values in every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tango.perception.config import AttributesConfig
from tango.perception.detections import normalise_label
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.registry import register
from tango.perception.simulated.draws import frame_key, uniforms
from tango.perception.simulated.params import COCO_FRAME_PIXELS, parse
from tango.types.observation import Observation


@dataclass
class AttributeNoise:
    """The error model of the simulated attribute reporter (module docstring); defaults are chosen, not
    fitted, and listed with their reading in configs/perception/simulated.yaml."""

    seed: int = 0
    reported: list[str] = field(default_factory=lambda: ["color", "material"])
    base_logit: float = 2.5
    size_full_px: float = 96.0
    size_slope: float = 1.5
    distance_free_m: float = 2.0
    distance_slope: float = 0.7
    confusion_floor: float = 0.05
    confusion: float = 0.4
    near_values: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("confusion_floor", "confusion"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"simulated attributes: {name} must be in [0, 1], got {getattr(self, name)}")
        if self.confusion_floor + self.confusion > 1.0:
            raise ValueError("simulated attributes: confusion_floor + confusion must be at most 1")

    def clear(self, side_px: np.ndarray, distance_m: np.ndarray) -> np.ndarray:
        """(N,) probability that a view shows an attribute clearly enough to report it."""
        size = self.size_slope * np.minimum(0.0, np.log(np.maximum(side_px, 1e-3) / self.size_full_px))
        distance = -self.distance_slope * np.maximum(0.0, distance_m - self.distance_free_m)
        return np.asarray(1.0 / (1.0 + np.exp(-(self.base_logit + size + distance))), dtype=np.float64)


class SimulatedAttributes:
    """Reports, for each detection mask of a frame, the attribute values of the annotated object it shows:
    exactly (`noise` None: the oracle) or through `AttributeNoise`."""

    def __init__(self, truth: GroundTruth, noise: AttributeNoise | None) -> None:
        self.truth = truth
        self.noise = noise
        self.reported = [normalise_label(a) for a in (noise or AttributeNoise()).reported]
        self.near = {
            normalise_label(value): [normalise_label(v) for v in others]
            for value, others in (noise.near_values if noise else {}).items()
        }

    def report(self, obs: Observation, masks: np.ndarray) -> list[dict[str, str]]:
        """One {attribute: value} per mask (empty where the mask shows no annotated object)."""
        semantic = np.asarray(self.truth.semantic(obs.semantic, "the simulated attribute reporter's frame"))
        depth = np.asarray(obs.depth, dtype=np.float64)
        scale = np.sqrt(COCO_FRAME_PIXELS / float(obs.height * obs.width))
        reports: list[dict[str, str]] = []
        for mask in masks:
            ids = semantic[mask]
            ids = ids[ids >= 0]
            found = np.bincount(ids).argmax() if len(ids) else -1
            obj = self.truth.scene.objects.get(int(found))
            if obj is None:
                reports.append({})
                continue
            values = {normalise_label(k): normalise_label(v) for k, v in obj.attributes.items()}
            values = {k: v for k, v in values.items() if k in self.reported}
            under = depth[mask]
            under = under[np.isfinite(under) & (under > 0)]
            distance = float(np.median(under)) if len(under) else 0.0
            side = float(np.sqrt(mask.sum())) * scale
            reports.append(self._degrade(obs, int(found), values, side, distance))
        return reports

    def _degrade(
        self, obs: Observation, object_id: int, values: dict[str, str], side: float, distance: float
    ) -> dict[str, str]:
        """The values as this view reports them: each missed or confused by the error model's draws."""
        noise = self.noise
        if noise is None:
            return values
        key = frame_key(noise.seed, self.truth.scene.scene_id, obs)
        clear = float(noise.clear(np.array([side]), np.array([distance]))[0])
        reported: dict[str, str] = {}
        for attribute, value in sorted(values.items()):
            miss, confuse, pick = (
                float(uniforms(key, f"attributes/{attribute}/{use}", [object_id])[0])
                for use in ("miss", "confuse", "pick")
            )
            if miss >= clear:
                continue
            near = self.near.get(value, [])
            if near and confuse < noise.confusion_floor + noise.confusion * (1.0 - clear):
                value = near[int(pick * len(near))]
            reported[attribute] = value
        return reported


@register("attributes", "simulated", oracle=True)
def simulated_attributes(config: AttributesConfig, ctx: OracleContext) -> SimulatedAttributes:
    """Degraded annotated attributes: the error model from `perception.attributes.options` (AttributeNoise)."""
    return SimulatedAttributes(ctx.ground_truth, parse(AttributeNoise, config.options, "attributes"))


@register("attributes", "oracle", oracle=True)
def oracle_attributes(config: AttributesConfig, ctx: OracleContext) -> SimulatedAttributes:
    """The annotated attributes of the object under each mask, exactly (an upper bound for an attribute model);
    `options.reported` names the attributes reported (default colour and material)."""
    noise = parse(AttributeNoise, config.options, "attributes")
    reporter = SimulatedAttributes(ctx.ground_truth, None)
    reporter.reported = [normalise_label(a) for a in noise.reported]
    return reporter
