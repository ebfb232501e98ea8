"""Every real-model path, run through the same loading and inference code a user's checkpoint takes.

Each test builds a tiny random-weight model from a config, saves it with its processor/tokenizer, points the
perception config at that folder and runs to a Detections record, scores or an answer (values meaningless).
"""

from __future__ import annotations

import numpy as np
import pytest

from tango.llm import LLMConfig
from tango.perception.answerers import VlmAnswerer
from tango.perception.blip2 import Blip2Answerer, Blip2ItmScorer
from tango.perception.build import build_perception
from tango.perception.clip import ClipEmbedder
from tango.perception.clip_filter import ClipFilter
from tango.perception.config import ClipConfig
from tango.perception.detections import Detections
from tango.perception.detr import DetrDetector
from tango.perception.models import ModelLoadError, cached_count, placement
from tango.perception.owl import OwlDetector
from tango.perception.pipeline import DetectionPipeline, nms
from tests.perception.conftest import make_observation
from tests.support.chat_server import ChatServer, Reply
from tests.support.presets import preset

CPU = placement("cpu")


@pytest.fixture
def frame():  # type: ignore[no-untyped-def]
    return make_observation(np.zeros((48, 64)), depth_m=2.5)


@pytest.mark.parametrize("kind", ["owlv2", "owlvit"])
def test_tiny_random_owl_detector_returns_detections_with_points(kind, tiny_dir, frame, request) -> None:  # type: ignore[no-untyped-def]
    path = request.getfixturevalue(f"tiny_{kind}")
    detections = OwlDetector(kind, str(path), threshold=0.0, where=CPU).detect(frame, ["chair", "red sofa"])
    assert isinstance(detections, Detections) and len(detections) > 0
    assert set(detections.labels) <= {"chair", "red sofa"}
    assert (detections.boxes[:, [0, 2]] <= 64).all() and (detections.boxes[:, [1, 3]] <= 48).all()
    assert np.isfinite(detections.points).all()
    assert (detections.instance_ids == -1).all()


def test_owl_model_is_loaded_once_per_process(tiny_owlv2) -> None:  # type: ignore[no-untyped-def]
    first = OwlDetector("owlv2", str(tiny_owlv2), 0.1, CPU)
    count = cached_count()
    second = OwlDetector("owlv2", str(tiny_owlv2), 0.5, CPU)
    assert second.model is first.model and cached_count() == count


def test_missing_checkpoint_is_a_named_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ModelLoadError, match="owlv2 processor: cannot load"):
        OwlDetector("owlv2", str(tmp_path / "nowhere"), 0.1, CPU)


def test_tiny_random_detr_handles_only_its_coco_labels(tiny_detr, frame) -> None:  # type: ignore[no-untyped-def]
    detr = DetrDetector(str(tiny_detr), threshold=0.0, where=CPU)
    assert detr.handles("Chair") and detr.handles("dining_table") and not detr.handles("lamp")
    detections = detr.detect(frame, ["chair", "lamp"])
    assert len(detections) > 0 and set(detections.labels) == {"chair"}


def test_routing_sends_coco_labels_to_detr_and_the_rest_to_owl(tiny_owlv2, tiny_detr, frame) -> None:  # type: ignore[no-untyped-def]
    owl = OwlDetector("owlv2", str(tiny_owlv2), 0.0, CPU)
    detr = DetrDetector(str(tiny_detr), 0.0, CPU)
    pipeline = DetectionPipeline(owl, detr, nms_iou=0.5)
    assert pipeline.route(["couch", "lamp", "chair"]) == (["couch", "chair"], ["lamp"])
    detections = pipeline.detect(frame, ["couch", "lamp"])
    assert set(detections.labels) <= {"couch", "lamp"} and len(detections) > 0
    assert (np.diff(detections.scores) <= 0).all()


def test_nms_removes_overlapping_boxes_of_the_same_label_only() -> None:
    boxes = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [0, 0, 10, 10]], dtype=float)
    dets = Detections(boxes, np.array([0.9, 0.8, 0.7]), ["cup", "cup", "bowl"], np.zeros((3, 3)), -np.ones(3))
    kept = nms(dets, 0.5)
    assert sorted(kept.labels) == ["bowl", "cup"] and 0.8 not in kept.scores.round(2).tolist()


def test_tiny_random_open_clip_filter_scorer_and_rooms(tiny_clip, frame) -> None:  # type: ignore[no-untyped-def]
    clip = ClipEmbedder(ClipConfig(model=tiny_clip, pretrained=""), CPU)
    similarity = clip.similarity([frame.rgb], ["a chair", "a lamp"])
    assert similarity.shape == (1, 2) and np.all(np.abs(similarity) <= 1.0 + 1e-5)
    boxes = np.array([[0, 0, 32, 24], [30, 20, 64, 48]], dtype=float)
    dets = Detections.from_boxes(frame, boxes, np.array([0.9, 0.8]), ["chair", "chair"])
    accept_all = ClipFilter(clip, {"chair": ["stool"]}, threshold=0.0, crop_padding=0.1)
    assert accept_all.classes_for("chair") == ["chair", "stool", "other"]
    probabilities = clip.probabilities([frame.rgb], accept_all.prompts(["chair", "stool", "other"]))
    assert probabilities.sum() == pytest.approx(1.0, abs=1e-5)
    reject_all = ClipFilter(clip, {}, threshold=1.01, crop_padding=0.1)
    assert len(reject_all(frame, dets)) == 0
    kept = accept_all.keep_mask(frame, dets)
    assert kept.dtype == bool and kept.shape == (2,)


