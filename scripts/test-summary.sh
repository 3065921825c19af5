#!/usr/bin/env bash
# `make test`: builds and runs the whole suite with the full output in a log file, and prints a
# short summary instead: failures (with their messages), the result line and the time taken.
# `--serial` (`make test-slowest`) runs the tests one at a time and also lists the ten slowest:
# in the default parallel run each test's reported time includes the time it waited for the
# others, so it says nothing about the test itself. A compiler warning in this repository's
# code (scripts/dev/warnings.sh on the build's log) is listed and fails the run after the tests:
# CI builds from a fresh clone, so its log has every file's warnings (an incremental build's
# has only those of the files it recompiled). Exit status: the build's, the tests', or 1 for a
# warning.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
LOG=${TEST_LOG:-.build/test.log}
mode=()
[ "${1:-}" = "--serial" ] && mode=(--no-parallel)
mkdir -p "$(dirname "$LOG")"
start=$(date +%s)
echo "building (full output: $LOG) …"
if ! "$SWIFT" build --build-tests >"$LOG" 2>&1; then
    grep -E "error:" "$LOG" | head -20
    echo "build failed after $(( $(date +%s) - start )) s; see $LOG"
    exit 1
fi
built=$(date +%s)
warned=0
scripts/dev/warnings.sh "$LOG" >/dev/null || warned=1
echo "built in $(( built - start )) s; testing${mode:+ one test at a time} …"
"$SWIFT" test --skip-build "${mode[@]}" >>"$LOG" 2>&1
status=$?
# Failures with their recorded issues (Swift Testing marks them ✘), then the result line.
grep -E "^✘|recorded an issue" "$LOG" | grep -v "^✘ Test run with" | head -40
grep -E "^(✔|✘) Test run with" "$LOG" | tail -1
if [ ${#mode[@]} -gt 0 ]; then
    echo "slowest tests:"
    grep -E '^✔ Test .* passed after [0-9.]+ seconds' "$LOG" | grep -v "^✔ Test run with" \
        | sed -E 's/^✔ Test (.*) passed after ([0-9.]+) seconds.*/\2 s  \1/' | sort -rn | head -10 | sed 's/^/  /'
else
    echo "per-test times: make test-slowest (runs the tests one at a time and lists the ten slowest)"
fi
echo "tests ran in $(( $(date +%s) - built )) s ($(( $(date +%s) - start )) s with the build); full log: $LOG"
if [ $warned -ne 0 ]; then
    scripts/dev/warnings.sh "$LOG"
    [ $status -ne 0 ] || status=1
fi
exit $status
