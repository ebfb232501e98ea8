"""Tiny random-weight models built from configs and saved with their processors, exactly as real checkpoints are.

Nothing is downloaded: the CLIP BPE tokenizer is cut from the vocabulary file that open_clip ships.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import torch

COCO_SUBSET = {1: "person", 62: "chair", 63: "couch", 67: "dining table"}


def clip_tokenizer(num_merges: int = 300, max_length: int = 16):  # type: ignore[no-untyped-def]
    """A CLIPTokenizer over the bytes plus the first `num_merges` merges of CLIP's BPE (BOS/EOS at the end)."""
    from open_clip.tokenizer import bytes_to_unicode, default_bpe
    from transformers import CLIPTokenizer

    with gzip.open(default_bpe()) as handle:
        lines = handle.read().decode("utf-8").split("\n")[1 : 1 + num_merges]
    merges = [tuple(line.split()) for line in lines if line.strip()]
    symbols = list(bytes_to_unicode().values())
    vocab_list = symbols + [s + "</w>" for s in symbols] + ["".join(m) for m in merges]
    vocab_list += ["<|startoftext|>", "<|endoftext|>"]
    vocab = {token: i for i, token in enumerate(vocab_list)}
    return CLIPTokenizer(vocab=vocab, merges=merges, model_max_length=max_length)


def _text_ids(tokenizer) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {
        "vocab_size": len(tokenizer),
        "bos_token_id": tokenizer.bos_token_id,
        "eos_token_id": tokenizer.eos_token_id,
        "pad_token_id": tokenizer.pad_token_id,
    }


def save_tiny_owl(folder: Path, kind: str, image_size: int = 32) -> Path:
    """A tiny OWLv2 (`owlv2`) or OWL-ViT (`owlvit`) detector with its processor in `folder`."""
    import transformers as tf

    torch.manual_seed(0)
    tokenizer = clip_tokenizer()
    text = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                max_position_embeddings=16, **_text_ids(tokenizer))  # fmt: skip
    vision = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2,
                  "image_size": image_size, "patch_size": 8}  # fmt: skip
    size = {"height": image_size, "width": image_size}
    if kind == "owlv2":
        config = tf.Owlv2Config(text_config=text, vision_config=vision, projection_dim=32)
        model = tf.Owlv2ForObjectDetection(config)
        processor = tf.Owlv2Processor(image_processor=tf.Owlv2ImageProcessor(size=size), tokenizer=tokenizer)
    else:
        config = tf.OwlViTConfig(text_config=text, vision_config=vision, projection_dim=32)
        model = tf.OwlViTForObjectDetection(config)
        image_processor = tf.OwlViTImageProcessor(size=size, crop_size=size)
        processor = tf.OwlViTProcessor(image_processor=image_processor, tokenizer=tokenizer)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


def save_tiny_detr(folder: Path, image_size: int = 64) -> Path:
    """A tiny DETR with a small ResNet backbone and a COCO-named label subset, with its image processor."""
    import transformers as tf

    torch.manual_seed(0)
    backbone = tf.ResNetConfig(embedding_size=8, hidden_sizes=[8, 8, 16, 16], depths=[1, 1, 1, 1],
                               out_features=["stage4"])  # fmt: skip
    id2label = {i: name for i, name in enumerate(COCO_SUBSET.values())}
    config = tf.DetrConfig(
        backbone_config=backbone, use_timm_backbone=False, d_model=32, encoder_layers=1, decoder_layers=1,
        encoder_ffn_dim=32, decoder_ffn_dim=32, encoder_attention_heads=2, decoder_attention_heads=2,
        num_queries=10, id2label=id2label, label2id={v: k for k, v in id2label.items()},
    )  # fmt: skip
    tf.DetrForObjectDetection(config).save_pretrained(folder)
    size = {"shortest_edge": image_size, "longest_edge": image_size}
    tf.DetrImageProcessor(size=size).save_pretrained(folder)
    return folder


def save_tiny_open_clip(folder: Path, image_size: int = 32) -> str:
    """A tiny open_clip CLIP (`open_clip_config.json` + safetensors) in `folder`; returns `local-dir:{folder}`."""
    import open_clip
    from safetensors.torch import save_file

    torch.manual_seed(0)
    model_cfg = {
        "embed_dim": 32,
        "vision_cfg": {"image_size": image_size, "layers": 2, "width": 32, "patch_size": 8, "head_width": 16},
        "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 2},
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "open_clip_config.json").write_text(json.dumps({"model_cfg": model_cfg, "preprocess_cfg": {}}))
    model = open_clip.create_model(f"local-dir:{folder}", load_weights=False)
    save_file(
        {k: v.contiguous() for k, v in model.state_dict().items()}, folder / "open_clip_model.safetensors"
    )
    return f"local-dir:{folder}"


