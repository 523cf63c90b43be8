#!/bin/sh
# json.sh - `replay --format json` is JSON Lines with the keys docs/json.md
# names, checked with Python's json module (skipped without python3).
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
cd "$(dirname "$0")/../.." || exit 1
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: json: python3 is not installed"
	exit 0
fi
("$vmsim" replay --format json traces/examples/plain-strace-sizes-fds.strace tests/bad-inputs/pid-max.trace \
	tests/real-programs/secure_buffer.strace 2>/dev/null; "$vmsim" replay --format json --kernel 4.0 traces/golden/mlock/mlock2-flags.trace 2>/dev/null)  | python3 -c '
import json, sys
need = {"note": {"file", "line", "why"}, "divergence": {"file", "line", "event", "why", "state"},
        "model-event": {"file", "line", "why"}, "invariant": {"file", "line", "event", "why"},
        "summary": {"file", "kernel", "events", "checks", "divergences", "assumed_ranges", "assumed_kb", "skipped"},
        "total": {"traces", "events", "checks", "divergences"}}
kinds, bad = {}, 0
for n, line in enumerate(sys.stdin, 1):
    o = json.loads(line)
    k = o.get("kind")
    if k not in need or not need[k] <= o.keys():
        print("FAIL: line %d: %r" % (n, o)); bad += 1
    kinds[k] = kinds.get(k, 0) + 1
ok = kinds.get("summary") == 4 and kinds.get("total") == 1 and kinds.get("note", 0) >= 1 and kinds.get("divergence", 0) >= 1
print("kinds:", kinds)
print("json: %d passed, %d failed" % (int(ok and not bad), int(not ok or bad > 0)))
sys.exit(0 if ok and not bad else 1)'
