"""Signs read from the pixels of a first-person view with Tesseract OCR (the `tesseract` binary from Debian's
`tesseract-ocr` package, which scripts/setup.sh installs; called as a subprocess, no Python binding).

Scene text differs from a scanned page: boards are seen at an angle, light-on-dark or dark-on-light, and small.
Two kinds of reading are made of each view: the whole frame (upscaled, in both polarities, Tesseract's
sparse-text mode) and each board-like quadrilateral in it (an edge contour with four corners, wider than tall)
warped to a fronto-parallel strip and read as one line. Words below `MIN_CONFIDENCE` or without two letters
are dropped. Nothing here knows the stand-in: the same reader runs on the real app's screenshots.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from dataclasses import dataclass

import cv2
import numpy as np

MIN_CONFIDENCE = 55.0
STRIP_HEIGHT_PX = 48
TIMEOUT_S = 20.0


class TesseractMissing(RuntimeError):
    """The `tesseract` binary is not installed (scripts/setup.sh installs Debian's tesseract-ocr)."""


@dataclass(frozen=True)
class TextLine:
    """A line of text read in a view: the text, its box (x0, y0, x1, y1) in the view's pixels, and the mean
    word confidence (0-100)."""

    text: str
    box: tuple[int, int, int, int]
    confidence: float

    def bearing_deg(self, width: int, hfov_deg: float) -> float:
        """Degrees right of the view's centre (a pinhole camera of horizontal field of view `hfov_deg`)."""
        focal = width / 2 / math.tan(math.radians(hfov_deg) / 2)
        return math.degrees(math.atan(((self.box[0] + self.box[2]) / 2 - width / 2) / focal))


def tesseract_binary() -> str:
    path = shutil.which("tesseract")
    if path is None:
        raise TesseractMissing(
            "urban.perception.signs=ocr needs the tesseract binary (apt-get install tesseract-ocr; "
            "scripts/setup.sh does it)"
        )
    return path


def _tsv(gray: np.ndarray, psm: int) -> list[dict[str, str]]:
    ok, png = cv2.imencode(".png", gray)
    if not ok:
        raise RuntimeError("PNG encoding failed")
    out = subprocess.run(
        [tesseract_binary(), "stdin", "stdout", "--psm", str(psm), "-l", "eng", "tsv"],
        input=png.tobytes(),
        capture_output=True,
        timeout=TIMEOUT_S,
        check=True,
    ).stdout.decode("utf-8", "replace")
    rows = [line.split("\t") for line in out.splitlines()]
    if not rows:
        return []
    header = rows[0]
    return [dict(zip(header, row)) for row in rows[1:] if len(row) == len(header)]


def _lines(gray: np.ndarray, psm: int, to_view: np.ndarray) -> list[TextLine]:
    """Words of one Tesseract pass grouped into lines; `to_view` maps the image's pixels to the view's."""
    groups: dict[tuple[str, str, str], list[dict[str, str]]] = {}
    for row in _tsv(gray, psm):
        text = row.get("text", "").strip()
        if row.get("level") != "5" or float(row.get("conf", "-1")) < MIN_CONFIDENCE:
            continue
        if sum(ch.isalpha() for ch in text) < 2:
            continue
        groups.setdefault((row["block_num"], row["par_num"], row["line_num"]), []).append(row)
    lines = []
    for words in groups.values():
        x0 = min(int(w["left"]) for w in words)
        y0 = min(int(w["top"]) for w in words)
        x1 = max(int(w["left"]) + int(w["width"]) for w in words)
        y1 = max(int(w["top"]) + int(w["height"]) for w in words)
        corners = cv2.perspectiveTransform(np.array([[[x0, y0]], [[x1, y1]]], np.float32), to_view).reshape(
            2, 2
        )
        box = (
            int(corners[:, 0].min()),
            int(corners[:, 1].min()),
            int(corners[:, 0].max()),
            int(corners[:, 1].max()),
        )
        confidence = sum(float(w["conf"]) for w in words) / len(words)
        lines.append(TextLine(" ".join(w["text"] for w in words), box, confidence))
    return lines


def _boards(gray: np.ndarray) -> list[np.ndarray]:
    """Corners (top-left, top-right, bottom-right, bottom-left) of board-like quadrilaterals in the view."""
    edges = cv2.dilate(cv2.Canny(gray, 40, 120), np.ones((2, 2), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    boards = []
    for contour in contours:
        if cv2.contourArea(contour) < 150:
            continue
        approx = cv2.approxPolyDP(contour, 0.04 * cv2.arcLength(contour, True), True)
        if len(approx) != 4 or not cv2.isContourConvex(approx):
            continue
        quad = approx.reshape(4, 2).astype(np.float32)
        total, diff = quad.sum(1), np.diff(quad, axis=1).ravel()
        ordered = np.array(
            [quad[np.argmin(total)], quad[np.argmin(diff)], quad[np.argmax(total)], quad[np.argmax(diff)]],
            np.float32,
        )
        width = max(np.linalg.norm(ordered[1] - ordered[0]), np.linalg.norm(ordered[2] - ordered[3]))
        height = max(np.linalg.norm(ordered[3] - ordered[0]), np.linalg.norm(ordered[2] - ordered[1]))
        if height >= 6 and width >= 2 * height:
            boards.append(ordered)
    return boards


def read_text(rgb: np.ndarray, upscale: float = 1.0) -> list[TextLine]:
    """Lines of text read in a view (RGB, HxWx3 uint8), best confidence first, one per distinct text."""
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    lines: list[TextLine] = []
    big = cv2.resize(gray, None, fx=upscale, fy=upscale, interpolation=cv2.INTER_CUBIC)
    shrink = np.array([[1 / upscale, 0, 0], [0, 1 / upscale, 0], [0, 0, 1]], np.float32)
    for image in (big, 255 - big):
        lines += _lines(image, 11, shrink)
    for quad in _boards(gray):
        width = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3]))
        height = max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1]))
        strip_w = int(width * STRIP_HEIGHT_PX / height)
        target = np.array(
            [[0, 0], [strip_w, 0], [strip_w, STRIP_HEIGHT_PX], [0, STRIP_HEIGHT_PX]], np.float32
        )
        warp = cv2.getPerspectiveTransform(quad, target)
        if abs(np.linalg.det(warp)) < 1e-9:
            continue
        warped = np.asarray(cv2.warpPerspective(gray, warp, (strip_w, STRIP_HEIGHT_PX)), np.uint8)
        if warped.mean() < 128:
            warped = np.asarray(255 - warped, np.uint8)
        strip = np.asarray(
            cv2.copyMakeBorder(warped, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=(255,)), np.uint8
        )
        to_view = np.linalg.inv(warp) @ np.array([[1, 0, -12], [0, 1, -12], [0, 0, 1]], np.float64)
        lines += _lines(strip, 7, to_view.astype(np.float32))
    best: dict[str, TextLine] = {}
    for line in sorted(lines, key=lambda item: -item.confidence):
        best.setdefault(line.text.lower(), line)
    return list(best.values())
