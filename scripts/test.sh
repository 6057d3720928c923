#!/usr/bin/env bash
# `make test`: every check, one stage after another (the first failure stops the run, as make
# would), then how long each stage took, so a slow stage is seen at once.
set -uo pipefail
cd "$(dirname "$0")/.."

stages=(install chromium services lint vitest build pytest pytest-sqlite pytest-browser)
names=()
times=()
status=0
summary() {
  echo
  echo "Stage times (make test):"
  local total=0
  for i in "${!names[@]}"; do
    printf '  %-15s %4d s\n' "${names[$i]}" "${times[$i]}"
    total=$((total + times[i]))
  done
  printf '  %-15s %4d s (%d min %02d s)\n' "total" "$total" $((total / 60)) $((total % 60))
}
# Stages made of independent parts run them side by side: the Python and the Node installs, and
# the four linters (each one's output kept together).
declare -A parallel=([install]="-j2 --output-sync=line" [lint]="-j4 --output-sync=target")
# The browser stage takes over the test databases the PostgreSQL stage has just made (Makefile).
declare -A variables=([pytest-browser]="BROWSER_DB=--reuse-db")
for stage in "${stages[@]}"; do
  start=$SECONDS
  # shellcheck disable=SC2086 # the flags are words
  make --no-print-directory ${parallel[$stage]:-} ${variables[$stage]:-} "$stage"
  status=$?
  names+=("$stage")
  times+=($((SECONDS - start)))
  if [ $status -ne 0 ]; then
    summary
    echo "make test: the stage '$stage' failed (exit $status)." >&2
    exit $status
  fi
done
summary
echo "All checks passed."
