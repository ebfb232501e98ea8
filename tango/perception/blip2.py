"""BLIP-2 through transformers: image-text matching (value scores) and visual question answering."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from tango.perception.config import AnswererConfig, ScorerConfig
from tango.perception.context import BuildContext
from tango.perception.models import Placement, cached, load_pretrained
from tango.perception.registry import register
from tango.types.goals import GoalImage
from tango.types.observation import Observation

BLIP2_CLASSES = {"itm": "Blip2ForImageTextRetrieval", "vqa": "Blip2ForConditionalGeneration"}


def load_blip2(task: str, path: str, where: Placement) -> tuple[Any, Any]:
    """(processor, model) for `task` in itm|vqa from a local folder or hub id, in eval mode on `where`."""
    import transformers

    model_class = getattr(transformers, BLIP2_CLASSES[task])

    def load() -> tuple[Any, Any]:
        processor = load_pretrained(
            transformers.AutoProcessor.from_pretrained, path, f"BLIP-2 {task} processor"
        )
        # Loading in the target dtype keeps the modules BLIP-2 marks fp32-only (Q-Former) in fp32.
        model = load_pretrained(
            lambda p: model_class.from_pretrained(p, dtype=where.dtype), path, f"BLIP-2 {task} model"
        )
        return processor, model.to(where.device).eval()

    return cached(("blip2", task, path, where), load)


class Blip2ItmScorer:
    """Value scores from BLIP-2: cosine image-text similarity (`itc`) or the matching head's P(match) (`itm`)."""

    def __init__(self, path: str, head: str, where: Placement) -> None:
        if head not in ("itc", "itm"):
            raise ValueError(f"BLIP-2 scorer head must be itc or itm, got {head!r}")
        self.path = path
        self.head = head
        self.where = where
        self.processor, self.model = load_blip2("itm", path, where)
        self._last_frame: tuple[np.ndarray, torch.Tensor] | None = None

    @torch.inference_mode()
    def score(self, obs: Observation, prompts: list[str]) -> np.ndarray:
        """(P,) scores of `prompts` against the current RGB frame."""
        if not prompts:
            return np.zeros(0, dtype=np.float32)
        inputs = self.processor(images=[obs.rgb], text=list(prompts), padding=True, return_tensors="pt")
        pixels = inputs["pixel_values"].to(self.where.device, self.where.dtype)
        ids = inputs["input_ids"].to(self.where.device)
        mask = inputs["attention_mask"].to(self.where.device)
        if self.head == "itm":
            pixels = pixels.expand(len(prompts), -1, -1, -1)
            out = self.model(
                pixel_values=pixels, input_ids=ids, attention_mask=mask, use_image_text_matching_head=True
            )
            return torch.softmax(out.logits_per_image.float(), dim=-1)[:, 1].cpu().numpy()
        out = self.model(
            pixel_values=pixels, input_ids=ids, attention_mask=mask, use_image_text_matching_head=False
        )
        return out.logits_per_image.float().reshape(-1)[: len(prompts)].cpu().numpy()

    @torch.inference_mode()
    def query_embeddings(self, obs: Observation) -> torch.Tensor:
        """(Q, D) unit ITC embeddings of the frame's query tokens (ITC scores a text by the best of them)."""
        if self._last_frame is not None and self._last_frame[0] is obs.rgb:
            return self._last_frame[1]
        pixels = self.processor(images=[obs.rgb], return_tensors="pt")["pixel_values"]
        model = self.model
        image = model.vision_model(pixel_values=pixels.to(self.where.device, self.where.dtype))[0]
        queries = model.query_tokens.expand(image.shape[0], -1, -1)
        mask = torch.ones(image.shape[:-1], dtype=torch.long, device=image.device)
        hidden = model.qformer(
            query_embeds=queries, encoder_hidden_states=image, encoder_attention_mask=mask
        )[0]
        projected = model.vision_projection(hidden.to(model.vision_projection.weight.dtype))[0]
        embeddings = torch.nn.functional.normalize(projected.float(), dim=-1)
        self._last_frame = (obs.rgb, embeddings)
        return embeddings

    def image_embedding(self, obs: Observation) -> np.ndarray:
        """(D,) the first query token's ITC embedding, the one TANGO's feature map stores per frame."""
        return self.query_embeddings(obs)[0].cpu().numpy()

    @torch.inference_mode()
    def text_embedding(self, text: str) -> np.ndarray:
        """(D,) unit ITC embedding of a text (its [CLS] token through the text projection)."""
        tokens = self.processor(text=[text], padding=True, return_tensors="pt")
        model = self.model
        ids = tokens["input_ids"].to(self.where.device)
        mask = tokens["attention_mask"].to(self.where.device)
        text = ids[0] != model.config.image_token_index  # a processor may put image placeholders first
        ids, mask = ids[:, text], mask[:, text]
        hidden = model.qformer(
            query_embeds=model.embeddings(input_ids=ids), query_length=0, attention_mask=mask
        )[0]
        projected = model.text_projection(hidden[:, 0, :].to(model.text_projection.weight.dtype))
        return torch.nn.functional.normalize(projected.float(), dim=-1)[0].cpu().numpy()


class Blip2Answerer:
    """Short answers from BLIP-2's language model given the current frame and a question prompt."""

    def __init__(self, path: str, prompt: str, max_new_tokens: int, where: Placement) -> None:
        self.path = path
        self.prompt = prompt
        self.max_new_tokens = max_new_tokens
        self.where = where
        self.processor, self.model = load_blip2("vqa", path, where)

    @torch.inference_mode()
    def answer(self, obs: Observation, question: str, image: GoalImage | None = None) -> str:
        """The generated answer about `image` (else the current frame), greedy decoding."""
        text = self.prompt.format(question=question)
        pixels = obs.rgb if image is None else image.pixels
        inputs = self.processor(images=pixels, text=text, return_tensors="pt")
        inputs = {
            k: v.to(self.where.device, self.where.dtype if v.is_floating_point() else v.dtype)
            for k, v in inputs.items()
        }
        generated = self.model.generate(**inputs, max_new_tokens=self.max_new_tokens, do_sample=False)
        new_tokens = generated[:, inputs["input_ids"].shape[1] :]
        return str(self.processor.batch_decode(new_tokens, skip_special_tokens=True)[0]).strip()


@register("scorer", "blip2_itm")
def blip2_itm_scorer(config: ScorerConfig, ctx: BuildContext) -> Blip2ItmScorer:
    return Blip2ItmScorer(config.path, config.head, ctx.models.where)


@register("answerer", "blip2")
def blip2_answerer(config: AnswererConfig, ctx: BuildContext) -> Blip2Answerer:
    return Blip2Answerer(config.path, config.prompt, config.max_new_tokens, ctx.models.where)
