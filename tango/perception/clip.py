"""open_clip image and text embeddings (loaded once per process), shared by the filter, scorer, rooms, descriptions."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from tango.perception.config import ClipConfig
from tango.perception.models import ModelLoadError, Placement, cached


def load_open_clip(config: ClipConfig, where: Placement) -> tuple[Any, Any, Any]:
    """(model, preprocess, tokenizer); `local-dir:PATH` models carry their own config and weights."""
    import open_clip

    def load() -> tuple[Any, Any, Any]:
        local = config.model.startswith("local-dir:") or config.model.startswith("hf-hub:")
        pretrained = None if local or not config.pretrained else config.pretrained
        try:
            model, _, preprocess = open_clip.create_model_and_transforms(
                config.model, pretrained=pretrained, device=where.device, require_pretrained=True
            )
            tokenizer = open_clip.get_tokenizer(config.model)
        except (OSError, ValueError, RuntimeError) as error:
            raise ModelLoadError(
                f"open_clip: cannot load model {config.model!r} with weights {config.pretrained!r}: {error}"
            ) from error
        return model.to(where.device, where.dtype).eval(), preprocess, tokenizer

    return cached(("open_clip", config.model, config.pretrained, where), load)


class ClipEmbedder:
    """Unit-norm CLIP embeddings of RGB arrays and texts; text embeddings are memoised per instance, and so is
    the embedding of the last single image (the value scorer and the memory embed each frame once)."""

    def __init__(self, config: ClipConfig, where: Placement) -> None:
        self.config = config
        self.where = where
        self.model, self.preprocess, self.tokenizer = load_open_clip(config, where)
        self._texts: dict[str, torch.Tensor] = {}
        self._last_image: tuple[np.ndarray, torch.Tensor] | None = None

    @torch.inference_mode()
    def images(self, images: list[np.ndarray]) -> torch.Tensor:
        """(N, D) unit embeddings of HxWx3 uint8 images."""
        from PIL import Image

        if len(images) == 1 and self._last_image is not None and images[0] is self._last_image[0]:
            return self._last_image[1]
        batch = torch.stack(
            [self.preprocess(Image.fromarray(np.asarray(im, dtype=np.uint8))) for im in images]
        )
        features = self.model.encode_image(batch.to(self.where.device, self.where.dtype)).float()
        embeddings = torch.nn.functional.normalize(features, dim=-1)
        if len(images) == 1:
            self._last_image = (images[0], embeddings)
        return embeddings

    @torch.inference_mode()
    def texts(self, texts: list[str]) -> torch.Tensor:
        """(N, D) unit embeddings of texts."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._texts]
        if missing:
            features = self.model.encode_text(self.tokenizer(missing).to(self.where.device)).float()
            for text, feature in zip(missing, torch.nn.functional.normalize(features, dim=-1)):
                self._texts[text] = feature
        return torch.stack([self._texts[t] for t in texts])

    def similarity(self, images: list[np.ndarray], texts: list[str]) -> np.ndarray:
        """(N images, T texts) cosine similarities."""
        return (self.images(images) @ self.texts(texts).T).cpu().numpy()

    def probabilities(self, images: list[np.ndarray], texts: list[str]) -> np.ndarray:
        """(N, T) softmax over texts with the model's logit scale (zero-shot classification)."""
        scale = float(self.model.logit_scale.detach().exp().float().clamp(max=100.0))
        logits = torch.from_numpy(self.similarity(images, texts)) * scale
        return torch.softmax(logits, dim=-1).numpy()


def crop(rgb: np.ndarray, box: np.ndarray, padding: float = 0.0) -> np.ndarray:
    """The pixels of an xyxy box grown by `padding` of its size on each side (at least 1x1)."""
    height, width = rgb.shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box)
    pad_x, pad_y = (x1 - x0) * padding, (y1 - y0) * padding
    c0 = int(np.clip(np.floor(x0 - pad_x), 0, width - 1))
    r0 = int(np.clip(np.floor(y0 - pad_y), 0, height - 1))
    c1 = int(np.clip(np.ceil(x1 + pad_x), c0 + 1, width))
    r1 = int(np.clip(np.ceil(y1 + pad_y), r0 + 1, height))
    return rgb[r0:r1, c0:c1]
