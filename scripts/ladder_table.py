"""The ladder table of BENCHMARKS.md from the runs `scripts/ladder.sh` writes: per rung, its episodes, SR and SPL
with 95% bootstrap intervals, and SR paired with the random-frontier rung on the episodes both ran (difference,
its paired interval, exact McNemar p). Unfinished runs count the episodes they have (the table says how many).

    python scripts/ladder_table.py OUT_DIR TASK SPLIT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tango.stats import bootstrap_ci, mcnemar_exact, paired_bootstrap_ci

RUNGS = ("blind", "random", "nearest", "value", "memory", "oracle")


def _episodes(run: Path) -> dict[str, dict[str, float]]:
    path = run / "episodes.jsonl"
    if not path.is_file():
        return {}
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {str(r["episode_id"]): r["metrics"] for r in records}


def _interval(values: list[float]) -> str:
    ci = bootstrap_ci(values)
    mean = sum(values) / len(values)
    return f"{mean:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "—"


def main(argv: list[str]) -> int:
    out, task, split = Path(argv[0]), argv[1], argv[2]
    runs = {rung: _episodes(out / f"{task}-{split}-{rung}") for rung in RUNGS}
    base = runs["random"]
    print(
        "| rung | episodes | SR [95% CI] | SPL [95% CI] | SR - random SR on shared episodes [95% CI], McNemar p |"
    )
    print("|---|---|---|---|---|")
    for rung, episodes in runs.items():
        if not episodes:
            continue
        success = [m["success"] for m in episodes.values()]
        spl = [m["spl"] for m in episodes.values()]
        paired = ""
        shared = sorted(set(episodes) & set(base))
        if rung != "random" and shared:
            a = [base[e]["success"] for e in shared]
            b = [episodes[e]["success"] for e in shared]
            ci = paired_bootstrap_ci(a, b)
            only_a = sum(1 for x, y in zip(a, b) if x > y)
            only_b = sum(1 for x, y in zip(a, b) if y > x)
            diff = (sum(b) - sum(a)) / len(shared)
            assert ci is not None
            paired = f"{diff:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}], p = {mcnemar_exact(only_a, only_b):.3g} ({len(shared)} shared)"
        print(f"| {rung} | {len(episodes)} | {_interval(success)} | {_interval(spl)} | {paired} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