def _blip2_config(tokenizer, image_size: int, num_query_tokens: int, text_input: bool):  # type: ignore[no-untyped-def]
    import transformers as tf

    ids = _text_ids(tokenizer)
    vision = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2,
                  "image_size": image_size, "patch_size": 8}  # fmt: skip
    qformer = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2,
                   "encoder_hidden_size": 32, "vocab_size": ids["vocab_size"], "pad_token_id": ids["pad_token_id"],
                   "max_position_embeddings": 64, "use_qformer_text_input": text_input}  # fmt: skip
    text = tf.OPTConfig(hidden_size=32, ffn_dim=64, num_hidden_layers=1, num_attention_heads=2,
                        word_embed_proj_dim=32, max_position_embeddings=128, **ids)  # fmt: skip
    return tf.Blip2Config(
        vision_config=vision, qformer_config=qformer, text_config=text.to_dict(),
        num_query_tokens=num_query_tokens, image_token_index=tokenizer.convert_tokens_to_ids("<image>"),
        image_text_hidden_size=32,
    )  # fmt: skip


def save_tiny_blip2(folder: Path, task: str, image_size: int = 32, num_query_tokens: int = 4) -> Path:
    """A tiny BLIP-2 for `task` in vqa|itm (OPT language model / Q-Former retrieval heads) with its processor."""
    import transformers as tf

    torch.manual_seed(0)
    tokenizer = clip_tokenizer(max_length=64)
    tokenizer.add_tokens([tf.AddedToken("<image>", normalized=False, special=True)], special_tokens=True)
    config = _blip2_config(tokenizer, image_size, num_query_tokens, text_input=task == "itm")
    model_class = tf.Blip2ForConditionalGeneration if task == "vqa" else tf.Blip2ForImageTextRetrieval
    model_class(config).save_pretrained(folder)
    image_processor = tf.BlipImageProcessor(size={"height": image_size, "width": image_size})
    processor = tf.Blip2Processor(image_processor=image_processor, tokenizer=tokenizer,
                                  num_query_tokens=num_query_tokens)  # fmt: skip
    processor.save_pretrained(folder)
    return folder


TINY_DARKNET_CFG = """[net]
width={size}
height={size}
channels=3

[convolutional]
batch_normalize=1
filters=8
size=3
stride=2
pad=1
activation=leaky

[convolutional]
size=1
stride=1
pad=1
filters={filters}
activation=linear

[yolo]
mask=0,1,2
anchors=4,4, 8,8, 16,16
classes={classes}
num=3
"""


def save_tiny_darknet(folder: Path, classes: list[str], size: int = 32) -> Path:
    """A tiny random-weight Darknet YOLO (one conv, one 1x1 head, one yolo layer) as .cfg/.weights/.names files.

    The weights file has Darknet's layout: a header (major 0, minor 2, revision 0, images seen as int64), then
    per convolution with batch norm: biases, scales, rolling means, rolling variances, kernels; without: biases,
    kernels (all float32).
    """
    folder.mkdir(parents=True, exist_ok=True)
    head = 3 * (5 + len(classes))
    (folder / "tiny-yolo.cfg").write_text(
        TINY_DARKNET_CFG.format(size=size, filters=head, classes=len(classes))
    )
    (folder / "tiny.names").write_text("\n".join(classes) + "\n")
    rng = np.random.default_rng(0)
    parts = [np.array([0, 2, 0], np.int32).tobytes(), np.array([0], np.int64).tobytes()]
    bn = [rng.normal(0, 0.1, 8), rng.uniform(0.5, 1.5, 8), rng.normal(0, 0.1, 8), rng.uniform(0.5, 1.5, 8)]
    parts += [a.astype(np.float32).tobytes() for a in [*bn, rng.normal(0, 0.3, 8 * 3 * 3 * 3)]]
    parts += [
        a.astype(np.float32).tobytes() for a in [rng.normal(0, 0.1, head), rng.normal(0, 0.3, head * 8)]
    ]
    (folder / "tiny.weights").write_bytes(b"".join(parts))
    return folder
