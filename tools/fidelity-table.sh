#!/bin/sh
# fidelity-table.sh [--write] - the table of docs/fidelity.md that says, for
# each semantics, how many traces recorded on its own live kernel replay
# clean by their header alone (`vmsim replay -q TRACE`, exit 0).  6.18:
# traces/golden/ (recorded on 6.18.44 here) and ../shared/golden/; the
# others: ../shared/live-kernels/K/ (recorded inside booted kernels, QEMU).
# Prints the table; --write puts it between the fidelity-table markers of
# docs/fidelity.md.  tests/docs/fidelity_table.sh checks it is current.
cd "$(dirname "$0")/.." || exit 2
vmsim=${VMSIM:-./vmsim}
[ -x "$vmsim" ] || { echo "fidelity-table.sh: build ./vmsim first (make)" >&2; exit 2; }

# count DESC FILES...: "| DESC | N | C |" with N traces, C clean
row() {
	desc=$1 kernel=$2
	shift 2
	n=0 c=0
	for t in "$@"; do
		[ -f "$t" ] || continue
		n=$((n + 1))
		"$vmsim" replay -q "$t" >/dev/null 2>&1 && c=$((c + 1))
	done
	[ $n -gt 0 ] && echo "| $kernel | $desc | $n | $c |"
}

table() {
	echo "| semantics | recorded on | traces | clean by their header |"
	echo "|---|---|---|---|"
	row "Linux 6.18.44, this kind of machine (traces/golden/)" 6.18 traces/golden/*/*.trace
	row "Linux 6.18, the shared samples (../shared/golden/)" 6.18 ../shared/golden/*/*.trace
	row "Debian's 6.1.192 in QEMU (../shared/live-kernels/6.1/)" 6.1 ../shared/live-kernels/6.1/*/*.trace
	row "4.4.1 in QEMU (../shared/live-kernels/4.4/)" 4.4 ../shared/live-kernels/4.4/*/*.trace
	row "4.0 in QEMU (../shared/live-kernels/4.0/)" 4.0 ../shared/live-kernels/4.0/*/*.trace
	row "4.0 + the lock-on-fault v1 patches in QEMU (../shared/live-kernels/lof-v1/)" lof-v1 ../shared/live-kernels/lof-v1/*/*.trace
}

if [ "$1" = --write ]; then
	table > fidelity-table.tmp || exit 2
	awk -v f=fidelity-table.tmp '
		/<!-- fidelity-table begin -->/ { print; while ((getline l < f) > 0) print l; skip = 1; next }
		/<!-- fidelity-table end -->/ { skip = 0 }
		!skip' docs/fidelity.md > docs/fidelity.md.tmp && mv docs/fidelity.md.tmp docs/fidelity.md
	rm -f fidelity-table.tmp
else
	table
fi
