"""SIMULATED value scorer: the oracle scorer's MiniLM similarity over what a noisy eye notices, plus noise.

Each visible object is noticed with the detector model's P(detect) raised to `notice_power` (a whole-image
scorer such as BLIP-2 or CLIP notices more than a thresholded detector, still less of what is small, hidden or
far), may be named by a look-alike, and the frame's score for a prompt is the best MiniLM similarity between
the prompt and the noticed names plus Gaussian noise (clipped to [0, 1]). A frame that notices nothing scores
the absolute value of the noise.

Two terms make the score behave more like a whole-image vision-language score (VLFM's BLIP-2 ITM cosine for
"Seems like there is a {target} ahead."), which is high when the target is in view, raised by a room that
usually holds it, and flat for unrelated views: similarities at or below `related_floor` count as unrelated
(MiniLM puts unrelated single words at 0.2-0.5, "toilet" vs "stool" at 0.67, a spread with no visual meaning),
and the rooms in view (those of the visible objects and the one the camera stands in, each misnamed at
`room_confusion`) add `room_context` times the prompt's relevance to what such a room holds (`room_objects`). The frame embedding (for the feature memory) is the normalised sum of the
noticed names' embeddings plus a random direction of relative size `embedding_noise`.

Reads ground truth, so it is registered as an oracle (`scorer` in `oracle_components`).
"""

from __future__ import annotations

import numpy as np

from tango.perception.config import ScorerConfig
from tango.perception.detections import normalise_label
from tango.perception.oracle.ground_truth import OracleContext
from tango.perception.registry import register
from tango.perception.simulated.draws import normals, text_key, uniforms
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
        scene = eyes.truth.scene
        self.room_types = {room.id: normalise_label(room.type) for room in scene.rooms}
        self.scene_room_types = sorted(set(self.room_types.values()))
        self.room_objects = {
            normalise_label(room): sorted({normalise_label(name) for name in names})
            for room, names in noise.room_objects.items()
        }
        self._room_scores: dict[tuple[str, ...], dict[str, np.ndarray]] = {}

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
            clean = self.relevance(list(prompts), names).max(axis=1)
        if self.noise.room_context > 0:
            context = self.room_scores(tuple(prompts))
            for room in self.rooms_in_view(obs):
                if room in context:
                    clean = np.maximum(clean, context[room])
        noise = [text_key(p) >> 1 for p in prompts]  # 63 bits: an int64 item per prompt
        noisy = clean + self.noise.noise_sigma * normals(key, "scorer/noise", noise)
        return np.asarray(np.clip(np.abs(noisy) if not names else noisy, 0.0, 1.0), dtype=np.float32)

    def relevance(self, prompts: list[str], names: list[str]) -> np.ndarray:
        """(P, N) MiniLM similarity of each prompt to each name; with a `related_floor`, rescaled so that the
        floor and below give 0 and the prompt's best match among the scene's categories gives 1 (the scorer
        knows what the prompt looks like, as a vision-language model knows what "sofa" or "tv monitor" shows)."""
        similarity = self.text.similarity(prompts, names)
        floor = self.noise.related_floor
        if floor <= 0:
            return similarity
        best = self.text.similarity(prompts, self.eyes.categories).max(axis=1)
        top = np.maximum(best, floor + 0.1)[:, None]
        return np.asarray(np.clip((similarity - floor) / (top - floor), 0.0, 1.0))

    def room_scores(self, prompts: tuple[str, ...]) -> dict[str, np.ndarray]:
        """(P,) room-context score of each room type `room_objects` names, for these prompts (kept per prompt
        list: the value map asks with the same prompt every frame)."""
        if prompts not in self._room_scores:
            self._room_scores[prompts] = {
                room: self.noise.room_context * self.relevance(list(prompts), holds).max(axis=1)
                for room, holds in self.room_objects.items()
                if holds
            }
        return self._room_scores[prompts]

    def rooms_in_view(self, obs: Observation) -> list[str]:
        """The room types the frame shows (the rooms of its visible objects and the camera's own room), each
        named as another room type of the scene with probability `room_confusion` (drawn per frame and room)."""
        memo = self.eyes.memo(obs)
        memo_key = ("simulated-scorer-rooms", id(self))
        if memo_key not in memo:
            view = self.eyes.view(obs)
            ids = {v.object.room_id for v in view.visible if v.object.room_id in self.room_types}
            ids.update(room.id for room in self.eyes.truth.scene.rooms if room.contains(obs.agent_position))
            named = set()
            order = sorted(ids)
            draws = uniforms(view.key, "scorer/room", [2 * i + k for i in order for k in (0, 1)]).reshape(
                -1, 2
            )
            for room_id, (swap, pick) in zip(order, draws):
                truth = self.room_types[room_id]
                others = [t for t in self.scene_room_types if t != truth]
                named.add(
                    others[int(pick * len(others))] if swap < self.noise.room_confusion and others else truth
                )
            memo[memo_key] = sorted(named)
        found: list[str] = memo[memo_key]  # type: ignore[assignment]
        return found

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
