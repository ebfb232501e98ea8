"""Signs read from pixels by the real Tesseract binary on views the stand-in renders, and what the program agent
does with partly misread names. scripts/setup.sh installs tesseract-ocr: a missing binary is a broken setup, so
these tests fail (with that one-line reason) rather than skip."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from tango.urban.agents.backend import choose, match_score
from tango.urban.agents.ocr import TesseractMissing, read_text, tesseract_binary
from tango.urban.city.layout import generate_district
from tango.urban.client import UrbanClient
from tango.urban.routes import heading_to
from tango.urban.server.standin import read_city


def _require_tesseract() -> None:
    assert shutil.which("tesseract"), (
        "tesseract is not installed: run scripts/setup.sh (apt-get install tesseract-ocr)"
    )


def test_shop_boards_seen_from_across_the_street_are_read(client: UrbanClient, city: Path) -> None:
    _require_tesseract()
    info = read_city(city)
    district = generate_district(int(info["seed"]), tuple(info["origin"]))
    read, tried = 0, 0
    for shop in district.shops[:12:3]:
        (x0, y0), (x1, y1) = shop.facade
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        stand = (middle[0] + shop.normal[0] * 20.0, middle[1] + shop.normal[1] * 20.0)  # the far pavement
        lat, lon = district.frame.to_geo(*stand)
        client.act({"action": "teleport", "lat": lat, "lon": lon, "height": 0.0})
        state = client.state()
        here = district.frame.to_local(state["lat"], state["lon"])
        if math.dist(here, stand) > 1.5:
            continue  # not a pavement there: the app put the avatar elsewhere
        turn = (heading_to(here, middle) - state["yaw"] + 180.0) % 360.0 - 180.0
        client.act({"action": "look", "yaw": turn, "pitch": 8.0 - state["pitch"]})
        texts = [line.text for line in read_text(client.screenshot(1280, 960, "png"))]
        tried += 1
        read += max((match_score(shop.name, text) for text in texts), default=0.0) > 0.6
    assert tried >= 3 and read >= tried - 1, (read, tried)


def test_a_blank_view_reads_no_text(client: UrbanClient) -> None:
    _require_tesseract()
    client.enter_task("SN-000001")
    client.act({"action": "look", "yaw": 0.0, "pitch": 80.0})  # the sky
    assert read_text(client.screenshot(640, 480, "png")) == []
    client.exit_task()


def test_partly_misread_names_still_choose_their_option_and_a_word_two_share_does_not() -> None:
    options = ["Coral Market", "Blue Bay Clinic", "Rainbow Bakery", "Blue Bay Bakery"]
    assert choose(options, ["Blue Bay Cini"]) == "B"
    assert choose(options[1:], ["Bakery"]) == ""  # a word two options share decides nothing
    assert choose(["In front of you", "To your right", "Behind you", "To your left"], ["right"]) == "B"
    assert choose(options, ["RAINBOW BAKERY", "Market"]) == "C"
    assert choose(options, []) == ""


def test_without_the_binary_the_reader_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(TesseractMissing, match="apt-get install tesseract-ocr") as caught:
        tesseract_binary()
    assert "\n" not in str(caught.value)
