#!/usr/bin/env bash
# The compatibility test set (pytest -m compat) in a second virtual environment holding the newest numpy (2.x)
# and OpenCV (5.x) that pip can get (requirements/compat.txt), habitat-lab installed without its numpy pin.
# Called by .ci/run after the main suite; by hand: `bash scripts/test_compat.sh [pytest args]`.
# TANGO_COMPAT_VENV chooses the environment's folder (default .venv-compat, git-ignored). Idempotent: the
# environment is rebuilt only when requirements/compat.txt or the habitat-lab pin changes.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${TANGO_COMPAT_VENV:-.venv-compat}
PYTHON=${PYTHON:-python3}
habitat_pin=$(grep -E '^habitat-lab==' requirements/pins.txt)
stamp="$VENV/.tango-compat-stamp"
want=$( (cat requirements/compat.txt; echo "$habitat_pin") | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "test_compat: building $VENV (numpy 2, OpenCV 5)"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -r requirements/compat.txt
    "$VENV/bin/python" -m pip install -q --no-deps "$habitat_pin"
    echo "$want" > "$stamp"
fi
"$VENV/bin/python" -c 'import numpy, cv2, torch; print(f"test_compat: numpy {numpy.__version__}, OpenCV {cv2.__version__}, torch {torch.__version__}")'
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec "$VENV/bin/python" -m pytest -q -m compat -p no:cacheprovider tests/compat "$@"
