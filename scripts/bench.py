"""Performance benchmarks: `python scripts/bench.py NAME [ARGS...]` runs scripts/benchmarks/NAME.py.

Each benchmark prints one JSON line with its measurements; BENCHMARKS.md records them with the command.
Every benchmark runs with the thread counts of an evaluation worker (tango.threads: one compute thread, no
llvmpipe rasteriser threads); `PYTHONPATH=OLD python scripts/bench.py ...` times the code of another checkout.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

try:
    from tango.threads import pin_threads
except ImportError:  # timing an older checkout (PYTHONPATH=OLD), from before tango.threads: its own defaults
    pin_threads = None  # type: ignore[assignment]

BENCH_DIR = Path(__file__).resolve().parent / "benchmarks"


def main(argv: list[str]) -> int:
    names = sorted(path.stem for path in BENCH_DIR.glob("*.py") if not path.stem.startswith("_"))
    if not argv or argv[0] not in names:
        sys.stderr.write(f"usage: python scripts/bench.py {{{','.join(names)}}} [args...]\n")
        return 2
    if pin_threads is not None:
        pin_threads()
    spec = importlib.util.spec_from_file_location(f"bench_{argv[0]}", BENCH_DIR / f"{argv[0]}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return int(module.main(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
