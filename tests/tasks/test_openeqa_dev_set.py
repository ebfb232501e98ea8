"""The outside-question dev set (tests/perception/data/openeqa_dev) is a valid OpenEQA file with start poses in
the seven kinds of issue 23, and the report's content check and intervals behave as documented."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tango.formats.openeqa import load_episodes
from tango.tasks.openeqa_report import breakdown, right_by_content

DEV = Path(__file__).resolve().parents[1] / "perception" / "data" / "openeqa_dev" / "open-eqa-v0.json"


def test_dev_set_loads_with_start_poses_in_seven_kinds() -> None:
    questions = load_episodes(DEV)
    assert all(q.start is not None and q.start.scene_id.endswith(".glb") for q in questions)
    kinds = Counter(q.category for q in questions)
    assert len(kinds) == 7 and min(kinds.values()) >= 4, kinds


def test_content_check() -> None:
    assert right_by_content("kitchen", ["in the kitchen"])
    assert right_by_content("The refrigerator", ["the fridge", "the refrigerator"])
    assert right_by_content("yes, there is one", ["yes"]) and not right_by_content("no", ["yes"])
    assert right_by_content("3", ["3"]) and not right_by_content("2", ["3"])
    assert not right_by_content("", ["yes"]) and not right_by_content("the lamp", ["the plant"])
    assert right_by_content("the refrigerator", ["the fridge"]) and right_by_content("grey", ["gray"])
    assert right_by_content("sitting room", ["living room"]) and not right_by_content(
        "the oven", ["the fridge"]
    )


def test_breakdown_gives_per_category_means_with_intervals() -> None:
    records = [
        {"extra": {"category": "a", "reference": "yes", "prediction": p}, "metrics": {"normalised_match": s}}
        for p, s in [("yes", 100.0), ("no", 0.0), ("yes", 100.0), ("yes", 100.0)]
    ]
    table = breakdown(records)
    mean, low, high = table["a"]["content_right"]
    assert table["a"]["n"] == 4 and mean == 75.0 and 0.0 <= low < mean < high <= 100.0
    assert table["all"]["normalised_match"][0] == 75.0
