#!/usr/bin/env bash
# Checks the benchmarks against their committed p90 thresholds (Benchmarks/Thresholds/).
#
# The machine is shared and noisy: a slow spell can double the p90 of a short benchmark. A
# regression therefore has to reproduce: every benchmark that comes out worse than its threshold
# is run once more on its own, and the check fails only when the second run is worse too. An
# improvement alone passes (refresh the thresholds to keep it).
#
# Usage (from the repository root): scripts/dev/bench_check.sh [log [arguments of the first check]]
# (for instance `--target PinsBenchmarks` to check one target).
set -uo pipefail
log=${1:-.build/bench-check.log}
shift || true
swift_cmd=${SWIFT:-swift}
mkdir -p "$(dirname "$log")"
log=$(cd "$(dirname "$log")" && pwd)/$(basename "$log")

# Runs `thresholds check` with the given extra arguments, appends its output to the log, and
# prints the status: 0 pass, 2 regression, 4 improvement only, anything else an error.
check() {
    (cd Benchmarks && "$swift_cmd" package --disable-sandbox benchmark thresholds check --no-progress "$@") \
        > "$log.part" 2>&1
    local status=$?
    cat "$log.part" >> "$log"
    cat "$log.part" >&2
    if [ $status -ne 0 ] && grep -q 'benchmarkThresholdImprovement' "$log.part" \
        && ! grep -q 'benchmarkThresholdRegression' "$log.part"; then
        echo "bench-check: improvements only (pass); refresh the thresholds to keep them" >&2
        status=0
    fi
    echo $status
}

# The "target:name" of each benchmark the last run found worse than its threshold.
regressed() {
    sed -n 's/^Deviations worse than threshold for \(.*\)$/\1/p' "$log.part" | sort -u
}

: > "$log"
status=$(check "$@")
[ "$status" -eq 0 ] && exit 0
if ! grep -q 'benchmarkThresholdRegression' "$log.part"; then exit "$status"; fi
mapfile -t worse < <(regressed)
[ ${#worse[@]} -gt 0 ] || exit "$status"

failed=0
for entry in "${worse[@]}"; do
    target=${entry%%:*}
    name=${entry#*:}
    pattern="^$(printf '%s' "$name" | sed 's/[][\.^$*+?(){}|/]/\\&/g')\$"
    echo "bench-check: $entry is worse than its threshold; running it once more on its own" >&2
    again=$(check --target "$target" --filter "$pattern")
    if [ "$again" -ne 0 ]; then
        echo "bench-check: $entry is worse again: a regression" >&2
        failed=1
    else
        echo "bench-check: $entry is within its threshold the second time: noise" >&2
    fi
done
rm -f "$log.part"
exit $failed
