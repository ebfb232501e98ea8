"""Inline SVG charts for report.html (no script, stylesheet or network): grouped bars of rates per group, with
their 95% intervals as whiskers, and horizontal bars of counts. Every number drawn is also written as text on
the chart (a bar's interval in its tooltip)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

COLOURS = ("#2b6cb0", "#dd8a1f", "#38a169", "#9f7aea")
WIDTH, HEIGHT = 420, 230
LEFT, BOTTOM, TOP = 36, 44, 34


@dataclass(frozen=True)
class Group:
    """One group of bars: its label, how many items it pools, one value in [0, 1] per series and, when known,
    each value's 95% interval (drawn as a whisker)."""

    label: str
    count: int
    values: tuple[float | None, ...]
    intervals: tuple[tuple[float, float] | None, ...] = ()


def _e(text: object) -> str:
    return html.escape(str(text))


def _fit(label: str, width: float) -> str:
    """The label cut to what fits in `width` pixels at the chart's font size (about 6 px a character)."""
    room = max(3, int(width / 6))
    return label if len(label) <= room else label[: room - 1] + "…"


def _svg_open(title: str, height: int) -> str:
    size = f'width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}"'
    return (
        f'<svg class="chart" role="img" aria-label="{_e(title)}" {size} xmlns="http://www.w3.org/2000/svg">'
    )


def rate_bars(title: str, series: Sequence[str], groups: Sequence[Group]) -> str:
    """Grouped vertical bars of rates (0 to 1) with the value above each bar, its interval as a whisker and
    `n=` under each group."""
    if not groups:
        return ""
    plot_w, plot_h = WIDTH - LEFT - 10, HEIGHT - BOTTOM - TOP
    slot = plot_w / len(groups)
    bar = max(4.0, min(28.0, (slot - 8) / max(1, len(series))))
    parts = [_svg_open(title, HEIGHT), f'<text x="{LEFT}" y="14" class="title">{_e(title)}</text>']
    for tick in (0.0, 0.5, 1.0):
        y = TOP + plot_h * (1 - tick)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - 10}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>')
        parts.append(f'<text x="{LEFT - 4}" y="{y + 4:.1f}" class="tick" text-anchor="end">{tick:g}</text>')
    for index, group in enumerate(groups):
        x0 = LEFT + index * slot + (slot - bar * len(series)) / 2
        for number, value in enumerate(group.values):
            if value is None:
                continue
            height = plot_h * max(0.0, min(1.0, value))
            x, y = x0 + number * bar, TOP + plot_h - height
            colour = COLOURS[number % len(COLOURS)]
            interval = group.intervals[number] if number < len(group.intervals) else None
            shown = f"{value:.3f}" + ("" if interval is None else f" [{interval[0]:.3f}, {interval[1]:.3f}]")
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar - 2:.1f}" height="{height:.1f}" fill="{colour}">'
                f"<title>{_e(group.label)} {_e(series[number])}: {shown} (n={group.count})</title></rect>"
            )
            if interval is not None:
                parts.append(_whisker(x + bar / 2 - 1, TOP, plot_h, interval))
            parts.append(
                f'<text x="{x + bar / 2 - 1:.1f}" y="{y - 3:.1f}" class="value" text-anchor="middle">'
                f"{value:.2f}</text>"
            )
        centre = LEFT + index * slot + slot / 2
        parts.append(
            f'<text x="{centre:.1f}" y="{HEIGHT - BOTTOM + 14}" class="label" text-anchor="middle">'
            f"{_e(_fit(group.label, slot))}</text>"
        )
        parts.append(
            f'<text x="{centre:.1f}" y="{HEIGHT - BOTTOM + 27}" class="tick" text-anchor="middle">'
            f"n={group.count}</text>"
        )
    for number, name in enumerate(series):
        x = LEFT + number * 90
        parts.append(
            f'<rect x="{x}" y="{HEIGHT - 12}" width="10" height="10" fill="{COLOURS[number % len(COLOURS)]}"/>'
        )
        parts.append(f'<text x="{x + 14}" y="{HEIGHT - 3}" class="tick">{_e(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _whisker(x: float, top: float, plot_h: float, interval: tuple[float, float]) -> str:
    """A vertical line from the interval's low to its high end, with caps, over a bar centred at x."""
    low, high = (top + plot_h * (1 - max(0.0, min(1.0, v))) for v in interval)
    caps = "".join(
        f'<line x1="{x - 3:.1f}" x2="{x + 3:.1f}" y1="{y:.1f}" y2="{y:.1f}"/>' for y in (low, high)
    )
    return (
        f'<g class="ci" stroke="#1a202c" stroke-width="1"><line x1="{x:.1f}" x2="{x:.1f}" y1="{low:.1f}" '
        f'y2="{high:.1f}"/>{caps}</g>'
    )


def count_bars(title: str, counts: Sequence[tuple[str, int]]) -> str:
    """Horizontal bars of counts, largest first, with each count and its share written beside its bar."""
    shown = sorted([(label, n) for label, n in counts if n > 0], key=lambda item: -item[1])
    if not shown:
        return ""
    total = sum(n for _, n in shown)
    row, label_w = 22, 130
    height = TOP + row * len(shown) + 8
    plot_w = WIDTH - label_w - 70
    parts = [_svg_open(title, height), f'<text x="4" y="14" class="title">{_e(title)}</text>']
    top = max(n for _, n in shown)
    for index, (label, n) in enumerate(shown):
        y = TOP + index * row
        width = plot_w * n / top
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 14}" class="label" text-anchor="end">{_e(label)}</text>'
        )
        parts.append(
            f'<rect x="{label_w}" y="{y + 3}" width="{width:.1f}" height="{row - 6}" fill="{COLOURS[1]}"/>'
        )
        parts.append(
            f'<text x="{label_w + width + 4:.1f}" y="{y + 14}" class="value">{n} ({100 * n / total:.0f}%)</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