def test_missing_open_clip_weights_is_a_named_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ModelLoadError, match="open_clip: cannot load"):
        ClipEmbedder(ClipConfig(model=f"local-dir:{tmp_path}", pretrained=""), CPU)


@pytest.mark.parametrize("head", ["itc", "itm"])
def test_tiny_random_blip2_itm_scores_each_prompt(head, tiny_blip2_itm, frame) -> None:  # type: ignore[no-untyped-def]
    scores = Blip2ItmScorer(str(tiny_blip2_itm), head, CPU).score(frame, ["a chair", "a red sofa", "a bed"])
    assert scores.shape == (3,) and np.isfinite(scores).all()
    if head == "itm":
        assert ((scores >= 0) & (scores <= 1)).all()


def test_tiny_random_blip2_itc_embeddings_give_its_scores(tiny_blip2_itm, frame) -> None:  # type: ignore[no-untyped-def]
    scorer = Blip2ItmScorer(str(tiny_blip2_itm), "itc", CPU)
    queries = scorer.query_embeddings(frame).numpy()
    prompts = ["a chair", "a red sofa"]
    texts = np.stack([scorer.text_embedding(p) for p in prompts])
    assert np.allclose(np.linalg.norm(queries, axis=1), 1.0) and np.allclose(
        np.linalg.norm(texts, axis=1), 1.0
    )
    assert np.allclose((queries @ texts.T).max(axis=0), scorer.score(frame, prompts), atol=1e-5)
    assert np.array_equal(scorer.image_embedding(frame), queries[0]), "the feature map stores the first query"


def test_tiny_random_blip2_vqa_generates_an_answer_string(tiny_blip2_vqa, frame) -> None:  # type: ignore[no-untyped-def]
    answer = Blip2Answerer(str(tiny_blip2_vqa), "Question: {question} Answer:", 4, CPU).answer(
        frame, "what color is the chair?"
    )
    assert isinstance(answer, str) and len(answer) > 0


def test_vlm_answerer_sends_the_image_and_question(frame) -> None:  # type: ignore[no-untyped-def]
    from tango.llm import ChatClient

    with ChatServer() as server:
        server.queue(Reply(" red \n"))
        client = ChatClient(LLMConfig(model="vlm-test", base_url=server.base_url, max_retries=0))
        assert VlmAnswerer(client).answer(frame, "What color is the chair?") == "red"
        content = server.requests[0]["messages"][0]["content"]
    assert "What color is the chair?" in content[0]["text"]
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_tango_preset_with_tiny_models_builds_every_real_component(  # type: ignore[no-untyped-def]
    tiny_owlv2, tiny_detr, tiny_clip, tiny_blip2_itm, tiny_blip2_vqa, frame
) -> None:
    clip = [f"perception.{g}.clip.model={tiny_clip}" for g in ("filter", "description", "room")]
    clip += [f"perception.{g}.clip.pretrained=" for g in ("filter", "description", "room")]
    cfg = preset(
        "perception", "tango", "perception.device=cpu", f"perception.detector.path={tiny_owlv2}",
        f"perception.detector.detr_path={tiny_detr}", "perception.detector.threshold=0.0",
        "perception.detector.detr_threshold=0.0", "perception.filter.threshold=0.0",
        f"perception.scorer.path={tiny_blip2_itm}", f"perception.answerer.path={tiny_blip2_vqa}", *clip,
    )  # fmt: skip
    bundle = build_perception(cfg)
    detections = bundle.detector.detect(frame, ["chair", "lamp"])
    assert isinstance(detections, Detections)
    assert bundle.scorer.score(frame, ["chair", "lamp"]).shape == (2,)
    assert isinstance(bundle.answerer.answer(frame, "is there a lamp?"), str)
    assert bundle.room.classify(frame) in cfg["room"]["rooms"]
    boxes = Detections.from_boxes(frame, np.array([[0, 0, 20, 20]]), np.ones(1), ["chair"])
    matched = bundle.description.match(frame, "a red chair", lambda label: boxes)
    assert all(m.label == "a red chair" and m.key is None for m in matched)
    assert bundle.memory.recall("chair") == []
    look_alikes = bundle.detector.post_filter
    assert look_alikes is not None and look_alikes.classes_for("couch") == ["couch", "armchair", "other"]
    assert look_alikes.classes_for("armchair") == ["armchair", "couch", "sofa", "other"]
    info = bundle.describe()
    assert info["memory"] == {"kind": "frame_features", "threshold": 0.3, "features_from": "scorer:blip2_itm"}
    assert info["detector"]["path"] == str(tiny_owlv2) and info["detector"]["detr_path"] == str(tiny_detr)
    assert info["oracle_components"] == [] and info["scorer"]["kind"] == "blip2_itm"


def test_lightglue_without_kornia_says_what_to_install() -> None:
    import importlib.util

    if importlib.util.find_spec("kornia") is not None:
        pytest.skip("kornia is installed here")
    bundle = build_perception({"matcher": {"kind": "lightglue"}})
    with pytest.raises(ImportError, match="needs kornia"):
        _ = bundle.matcher


def test_describe_keeps_clip_settings_only_for_clip_components() -> None:
    from tango.perception.build import describe_config
    from tango.perception.config import perception_config

    info = describe_config(perception_config({"room": {"kind": "oracle"}, "memory": {"kind": "none"}}))
    assert (
        info["scorer"]["clip"]["model"] == "ViT-B-32" and info["description"]["clip"]["model"] == "ViT-B-32"
    )
    assert "clip" not in info["room"] and "clip" not in info["filter"] and "clip" not in info["memory"]
    assert info["oracle_components"] == ["room"]
