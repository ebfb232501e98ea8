"""Per-frame perception cost: the oracle detector and scorer, and full-size random-weight OWLv2 base, OWL-ViT base,
DETR-R50 and CLIP ViT-B/32 run through the same code paths as real checkpoints. One JSON line on stdout.

usage: python scripts/bench.py perception [--repeats N] [--skip-models] [--device cpu|cuda]
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tango.agent.observation import Observation  # noqa: E402
from tango.perception.oracle import OracleDetector  # noqa: E402
from tango.perception.oracle_scene import OracleScene  # noqa: E402
from tango.sim.scene import SceneObject  # noqa: E402

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
    """Oracle detector per frame (all visible objects, and one queried label)."""
    objects = {
        i: SceneObject(i, "chair" if i % 2 else "table", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), 0, "kitchen")
        for i in range(1, 13)
    }
    detector = OracleDetector(OracleScene("bench", objects, ()), min_pixels=100)
    return {
        "oracle_detect_visible_ms": per_call_ms(lambda: detector.detect_visible(obs), repeats),
        "oracle_detect_label_ms": per_call_ms(lambda: detector.detect(obs, ["chair"]), repeats),
    }


def bench_models(obs: Observation, repeats: int, device: str) -> dict[str, Any]:
    """Full-size random-weight models, built one at a time and freed before the next."""
    import transformers as tf

    from tango.perception.clip import ClipEmbedder
    from tango.perception.config import ClipConfig
    from tango.perception.detr import DetrDetector
    from tango.perception.models import placement
    from tango.perception.owl import OwlDetector
    from tests.perception.tiny_models import clip_tokenizer

    where = placement(device)
    results: dict[str, Any] = {}
    labels = ["chair", "couch", "potted plant", "bed"]
    with tempfile.TemporaryDirectory() as tmp:
        for kind, config, processor in (
            (
                "owlv2",
                tf.Owlv2Config(vision_config={"image_size": 960, "patch_size": 16}),
                lambda tok: tf.Owlv2Processor(tf.Owlv2ImageProcessor(), tok),
            ),
            ("owlvit", tf.OwlViTConfig(), lambda tok: tf.OwlViTProcessor(tf.OwlViTImageProcessor(), tok)),
        ):
            folder = Path(tmp) / kind
            model_class = tf.Owlv2ForObjectDetection if kind == "owlv2" else tf.OwlViTForObjectDetection
            model_class(config).save_pretrained(folder)
            processor(clip_tokenizer(num_merges=48894)).save_pretrained(folder)
            detector = OwlDetector(kind, str(folder), 0.1, where)
            results[f"{kind}_base_ms"] = per_call_ms(lambda d=detector: d.detect(obs, labels), repeats)
            del detector
        folder = Path(tmp) / "detr"
        tf.DetrForObjectDetection(tf.DetrConfig()).save_pretrained(folder)
        tf.DetrImageProcessor().save_pretrained(folder)
        detr = DetrDetector(str(folder), 0.7, where)
        results["detr_r50_ms"] = per_call_ms(lambda: detr.detect(obs, ["chair"]), repeats)
        del detr
        import open_clip
        from safetensors.torch import save_file

        folder = Path(tmp) / "clip"
        folder.mkdir()
        model_cfg = open_clip.get_model_config("ViT-B-32")
        (folder / "open_clip_config.json").write_text(
            json.dumps({"model_cfg": model_cfg, "preprocess_cfg": {}})
        )
        model = open_clip.create_model(f"local-dir:{folder}", load_weights=False)
        save_file(
            {k: v.contiguous() for k, v in model.state_dict().items()}, folder / "open_clip_model.safetensors"
        )
        clip = ClipEmbedder(ClipConfig(model=f"local-dir:{folder}", pretrained=""), where)
        results["clip_b32_image_ms"] = per_call_ms(lambda: clip.images([obs.rgb]), repeats)
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
        **bench_oracle(obs, args.oracle_repeats),
    }
    if not args.skip_models:
        result.update(bench_models(obs, args.repeats, args.device))
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}))
    return 0
