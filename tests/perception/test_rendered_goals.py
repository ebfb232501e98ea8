"""Image-goal matching and description scoring on generated apartments rendered by the embedded simulator."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tango.formats import goat, openeqa
from tango.perception.config import MatcherConfig
from tango.perception.image_goal import SiftMatcher, best_goal, calibrate_threshold
from tango.perception.models import placement
from tango.perception.oracle.answerer import OracleAnswerer
from tango.perception.oracle.description import OracleDescriptionScorer
from tango.perception.oracle.observed import ObservedObjects
from tango.perception.oracle.scene import OracleScene
from tango.perception.oracle.visible import visible_objects
from tango.perception.text_similarity import TextEmbedder
from tango.scenes.datasets.generate import DatasetConfig, generate_dataset
from tango.tasks.openeqa_scoring import normalise_answer
from tests.perception import rendered

CAMERA_HEIGHT_M = 0.88


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("perception_scenes") / "ds"
    generate_dataset(root, DatasetConfig(num_scenes=2, seed=7))
    return root


def default_matcher() -> SiftMatcher:
    cfg = MatcherConfig()
    return SiftMatcher(cfg.ratio, cfg.min_inliers, cfg.max_features, cfg.ransac_reprojection_px,
                       cfg.contrast_threshold, cfg.edge_threshold)  # fmt: skip


def test_image_goal_matcher_picks_the_right_goal_among_10_rendered_objects(dataset: Path) -> None:
    matcher = default_matcher()
    positives: list[int] = []
    negatives: list[int] = []
    for scene_file, goals in rendered.goat_goals_by_scene(dataset).items():
        group = rendered.distinct_goals(goals, count=10, min_separation_m=1.0)
        assert len(group) == 10, f"{scene_file}: fewer than 10 image goals at distinct places"
        cases = rendered.image_goal_cases(rendered.load_dataset_scene(dataset, scene_file), group)
        goal_images = [case.goal_rgb for case in cases]
        correct = 0
        for index, case in enumerate(cases):
            picked, _ = best_goal(matcher, goal_images, case.view_rgb)
            correct += picked == index
            for other, goal_image in enumerate(goal_images):
                (positives if other == index else negatives).append(
                    matcher.match(goal_image, case.view_rgb).inliers
                )
        assert correct >= 9, f"{scene_file}: right goal picked for {correct}/10 views"
    threshold = calibrate_threshold(positives, negatives)
    assert abs(threshold - MatcherConfig().min_inliers) <= 2, f"calibrated threshold {threshold}"
    false_matches = sum(n >= MatcherConfig().min_inliers for n in negatives)
    assert false_matches <= 0.02 * len(negatives)


def test_oracle_description_scorer_picks_the_described_instance(dataset: Path) -> None:
    text = TextEmbedder("", placement("cpu"))
    instances: dict[tuple[str, int | str], goat.GoatGoal] = {}
    subtasks: dict[tuple[str, int | str], goat.GoatSubtask] = {}
    for episode in goat.load_episodes(dataset / "goat" / "val"):
        for task in episode.tasks:
            instances.update({(episode.scene_id, g.object_id): g for g in task.goals})
            if task.goal_type == "description":
                subtasks[(episode.scene_id, task.object_id)] = task
    correct = total = 0
    for (scene_file, object_id), task in sorted(subtasks.items(), key=str):
        scene = rendered.load_dataset_scene(dataset, scene_file)
        oracle = OracleScene.from_annotations(scene.annotations)  # type: ignore[arg-type]
        same_category = [o.id for o in oracle.objects.values() if o.category == task.category]
        seen_from = [instances[(scene_file, i)] for i in same_category if (scene_file, i) in instances]
        memory = ObservedObjects()
        for obs in rendered.view_point_observations(scene, seen_from, CAMERA_HEIGHT_M, per_goal=2):
            memory.record(visible_objects(obs, oracle, min_pixels=50))
        candidates = [i for i in same_category if i in memory]
        if len(candidates) < 2 or object_id not in memory:
            continue
        assert task.lang_desc is not None
        scores = OracleDescriptionScorer(oracle, memory, text).score_instances(
            task.lang_desc, task.category, candidates
        )
        correct += candidates[int(np.argmax(scores))] == object_id
        total += 1
    assert total >= 8, f"only {total} description goals with observed same-category distractors"
    assert correct >= 0.8 * total, f"described instance picked in {correct}/{total}"


RULE_CATEGORIES = frozenset({"attribute recognition", "object localization"})
"""The generated categories the answerer's rules cover (an attribute, a room); the others go to its model."""


def test_oracle_answerer_scores_alike_on_training_and_held_out_wording(dataset: Path) -> None:
    """The answerer reads questions by intent and observed facts, not by the generator's templates: after the
    same observations it scores alike on both wordings of the questions its rules cover (right by content:
    the answer's words are the reference's), sends no other question to a rule, and knows nothing before it has observed
    anything."""
    text = TextEmbedder("", placement("cpu"))
    instances: dict[str, list[goat.GoatGoal]] = {}
    for episode in goat.load_episodes(dataset / "goat" / "val"):
        for task in episode.tasks:
            instances.setdefault(Path(episode.scene_id).stem, []).extend(task.goals)
    scores: dict[str, list[float]] = {"train": [], "heldout": []}
    files = {"train": "open-eqa-train.json", "heldout": "open-eqa-v0.json"}
    for pool, name in files.items():
        all_questions = openeqa.load_episodes(dataset / "openeqa" / "val" / name)
        for scene_id in sorted({q.scene for q in all_questions}):
            questions = [q for q in all_questions if q.scene == scene_id]
            scene = rendered.load_dataset_scene(dataset, f"{scene_id}.glb")
            oracle = OracleScene.from_annotations(scene.annotations)  # type: ignore[arg-type]
            blind = OracleAnswerer(oracle, min_pixels=50, text=text)
            empty_view = rendered.view_point_observations(scene, instances[scene_id][:1], CAMERA_HEIGHT_M, 1)[
                0
            ]
            empty_view.semantic = np.zeros_like(empty_view.semantic)
            assert {blind.answer(empty_view, q.question) for q in questions} <= {"unknown", "no", "0"}
            answerer = OracleAnswerer(oracle, min_pixels=50, text=text)
            for obs in rendered.view_point_observations(
                scene, instances[scene_id], CAMERA_HEIGHT_M, per_goal=2
            ):
                answerer.observe(obs)
            for q in questions:
                prediction = answerer.answer(empty_view, q.question)
                if q.category in RULE_CATEGORIES:
                    said = set(normalise_answer(prediction).split())
                    meant = {
                        w for a in [q.answer, *(q.extra_answers or ())] for w in normalise_answer(a).split()
                    }
                    scores[pool].append(float(bool(said) and said <= meant))
                else:  # no rule covers it and no model is configured
                    assert prediction == "unknown", (q.question, prediction)
    train, heldout = (float(np.mean(scores[pool])) for pool in files)
    assert len(scores["heldout"]) >= 4 and len(scores["train"]) == len(scores["heldout"])
    assert heldout >= 0.75 and train >= 0.75, (train, heldout)  # right by content (words of the reference)
    assert train == heldout, (train, heldout)
