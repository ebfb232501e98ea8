"""Times of a schedule task read from its natural-language description, without a model.

UrbanGround's schedule files give the stops' places but no machine-readable times: "At 10 a.m., you've got a
court hearing ... at 12 noon ... at 2:30 p.m.", "by 10:00", "four o'clock in the afternoon", "It is now 9:00
AM", "finish within 2 hours", "30 minutes later". Their harness has an LLM parse each description; tango reads
the same expressions with rules, so the deadlines are the same on every run and need no model:

- clock times: "H[:MM] a.m./p.m.", "HH:MM" (24-hour), "noon"/"12 noon"/"midday", "midnight", "H o'clock"
  (with "in the morning/afternoon/evening" deciding a.m./p.m.);
- the current time: "it is now T", "it's currently T", "it is T now";
- relative times: "in N minutes/hours" (from now), "N minutes/hours later" (from the previous time);
- a total deadline: "within N minutes/hours" (from now).

Per-stop deadlines are the times in text order when there are as many as stops; otherwise a time is given to
the stop whose place label its sentence names; stops left without one are untimed (None).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_WORDS = {
    w: i
    for i, w in enumerate(
        ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"], 1
    )
}
_NUM = r"(\d{1,2}|" + "|".join(_WORDS) + r")"
_AMPM = r"(a\.?\s?m\.?|p\.?\s?m\.?)(?![a-z])"
_PART = r"(?:\s+in\s+the\s+(morning|afternoon|evening)|\s+at\s+night|\s+tonight)?"
_CLOCK = re.compile(
    r"(?P<noon>\b(?:12\s+)?(?:noon|midday)\b)|(?P<midnight>\bmidnight\b)"
    rf"|\b(?P<h12>\d{{1,2}})(?::(?P<m12>\d{{2}}))?\s*(?P<ampm>{_AMPM})"
    rf"|\b(?P<hoc>{_NUM})\s+o'?\s?clock(?P<part1>{_PART})"
    rf"|\b(?P<h24>\d{{1,2}}):(?P<m24>\d{{2}})\b(?P<part2>{_PART})",
    re.IGNORECASE,
)
_DURATION = r"(\d+(?:\.\d+)?|an?|half an?|" + "|".join(_WORDS) + r")\s+(hours?|minutes?|mins?)"
_WITHIN = re.compile(rf"\bwithin\s+(?:the\s+next\s+)?{_DURATION}", re.IGNORECASE)
_IN = re.compile(rf"\bin\s+{_DURATION}(?!\s+later)", re.IGNORECASE)
_LATER = re.compile(rf"\b{_DURATION}\s+later\b", re.IGNORECASE)
_NOW_BEFORE = re.compile(r"\b(?:it\s+is|it's)\s+(?:now|currently)\s+", re.IGNORECASE)
_NOW_AFTER = re.compile(r"^\s*now\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9])")


@dataclass(frozen=True)
class ParsedSchedule:
    """The schedule's times in seconds after midnight: the stated now, one deadline (or None) per stop, and
    an overall deadline."""

    now_s: float | None
    deadlines_s: list[float | None]
    total_deadline_s: float | None

    @property
    def deadlines(self) -> list[str | None]:
        return [None if d is None else clock_text(d) for d in self.deadlines_s]


def clock_text(seconds: float) -> str:
    minutes = round(seconds / 60.0) % (24 * 60)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _number(text: str) -> float:
    text = text.lower()
    if text in ("a", "an"):
        return 1.0
    if text.startswith("half"):
        return 0.5
    return float(_WORDS.get(text, text))


def _seconds(amount: str, unit: str) -> float:
    return _number(amount) * (3600.0 if unit.lower().startswith("h") else 60.0)


def _clock(match: re.Match[str]) -> float | None:
    """The clock time of one match, seconds after midnight (None for an impossible time like 25:00)."""
    g = match.groupdict()
    if g["noon"]:
        return 12 * 3600.0
    if g["midnight"]:
        return 0.0
    if g["h12"]:
        hour, minute = int(g["h12"]), int(g["m12"] or 0)
        pm = g["ampm"].lower().startswith("p")
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if pm else 0)
    elif g["hoc"]:
        hour, minute = int(_number(g["hoc"])), 0
        part = (g["part1"] or "").lower()
        if hour < 12 and ("afternoon" in part or "evening" in part or "night" in part):
            hour += 12
    else:
        hour, minute = int(g["h24"]), int(g["m24"])
        part = (g["part2"] or "").lower()
        if hour < 12 and ("afternoon" in part or "evening" in part or "night" in part):
            hour += 12
    if hour > 23 or minute > 59:
        return None
    return hour * 3600.0 + minute * 60.0


def parse_schedule(description: str, labels: Sequence[str]) -> ParsedSchedule:
    """Deadlines for the stops (visiting order, `labels` their place names) read from the description."""
    now: float | None = None
    events: list[tuple[int, float, str]] = []  # (position in text, seconds, sentence)
    spans = _sentence_spans(description)

    def sentence_at(position: int) -> str:
        return next((description[a:b] for a, b in spans if a <= position <= b), "")

    for match in _CLOCK.finditer(description):
        value = _clock(match)
        if value is None:
            continue
        before = description[max(0, match.start() - 24) : match.start()]
        if _NOW_BEFORE.search(before) or _NOW_AFTER.match(description[match.end() :]):
            now = value if now is None else now
            continue
        events.append((match.start(), value, sentence_at(match.start())))
    for match in _IN.finditer(description):
        if now is not None:
            events.append((match.start(), now + _seconds(*match.groups()), sentence_at(match.start())))
    for match in _LATER.finditer(description):
        earlier = [e for e in events if e[0] < match.start()]
        if earlier:
            previous = max(earlier)[1]
            events.append((match.start(), previous + _seconds(*match.groups()), sentence_at(match.start())))
    events.sort()
    total = None
    within = _WITHIN.search(description)
    if within and now is not None:
        total = now + _seconds(*within.groups())
    return ParsedSchedule(now, _assign(events, labels, description), total)


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of the text."""
    spans, start = [], 0
    for boundary in _SENTENCE.finditer(text):
        spans.append((start, boundary.start()))
        start = boundary.end()
    spans.append((start, len(text)))
    return spans


def _assign(events: list[tuple[int, float, str]], labels: Sequence[str], text: str) -> list[float | None]:
    """Times to stops: in text order when there are as many as stops, else each time to the stop whose label
    its sentence names nearest to it."""
    if len(events) == len(labels):
        return [value for _, value, _ in events]
    deadlines: list[float | None] = [None] * len(labels)
    lowered = text.lower()
    for position, value, sentence in events:
        start = lowered.find(sentence.lower())
        named = [
            (abs(at - position), index)
            for index, label in enumerate(labels)
            if label and (at := lowered.find(label.lower(), start, start + len(sentence))) >= 0
        ]
        if named:
            index = min(named)[1]
            deadlines[index] = value if deadlines[index] is None else deadlines[index]
    return deadlines
