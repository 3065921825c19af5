#!/usr/bin/env bash
# `make test`: builds and runs the whole suite with the full output in a log file, and prints
# a short summary instead: failures (with their messages), the result line, the ten slowest
# tests and where the log is. Exit status is the build's or the test run's.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
LOG=${TEST_LOG:-.build/test.log}
mkdir -p "$(dirname "$LOG")"
start=$(date +%s)
echo "building (full output: $LOG) …"
if ! "$SWIFT" build --build-tests >"$LOG" 2>&1; then
    grep -E "error:" "$LOG" | head -20
    echo "build failed after $(( $(date +%s) - start )) s; see $LOG"
    exit 1
fi
built=$(date +%s)
echo "built in $(( built - start )) s; testing …"
"$SWIFT" test --skip-build >>"$LOG" 2>&1
status=$?
# Failures with their recorded issues (Swift Testing marks them ✘), then the result line.
grep -E "^✘|recorded an issue" "$LOG" | head -40
grep -E "^(✔|✘) Test run with" "$LOG" | tail -1
echo "slowest tests:"
grep -E '^✔ Test .* passed after [0-9.]+ seconds' "$LOG" \
    | sed -E 's/^✔ Test (.*) passed after ([0-9.]+) seconds.*/\2 s  \1/' | sort -rn | head -10 | sed 's/^/  /'
echo "tests ran in $(( $(date +%s) - built )) s ($(( $(date +%s) - start )) s with the build); full log: $LOG"
exit $status
