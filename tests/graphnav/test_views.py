"""Rendered GraphNav views: landmarks where corridors end, none on walls; the card's 127 distinct models;
condition marks; published renders read by the published toolkit's file naming."""

from __future__ import annotations

import numpy as np
import pytest

from tango.benchmarks.graphnav.conditions import CONDITIONS, annotate, get_condition
from tango.benchmarks.graphnav.landmarks import NUM_MODELS, landmark_model, model_color
from tango.benchmarks.graphnav.recognition import OracleLandmarks
from tango.benchmarks.graphnav.scene3d import landmark_id
from tango.benchmarks.graphnav.views import RenderedViews, ViewConfig
from tests.graphnav.support import example_maze


@pytest.fixture(scope="module")
def views() -> RenderedViews:
    maze, graph = example_maze()
    rendered = RenderedViews(maze, graph, ViewConfig(resolution=96))
    yield rendered
    rendered.close()


def test_front_view_down_a_corridor_shows_the_next_landmark(views: RenderedViews) -> None:
    graph = views.graph
    view = views.node_view((1, 4), 1)  # at the top-left turn facing east: left wall, corridor ahead and right
    assert view.rgb.shape == (96, 288, 3) and view.semantic is not None
    front, left, right = view.sub_view(1), view.sub_view(0), view.sub_view(2)
    assert landmark_id(graph, (4, 4)) in np.unique(front.semantic)
    assert landmark_id(graph, (1, 2)) in np.unique(right.semantic)
    assert not np.any(left.semantic > 0)  # a wall view shows no landmark
    assert landmark_id(graph, (1, 4)) not in np.unique(view.semantic)  # the own landmark hangs out of view
    assert OracleLandmarks().read_view(view) == [
        None,
        f"L{landmark_id(graph, (4, 4))}",
        f"L{landmark_id(graph, (1, 2))}",
    ]


def test_nearest_landmark_wins_along_a_long_line_of_sight(views: RenderedViews) -> None:
    view = views.node_view((1, 0), 0)  # bottom-left facing north: (1,2) first, (1,4) further on
    assert OracleLandmarks().read_view(view)[1] == f"L{landmark_id(views.graph, (1, 2))}"


def test_destination_image_shows_the_goal_landmark(views: RenderedViews) -> None:
    overview = views.destination_view((4, 2))
    assert OracleLandmarks().read_destination(overview) == f"L{landmark_id(views.graph, (4, 2))}"


def test_catalog_of_127_distinct_landmark_models() -> None:
    signatures = set()
    for index in range(NUM_MODELS):
        mesh = landmark_model(index)
        signatures.add((len(mesh.faces), tuple(np.round(mesh.extents, 2)), model_color(index)))
    assert NUM_MODELS == 127 and len(signatures) == 127
    assert len({model_color(i) for i in range(16)}) == 16
    with pytest.raises(ValueError, match="outside"):
        landmark_model(127)


def test_conditions_draw_their_marks() -> None:
    stitched = np.full((96, 288, 3), 90, np.uint8)
    assert np.array_equal(annotate(stitched, get_condition("C1")), stitched)
    marked = {name: annotate(stitched, CONDITIONS[name]) for name in ("C2", "C3", "C4")}
    for name, image in marked.items():
        for sub in range(3):
            assert np.any(image[:, sub * 96 : (sub + 1) * 96] != 90), (name, sub)
    assert not np.array_equal(marked["C3"], marked["C4"]) and not np.array_equal(marked["C2"], marked["C3"])
    assert get_condition("C2").slot_of("→") == "right" and get_condition("C4").slot_of(" 2 ") == "front"


def test_published_images_are_read_by_their_file_names(tmp_path) -> None:
    from PIL import Image

    from tango.benchmarks.graphnav.availability import MissingImages, NoRecognizer
    from tango.benchmarks.graphnav.views import DatasetImageViews, dataset_images_present

    maze, _ = example_maze()
    folder = tmp_path / "images" / "maze_nodes_LFR" / "5x5" / maze.name
    folder.mkdir(parents=True)
    picture = np.zeros((10, 30, 3), np.uint8)
    picture[:, :10] = 255
    # Facing east at (1,4) means arriving from the west: the published name says FromWest.
    Image.fromarray(picture).save(folder / f"{maze.name}_X1_Y4_FromWest_LFR.png")
    Image.fromarray(picture[:, :10]).save(folder / f"{maze.name}_X4_Y2_overview.png")
    (folder / "notes.txt").write_text("not an image")
    assert dataset_images_present(tmp_path, "LFR") and not dataset_images_present(tmp_path, "Num")
    views = DatasetImageViews(tmp_path, maze, "LFR")
    view = views.node_view((1, 4), 1)
    assert np.array_equal(view.rgb, picture) and view.semantic is None
    assert views.destination_view((4, 2)).rgb.shape == (10, 10, 3)
    with pytest.raises(MissingImages, match=r"\[4, 2\] arriving from North"):
        views.node_view((4, 2), 2)
    assert views.missing([((1, 4), 1), ((1, 4), 0)], (1, 2)) == [
        "LFR view of [1, 4] from South",
        "overview of [1, 2]",
    ]
    with pytest.raises(NoRecognizer, match="semantic sensor"):
        OracleLandmarks().read_view(view)
