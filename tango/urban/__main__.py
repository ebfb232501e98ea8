"""`python -m tango.urban generate|validate`: write a city folder (task set of every rung) and replay its
reference routes through the API. Validation prints one line per task and exits 1 if any fails."""

from __future__ import annotations

import argparse
import logging
import sys
from collections import Counter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tango.urban")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="write city.json, task/*.json and reference_routes.json")
    gen.add_argument("--out", required=True)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--per-kind", type=int, default=8)
    val = sub.add_parser("validate", help="replay every task's reference route within its step limit")
    val.add_argument("city_dir")
    val.add_argument("--kinds", nargs="*", default=None, help="task id prefixes to check (default: all)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    if args.command == "generate":
        from tango.urban.taskgen.build import generate_city

        print(generate_city(args.out, args.seed, args.per_kind))
        return 0
    from tango.urban.validate import validate_city

    verdicts = validate_city(args.city_dir, kinds=args.kinds)
    by_kind: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    for verdict in verdicts:
        prefix = verdict.task_id.split("-", 1)[0]
        by_kind[prefix] += 1
        passed[prefix] += verdict.ok
        print(
            f"{'ok   ' if verdict.ok else 'FAIL '} {verdict.task_id} {verdict.steps}/{verdict.limit} steps "
            f"{verdict.reason}"
        )
    print("per kind: " + ", ".join(f"{k} {passed[k]}/{n}" for k, n in sorted(by_kind.items())))
    return 0 if all(v.ok for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
