"""Command line of tango.scenes: `generate` a synthetic dataset, `default`: prepare the cached default dataset,
`preview` a scene as PNGs, `stats` of a split, `ks`: how far a split's start distances are from HM3D's."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
from pathlib import Path

from tango.scenes.datasets.default import DEFAULT_NAME, PRESETS, ensure_default_dataset
from tango.scenes.datasets.generate import DatasetGenerationError, generate_dataset


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tango.scenes", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser(
        "generate", help="write scenes and ObjectNav/OVON/GOAT/OpenEQA files (the default dataset's settings)"
    )
    gen.add_argument("--out", type=Path, required=True, help="output folder (created atomically)")
    gen.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        default=DEFAULT_NAME,
        help=(
            f"the dataset configuration (default {DEFAULT_NAME}; synthetic-v2: the previous default's apartments;"
            " objectnav-homes: the default with ObjectNav in homes of its own, a trial of issue 22)"
        ),
    )
    gen.add_argument(
        "--scenes", type=int, default=None, help="apartments of the val split (default: the preset's)"
    )
    gen.add_argument(
        "--test-scenes", type=int, default=0, help="apartments of the test split (the default dataset has 10)"
    )
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes that build the scenes (default: one per usable core; the files do not depend on it)",
    )
    gen.add_argument("--overwrite", action="store_true", help="replace an existing dataset folder")
    commands.add_parser(
        "default",
        help="generate the default dataset into the cache ($TANGO_CACHE) unless it is current there",
    )
    preview = commands.add_parser("preview", help="top-down map and first-person views of a scene")
    preview.add_argument("scene", type=Path, help="the scene's .glb (annotations beside it)")
    preview.add_argument("--out", type=Path, required=True)
    stats = commands.add_parser(
        "stats", help="view points per goal, spacing, start distances, episodes per scene"
    )
    stats.add_argument("task", choices=("objectnav", "ovon", "goat"))
    stats.add_argument("split", type=Path, help="the split file or folder (ours or the published one)")
    ks = commands.add_parser("ks", help="Kolmogorov-Smirnov distance of start distances to a reference")
    ks.add_argument("split", type=Path, help="an ObjectNav / OVON / GOAT split file or folder")
    ks.add_argument("--reference", default="hm3d_objectnav_val_mini")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; returns the exit status."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.command == "generate":
        preset = PRESETS[args.preset]
        scenes = preset.num_scenes if args.scenes is None else args.scenes
        if scenes < 1:
            print("--scenes must be at least 1", file=sys.stderr)
            return 2
        if args.workers is not None and args.workers < 1:
            print("--workers must be at least 1", file=sys.stderr)
            return 2
        try:
            config = dataclasses.replace(
                preset, num_scenes=scenes, test_scenes=args.test_scenes, seed=args.seed
            )
            stamp = generate_dataset(args.out, config, overwrite=args.overwrite, workers=args.workers)
        except DatasetGenerationError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(f"wrote {args.out}: {stamp['counts']} in {stamp['generation_seconds']} s")
        return 0
    if args.command == "default":
        print(ensure_default_dataset())
        return 0
    if args.command == "ks":
        from tango.scenes.datasets.distances import start_distance_report

        print(json.dumps(start_distance_report(args.split, args.reference)))
        return 0
    if args.command == "stats":
        from tango.scenes.datasets.stats import split_statistics

        print(json.dumps(split_statistics(args.task, args.split)))
        return 0
    from tango.scenes.preview import write_preview

    for path in write_preview(args.scene, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
