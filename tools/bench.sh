#!/bin/sh
# bench.sh VMSIM - throughput figures for vmsim (printed, never judged).
#
# Builds tools/gen-trace.c into build/bench/ against the model and sim
# libraries that `make` built, generates the traces into build/bench/ (not
# committed; regenerated only when missing), and prints:
#   (a) parse throughput on a 10-million-line trace (reader only)
#   (b) replay events/s of a touch-heavy trace over a 5 GiB mapping
#       (1.31 M pages) and bytes per resident simulated page (max RSS)
#   (c) a trace that grows the VMA count to 65,530
#   (d) a trace that faults in and mlocks a 5 GiB mapping
#   (e) reclaim under pressure (64 MiB of RAM, file pages)
#   (f) vmsim check steps per second on one core, per semantics
# plus the wall time and max RSS of `vmsim replay -q` on (c)-(e).
vmsim=${1:-./vmsim}
out=build/bench
mkdir -p "$out" || exit 1
cc=${CC:-cc}
gen=$out/gen-trace
if [ ! -x "$gen" ] || [ tools/gen-trace.c -nt "$gen" ] || [ build/libvmsim-model.a -nt "$gen" ] ||
   [ build/libvmsim-sim.a -nt "$gen" ]; then
	$cc -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Imodel -Isim -o "$gen" tools/gen-trace.c \
		build/libvmsim-sim.a build/libvmsim-model.a -lm || exit 1
fi

trace() { # name args...: generate build/bench/NAME.trace once
	name=$1; shift
	f=$out/$name.trace
	if [ ! -s "$f" ]; then
		"$gen" gen "$@" >"$f.tmp" && mv "$f.tmp" "$f" || { rm -f "$f.tmp"; exit 1; }
	fi
	echo "$f"
}

timed_replay() { # vmsim replay -q under /usr/bin/time when there is one
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "  vmsim replay -q: %e s wall, max RSS %M kB" "$vmsim" replay -q "$1" >/dev/null
	else
		start=$(date +%s.%N)
		"$vmsim" replay -q "$1" >/dev/null
		echo "  vmsim replay -q: $(echo "$(date +%s.%N) - $start" | bc) s wall"
	fi
}

echo "(a) parse: 10,000,000 generated lines"
f=$(trace parse parse 10000000) || exit 1
"$gen" parse "$f"

echo "(b) replay: fault() per page over a 5 GiB mapping (1,310,720 pages)"
f=$(trace touch5g touch 5) || exit 1
"$gen" replay "$f"

echo "(c) replay: VMA count grown to 65,530"
f=$(trace vmas65530 vmas 65530) || exit 1
"$gen" replay "$f"
timed_replay "$f"

echo "(d) replay: fault in and mlock a 5 GiB mapping"
f=$(trace mlock5g mlock 5) || exit 1
"$gen" replay "$f"
timed_replay "$f"

echo "(e) replay: reclaim under pressure (64 MiB RAM, 512 MiB file read 4 times)"
f=$(trace reclaim reclaim) || exit 1
"$gen" replay "$f"
timed_replay "$f"
# (f) vmsim check: property-campaign speed (steps per second, one core)
echo "(f) vmsim check: steps per second per core"
for k in 6.18 6.1 4.4 lof-v1; do
	"$vmsim" check --kernel "$k" --seed 1 --runs 2000 --steps 100 --jobs 1 --stats --out "$out/check" 2>&1 >/dev/null |
		grep -i "steps/s" | sed "s/^/  $k: /"
done

exit 0
