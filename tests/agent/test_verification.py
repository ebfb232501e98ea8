"""Rejections and re-detection matching of the verify() primitive (tango.agent.verification)."""

from __future__ import annotations

import numpy as np

from tango.agent.verification import Rejections, nearest_within
from tango.perception.detections import Detections


def _detections(labels: list[str], points: list[list[float]]) -> Detections:
    n = len(labels)
    return Detections(np.zeros((n, 4)), np.full(n, 0.8), labels, np.array(points), np.full(n, -1))


def test_a_rejected_place_hides_only_its_own_label_and_only_nearby() -> None:
    rejections = Rejections(radius=0.5)
    found = _detections(["couch", "couch"], [[1.0, 0.4, 1.0], [3.0, 0.4, 1.0]])
    assert len(rejections.drop_near(found, "couch")) == 2, "nothing rejected yet: nothing dropped"
    rejections.add("Couch", np.array([1.2, 0.0, 1.1]))  # labels compare normalised; height is ignored
    kept = rejections.drop_near(found, "couch")
    assert kept.points.tolist() == [[3.0, 0.4, 1.0]]
    assert len(rejections.drop_near(_detections(["chair"], [[1.0, 0.4, 1.0]]), "chair")) == 1


def test_a_redetection_confirms_only_within_the_radius() -> None:
    here = _detections(["bed", "bed"], [[0.0, 0.5, 2.5], [0.0, 0.5, 0.9]])
    assert nearest_within(here, np.array([0.0, 0.0, 0.0]), 1.0) == 1
    assert nearest_within(here, np.array([0.0, 0.0, -1.0]), 1.0) == -1
    assert nearest_within(Detections.empty(), np.zeros(3), 1.0) == -1
