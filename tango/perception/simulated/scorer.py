"""SIMULATED value scorer: the oracle scorer's MiniLM similarity over what a noisy eye notices, plus noise.

Each visible object is noticed with the detector model's P(detect) raised to `notice_power` (a whole-image
scorer such as BLIP-2 or CLIP notices more than a thresholded detector, still less of what is small, hidden or
far), may be named by a look-alike, and the frame's score for a prompt is the best MiniLM similarity between
the prompt and the noticed names plus Gaussian noise (clipped to [0, 1]). A frame that notices nothing scores
the absolute value of the noise. The frame embedding (for the feature memory) is the normalised sum of the
noticed names' embeddings plus a random direction of relative size `embedding_noise`.

Reads ground truth, so it is registered as an oracle (`scorer` in `oracle_components`).
"""

from __future__ import annotations

import numpy as np

from tango.perception.config import ScorerConfig
from tango.perception.detections import normalise_label
from tango.perception.oracle.ground_truth import OracleContext
from tango.perception.registry import register
from tango.perception.simulated.draws import normals, text_key
from tango.perception.simulated.params import DetectionModel, ScorerNoise, parse
from tango.perception.simulated.view import SimulatedEyes, eyes_for
from tango.perception.text_similarity import MiniLMQuerySide, TextEmbedder
from tango.types.observation import Observation


class SimulatedScorer(MiniLMQuerySide):
    """Noisy MiniLM value scores and frame embeddings from the simulated view of each frame."""

    def __init__(self, eyes: SimulatedEyes, text: TextEmbedder, noise: ScorerNoise) -> None:
        self.eyes = eyes
        self.text = text
        self.noise = noise

    def noticed_names(self, obs: Observation) -> tuple[int, list[str]]:
        """The frame's key and the sorted names of what the scorer notices in it (once per frame)."""
        memo = self.eyes.memo(obs)
        memo_key = ("simulated-scorer", id(self))
        if memo_key not in memo:
            view = self.eyes.view(obs)
            noticed = view.noticed("notice", self.noise.notice_power)
            categories = [normalise_label(v.object.category) for v in view.visible]
            names = self.eyes.look_alikes.relabel(
                categories, view.draw("scorer_confused"), view.draw("scorer_pick"), self.noise.confusion
            )
            memo[memo_key] = (view.key, sorted({names[i] for i in np.flatnonzero(noticed)}))
        found: tuple[int, list[str]] = memo[memo_key]  # type: ignore[assignment]
        return found

    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray:
        """(P,) noisy similarities in [0, 1]."""
        if not prompts:
            return np.zeros(0, dtype=np.float32)
        key, names = self.noticed_names(obs)
        clean = np.zeros(len(prompts))
        if names:
            clean = self.text.similarity(list(prompts), names).max(axis=1)
        noise = [text_key(p) >> 1 for p in prompts]  # 63 bits: an int64 item per prompt
        noisy = clean + self.noise.noise_sigma * normals(key, "scorer/noise", noise)
        return np.asarray(np.clip(np.abs(noisy) if not names else noisy, 0.0, 1.0), dtype=np.float32)

    def image_embedding(self, obs: Observation) -> np.ndarray:
        """Unit embedding of what the scorer notices plus noise; zeros when it notices nothing."""
        key, names = self.noticed_names(obs)
        if not names:
            return np.zeros(self.dim, dtype=np.float32)
        total = self.text.embed(names).sum(axis=0)
        total = total / np.linalg.norm(total)
        direction = normals(key, "scorer/embedding", np.arange(len(total)))
        total = total + self.noise.embedding_noise * direction / np.linalg.norm(direction)
        return (total / np.linalg.norm(total)).astype(np.float32)


@register("scorer", "simulated", oracle=True)
def simulated_scorer(config: ScorerConfig, ctx: OracleContext) -> SimulatedScorer:
    """Degraded ground truth: noticing follows the detector's error model (`perception.detector.options`), the
    noise `perception.scorer.options` (params.ScorerNoise)."""
    model = parse(DetectionModel, ctx.config.detector.options, "detector")
    noise = parse(ScorerNoise, config.options, "scorer")
    eyes = eyes_for(ctx.ground_truth, model, config.min_pixels)
    return SimulatedScorer(eyes, ctx.models.text(config.text_model), noise)
