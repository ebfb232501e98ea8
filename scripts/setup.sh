#!/usr/bin/env bash
# One-step setup: Debian GL packages (when root), a virtual environment in .venv, and tango
# installed into it with the pinned, tested versions. Idempotent: a second run with the same
# pyproject.toml and pins returns in a second.
# `--llm` also installs the optional local-LLM extra (llama.cpp binding) and fetches the default GGUF model.
set -euo pipefail
cd "$(dirname "$0")/.."
WITH_LLM=0
for arg in "$@"; do
    case "$arg" in
        --llm) WITH_LLM=1 ;;
        *) echo "setup: unknown option $arg (known: --llm)" >&2; exit 2 ;;
    esac
done

DEBIAN_PACKAGES=(libegl1 libegl-mesa0 libgl1-mesa-dri libgles2)
DEBIAN_PACKAGES+=(tesseract-ocr)  # the urban program agent's sign reader (urban.perception.signs=ocr)
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    for pkg in "${DEBIAN_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
fi
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing Debian packages: ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "setup: headless rendering needs these Debian packages: ${missing[*]}" >&2
        echo "setup: run as root:  apt-get install -y ${missing[*]}" >&2
    fi
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv with $($PYTHON --version)"
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.tango-setup-stamp
want=$(cat pyproject.toml requirements/pins.txt | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "setup: installing tango and its pinned dependencies into .venv (first run: a few minutes)"
    .venv/bin/python -m pip install -q --upgrade pip wheel setuptools
    # torch pins go in the same command as everything else, or the resolver picks other builds.
    .venv/bin/python -m pip install -q -c requirements/pins.txt \
        torch torchvision habitat-lab numpy opencv-python-headless -e ".[dev]"
    echo "$want" > "$stamp"
fi
if [ "$WITH_LLM" = 1 ]; then
    if ! .venv/bin/python -c "import cyllama" 2>/dev/null; then
        echo "setup: installing the local-LLM extra (tango[llm])"
        .venv/bin/python -m pip install -q -c requirements/pins.txt -e ".[dev,llm]"
    fi
    .venv/bin/python -m tango.llm fetch
fi
