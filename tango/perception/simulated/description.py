"""SIMULATED description matcher (GOAT "lang_desc"): the oracle matcher's verdicts, flipped at documented rates.

Each observed instance of the described category is judged by the oracle (similarity plus satisfied facts,
tango.perception.oracle.description); a fitting instance is then missed with probability `miss`, a non-fitting
one accepted with probability `false_accept` (scored just under the fitting ones). Draws are keyed by the seed,
the scene, the description and the instance, so a verdict does not change from one call to the next. Reads
ground truth, so it is registered as an oracle (`description` in `oracle_components`).
"""

from __future__ import annotations

import numpy as np

from tango.perception.config import DescriptionConfig
from tango.perception.interfaces import DetectFn, Recollection
from tango.perception.oracle.description import OracleDescriptionScorer
from tango.perception.oracle.ground_truth import GroundTruth, OracleContext
from tango.perception.registry import register
from tango.perception.simulated.draws import text_key, uniforms
from tango.perception.simulated.params import DescriptionNoise, parse
from tango.types.observation import Observation


class SimulatedDescriptionMatcher:
    """Observed instances of the described category, accepted as the oracle would, with flips."""

    def __init__(self, scorer: OracleDescriptionScorer, truth: GroundTruth, noise: DescriptionNoise) -> None:
        self.scorer = scorer
        self.truth = truth
        self.noise = noise

    def match(self, obs: Observation, description: str, detect: DetectFn) -> list[Recollection]:
        """Accepted instances, keyed by instance (the oracle matcher's keys)."""
        stated = self.scorer.stated(description)
        if not stated.category:
            return []
        seen = self.truth.observed.of_category(stated.category)
        ids = [entry.object.id for entry in seen]
        scores = self.scorer.score_instances(description, stated.category, ids)
        threshold = float(stated.count())
        key = text_key(self.noise.seed, self.truth.scene.scene_id, description)
        flip = uniforms(key, "description", ids)
        found = []
        for entry, score, u in zip(seen, scores, flip):
            fits = bool(score >= threshold)
            if fits and u >= self.noise.miss:
                found.append((entry, float(score)))
            elif not fits and np.isfinite(score) and u < self.noise.false_accept:
                found.append((entry, threshold - 0.5))
        return [
            Recollection(description, entry.last_point, score, f"{description}#{entry.object.id}")
            for entry, score in found
        ]


@register("description", "simulated", oracle=True)
def simulated_description_matcher(
    config: DescriptionConfig, ctx: OracleContext
) -> SimulatedDescriptionMatcher:
    truth = ctx.ground_truth
    scorer = OracleDescriptionScorer(truth.scene, truth.observed, ctx.models.text(config.text_model))
    return SimulatedDescriptionMatcher(scorer, truth, parse(DescriptionNoise, config.options, "description"))
