#!/usr/bin/env bash
# ObjectNav, the template programs against the default local model (generator=local: the 1.5B under the
# ObjectNav prompt and grammar, verify() offered) on the same episodes, paired; issue 27's bar is SR within 0.05
# and no template fallback. Rerun it after a change to ObjectNav's scenes, prompt or generator.
#
# usage: bash scripts/benchmarks/llm_objectnav.sh [SPLIT (test)] [EPISODES (20)] [OUT (runs/llm_objectnav_SPLIT)]
#
# Environment as for any eval (PYTHONPATH, TANGO_CACHE, OMP_NUM_THREADS=1; PYTHON, default `python`). OUT must be
# new or empty: the runs resume what OUT holds, and the model's program cache starts empty in OUT/programs, so
# every program is the model's own, written in this run. Writes OUT/template and OUT/local (eval runs, each with
# `/usr/bin/time -v` in OUT/NAME.time), OUT/compare.txt (tango.compare) and OUT/llm_runs.json (bench.py llm runs:
# program sources, fallbacks, calls, tokens, program CPU seconds).
set -euo pipefail

split=${1:-test}
episodes=${2:-20}
out=${3:-runs/llm_objectnav_$split}
python=${PYTHON:-python}
mkdir -p "$out"
for generator in template local; do
    /usr/bin/time -v -o "$out/$generator.time" nice -n 10 "$python" -m tango.eval task=objectnav \
        task.split="$split" eval.num_episodes="$episodes" eval.num_workers=1 generator="$generator" \
        generator.cache_dir="$out/programs" eval.output_dir="$out/$generator" > "$out/$generator.log" 2>&1
done
"$python" -m tango.compare "$out/template" "$out/local" | tee "$out/compare.txt"
"$python" scripts/bench.py llm runs "$out/template" "$out/local" | tee "$out/llm_runs.json"
