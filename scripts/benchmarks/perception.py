"""Per-frame perception cost: the oracle detector and MiniLM value scorer, and full-size random-weight OWLv2 base, OWL-ViT base, DETR-R50
and CLIP ViT-B/32 run through the same code paths as real checkpoints. One JSON line on stdout.

usage: python scripts/bench.py perception [--repeats N] [--oracle-repeats N] [--skip-models] [--device cpu|cuda]
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tango.perception.clip import ClipEmbedder
from tango.perception.config import ClipConfig
from tango.perception.detr import DetrDetector
from tango.perception.models import Placement, clear_cache, placement
from tango.perception.oracle.detector import OracleDetector
from tango.perception.oracle.ground_truth import GroundTruth
from tango.perception.oracle.scene import OracleScene
from tango.perception.oracle.scorer import OracleTextScorer
from tango.perception.owl import OwlDetector
from tango.perception.text_similarity import TextEmbedder
from tango.types.observation import Observation
from tango.types.scene import SceneObject

HEIGHT, WIDTH = 480, 640


def frame(num_objects: int = 12) -> Observation:
    """A 480x640 frame with `num_objects` rectangular instances over a depth ramp."""
    rng = np.random.default_rng(0)
    semantic = np.zeros((HEIGHT, WIDTH), dtype=np.int32)
    for object_id in range(1, num_objects + 1):
        r, c = rng.integers(0, HEIGHT - 80), rng.integers(0, WIDTH - 80)
        semantic[r : r + rng.integers(20, 80), c : c + rng.integers(20, 80)] = object_id
    depth = np.tile(np.linspace(0.5, 5.0, HEIGHT, dtype=np.float32)[:, None], (1, WIDTH))
    rgb = rng.integers(0, 255, (HEIGHT, WIDTH, 3), dtype=np.uint8)
    return Observation(rgb, depth, np.eye(4), 79.0, np.zeros(3), 0.0, semantic)


def per_call_ms(fn: Callable[[], Any], repeats: int, warmup: int = 1) -> float:
    """Median wall time of `fn` in milliseconds."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times) * 1000.0)


def bench_oracle(obs: Observation, repeats: int) -> dict[str, float]:
    """Oracle detector per frame (all visible objects, one queried label) and the MiniLM value scorer."""
    objects = {
        i: SceneObject(i, "chair" if i % 2 else "table", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), 0, "kitchen")
        for i in range(1, 13)
    }
    scene = OracleScene("bench", objects, ())
    detector = OracleDetector(scene, min_pixels=100)
    scorer = OracleTextScorer(GroundTruth(scene, 100), TextEmbedder("", placement("cpu")), min_pixels=100)
    return {
        "oracle_detect_visible_ms": per_call_ms(lambda: detector.detect_visible(obs), repeats),
        "oracle_detect_label_ms": per_call_ms(lambda: detector.detect(obs, ["chair"]), repeats),
        "oracle_text_score_ms": per_call_ms(lambda: scorer.score(obs, ["sofa"]), repeats),
    }


def owl_ms(kind: str, folder: Path, obs: Observation, repeats: int, where: Placement) -> float:
    """OWLv2 base (960 px, patch 16) or OWL-ViT base (768 px, patch 32) with four text queries."""
    import transformers as tf

    from tests.perception.tiny_models import clip_tokenizer

    tokenizer = clip_tokenizer(num_merges=48894)
    if kind == "owlv2":
        tf.Owlv2ForObjectDetection(
            tf.Owlv2Config(vision_config={"image_size": 960, "patch_size": 16})
        ).save_pretrained(folder)
        tf.Owlv2Processor(tf.Owlv2ImageProcessor(), tokenizer).save_pretrained(folder)
    else:
        tf.OwlViTForObjectDetection(tf.OwlViTConfig()).save_pretrained(folder)
        tf.OwlViTProcessor(tf.OwlViTImageProcessor(), tokenizer).save_pretrained(folder)
    detector = OwlDetector(kind, str(folder), 0.1, where)
    return per_call_ms(lambda: detector.detect(obs, ["chair", "couch", "potted plant", "bed"]), repeats)


def detr_ms(folder: Path, obs: Observation, repeats: int, where: Placement) -> float:
    """DETR with a ResNet-50 backbone (timm, random weights)."""
    import transformers as tf

    tf.DetrForObjectDetection(tf.DetrConfig()).save_pretrained(folder)
    tf.DetrImageProcessor().save_pretrained(folder)
    detector = DetrDetector(str(folder), 0.7, where)
    return per_call_ms(lambda: detector.detect(obs, ["chair"]), repeats)


def clip_ms(folder: Path, obs: Observation, repeats: int, where: Placement) -> float:
    """open_clip ViT-B/32 image embedding of one frame."""
    import open_clip
    from safetensors.torch import save_file

    folder.mkdir()
    model_cfg = open_clip.get_model_config("ViT-B-32")
    (folder / "open_clip_config.json").write_text(json.dumps({"model_cfg": model_cfg, "preprocess_cfg": {}}))
    model = open_clip.create_model(f"local-dir:{folder}", load_weights=False)
    save_file(
        {k: v.contiguous() for k, v in model.state_dict().items()}, folder / "open_clip_model.safetensors"
    )
    clip = ClipEmbedder(ClipConfig(model=f"local-dir:{folder}", pretrained=""), where)
    return per_call_ms(lambda: clip.images([obs.rgb]), repeats)


def bench_models(obs: Observation, repeats: int, device: str) -> dict[str, float]:
    """Full-size random-weight models, built one at a time; each is dropped from the cache before the next."""
    where = placement(device)
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, measure in (
            ("owlv2_base_ms", lambda: owl_ms("owlv2", root / "owlv2", obs, repeats, where)),
            ("owlvit_base_ms", lambda: owl_ms("owlvit", root / "owlvit", obs, repeats, where)),
            ("detr_r50_ms", lambda: detr_ms(root / "detr", obs, repeats, where)),
            ("clip_b32_image_ms", lambda: clip_ms(root / "clip", obs, repeats, where)),
        ):
            results[name] = measure()
            clear_cache()
            gc.collect()
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py perception")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--oracle-repeats", type=int, default=200)
    parser.add_argument("--skip-models", action="store_true")
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    torch.set_num_threads(1)
    obs = frame()
    result: dict[str, Any] = {
        "benchmark": "perception",
        "frame": f"{WIDTH}x{HEIGHT}",
        "device": args.device
        if args.device != "cpu"
        else f"cpu ({platform.processor() or platform.machine()})",
        "torch_threads": torch.get_num_threads(),
        "load_average_1m": round(os.getloadavg()[0], 2),
        **bench_oracle(obs, args.oracle_repeats),
    }
    if not args.skip_models:
        result.update(bench_models(obs, args.repeats, args.device))
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}))
    return 0
