"""Generate ObjectNav val episodes in homes of one apartment configuration, for trying homes on val (issue 22).

    python scripts/objectnav_homes_trial.py OUT [--homes 12] [--seed 0] [--apartment '{"min_rooms": 10, "max_rooms": 16,
        "room_area": 14.0, "clutter": {"min_clutter": 3, "max_clutter": 6, "free_standing": 0.5}}']

The apartment is `ROOM_CHAIN_HOMES` (the `objectnav-homes` preset's) with the JSON's fields replaced (`clutter`
replaces the whole ClutterConfig). Only ObjectNav's own val homes are written (no shared scenes, no test split),
with the default dataset's episode settings (HM3D start distances). Run a ladder on them with
`LADDER_ARGS="task.data_path=OUT/objectnav/val/val.json.gz task.scenes_dir=OUT/scenes" bash scripts/ladder.sh
objectnav val RUNS random value oracle`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from tango.scenes.apartment import ApartmentConfig
from tango.scenes.clutter import ClutterConfig
from tango.scenes.datasets.default import DEFAULT_CONFIG, ROOM_CHAIN_HOMES
from tango.scenes.datasets.generate import generate_dataset


def trial_homes(overrides: dict[str, Any]) -> ApartmentConfig:
    """ROOM_CHAIN_HOMES with `overrides` applied; a `clutter` mapping becomes the ClutterConfig."""
    fields = dict(overrides)
    clutter = fields.pop("clutter", None)
    homes = dataclasses.replace(ROOM_CHAIN_HOMES, **fields)
    if clutter is not None:
        homes = dataclasses.replace(homes, clutter=ClutterConfig(**clutter))
    return homes


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="output folder (replaced when it exists)")
    parser.add_argument("--homes", type=int, default=12, help="val homes (6 episodes each)")
    parser.add_argument("--apartment", default="{}", help="JSON fields replacing ROOM_CHAIN_HOMES's")
    parser.add_argument("--seed", type=int, default=DEFAULT_CONFIG.seed, help="another seed: other homes")
    args = parser.parse_args(argv)
    try:
        homes = trial_homes(json.loads(args.apartment))
    except (json.JSONDecodeError, TypeError, ValueError) as error:
        print(f"objectnav_homes_trial: --apartment: {error}", file=sys.stderr)
        return 2
    config = dataclasses.replace(
        DEFAULT_CONFIG,
        num_scenes=0,
        test_scenes=0,
        seed=args.seed,
        objectnav=dataclasses.replace(
            DEFAULT_CONFIG.objectnav, homes=homes, val_homes=args.homes, test_homes=0
        ),
    )
    stamp = generate_dataset(args.out, config, overwrite=True)
    print(f"{args.out}: {stamp['counts']['val']['objectnav']} episodes in {args.homes} homes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
