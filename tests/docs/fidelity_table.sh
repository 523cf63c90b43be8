#!/bin/sh
# fidelity_table.sh - docs/fidelity.md's table of traces recorded on each
# semantics' own kernel is the one tools/fidelity-table.sh makes: every
# count current, and every trace of it clean by its header alone.
. "$(dirname "$0")/../lib/suite.sh"
if [ ! -d ../shared/live-kernels ] || [ ! -d ../shared/golden ]; then
	echo "SKIP: ../shared/golden or ../shared/live-kernels not found (a clone without ../shared)"
	ok
	finish fidelity_table
fi
VMSIM=./vmsim sh tools/fidelity-table.sh > "$tmp/now" || { bad "tools/fidelity-table.sh failed"; finish fidelity_table; }
awk '/<!-- fidelity-table begin -->/{on=1; next} /<!-- fidelity-table end -->/{on=0} on' docs/fidelity.md > "$tmp/doc"
if cmp -s "$tmp/now" "$tmp/doc"; then ok; else
	bad "docs/fidelity.md's table is stale (sh tools/fidelity-table.sh --write):"
	diff "$tmp/doc" "$tmp/now"
fi
# every row: all of its traces clean
awk -F' [|] ' '/^[|] [0-9l]/ { n = $3; c = $4; sub(/ [|]$/, "", c); if (n != c) print $0 }' "$tmp/now" > "$tmp/dirty"
[ ! -s "$tmp/dirty" ] && ok || { bad "traces that do not replay clean by their header:"; cat "$tmp/dirty"; }
finish fidelity_table
