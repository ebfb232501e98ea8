#!/usr/bin/env bash
# The exploration ladder (issue 22): the same split run by blind / random-frontier / nearest-frontier / value-map /
# value-map + memory / oracle agents, then each rung compared with the random-frontier one on the shared episodes.
#
#   bash scripts/ladder.sh TASK SPLIT OUT_DIR [RUNG...]     e.g. bash scripts/ladder.sh objectnav test runs/ladder
#
# Rungs (default perception is the Habitat tasks' default, perception=simulated):
#   blind    perception=blind (no detections, no scores, no memory): the floor
#   random   random frontier, no value map, no memory
#   nearest  nearest frontier, no value map, no memory
#   value    value-map frontiers, no memory
#   memory   value-map frontiers + the perception preset's memory (the default agent)
#   oracle   perception=oracle: the upper bound
# Extra hydra overrides for every rung: LADDER_ARGS="eval.num_workers=2". Reruns resume (tango.eval's contract).
set -euo pipefail
task=${1:?usage: ladder.sh TASK SPLIT OUT_DIR [RUNG...]}
split=${2:?split}
out=${3:?out dir}
shift 3
rungs=("$@")
[ ${#rungs[@]} -eq 0 ] && rungs=(blind random nearest value memory oracle)
python=${PYTHON:-python}

overrides() {
  case "$1" in
    blind) echo "perception=blind" ;;
    random) echo "agent.explore.frontier_policy=random perception.memory.kind=none" ;;
    nearest) echo "agent.explore.frontier_policy=nearest perception.memory.kind=none" ;;
    value) echo "agent.explore.frontier_policy=value perception.memory.kind=none" ;;
    memory) echo "agent.explore.frontier_policy=value" ;;
    oracle) echo "perception=oracle" ;;
    *) echo "unknown rung $1 (blind random nearest value memory oracle)" >&2; return 2 ;;
  esac
}

for rung in "${rungs[@]}"; do
  args=$(overrides "$rung")
  # shellcheck disable=SC2086  # word splitting of the override lists is intended
  "$python" -m tango.eval "task=$task" "task.split=$split" $args ${LADDER_ARGS:-} "eval.output_dir=$out/$task-$split-$rung"
done
for rung in "${rungs[@]}"; do
  if [ "$rung" != random ] && [ -f "$out/$task-$split-random/summary.json" ]; then
    "$python" -m tango.compare "$out/$task-$split-random" "$out/$task-$split-$rung"
  fi
done
