#!/usr/bin/env bash
# Score jitlint on ../shared/realworld and on every thread split, one output file per set, and
# print each set's summary line (the "yardstick" of docs/validation.md).
#
#   OUT=/tmp/yard benchmarks/score_all_splits.sh            # this checkout's jitlint
#   SRC=/tmp/wt OUT=/tmp/yard_base benchmarks/score_all_splits.sh
#       # the jitlint of another checkout (a `git worktree add /tmp/wt <commit>`), scored on this
#       # checkout's splits: run from there, so `python -m jitlint` imports that one
#
# PYTHON (default: python) needs jitlint's dependencies. The held-out splits are for one
# measurement each: score a new one alone (benchmarks/score_threads.py) before tuning on it.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="${SRC:-$HERE}"
OUT="${OUT:-/tmp/yard}"
PY="${PYTHON:-python}"
mkdir -p "$OUT"
cd "$ROOT"
export PYTHONPATH="$ROOT"
"$PY" "$HERE/../shared/realworld/score.py" > "$OUT/realworld.txt" 2>&1
splits=$(cd "$HERE/validation/threads" && ls -d tuned heldout* | sort -V)
for split in $splits; do
  "$PY" "$HERE/benchmarks/score_threads.py" "$HERE/validation/threads/$split" > "$OUT/$split.txt" 2>&1
done
for name in realworld $splits; do
  printf '%-10s %s\n' "$name" "$(grep -E 'precision .* recall' "$OUT/$name.txt" | tail -1)"
done
