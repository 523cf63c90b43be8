#!/bin/sh
# record.sh [NAME...] - build each program here and record it twice over:
# NAME.trace with `vmsim record --faults` and NAME.strace with plain
# `strace -f -o`.  Run as root on the machine whose kernel the traces
# describe (the recordings in the repository: Linux 6.18 x86_64, as root).
# Each program runs once before it is recorded, so the files it maps are in
# the page cache (faults on them are minor in both recordings).
set -eu
cd "$(dirname "$0")"
vmsim=${VMSIM:-../../vmsim}
names=${*:-$(ls *.c | sed 's/\.c$//')}
for n in $names; do
	# a program that uses the hugetlb pool runs with one of 16 pages; its
	# plain logs cannot say so, NAME.hugetlb-pages does (conf_traces.c)
	# one about transparent huge pages runs with THP `always`; NAME.thp
	# says so for its plain logs
	# one about vm.max_map_count runs with a limit of 1024 (the fill to
	# the limit then takes 500 calls, not 33,000); the recordings'
	# headers say so
	pool= thp= mmc=
	case $n in
	hugetlb_*) pool=16 ;;
	thp_*) thp=always ;;
	max_vma_*) mmc=1024 ;;
	esac
	if [ -n "$mmc" ]; then
		old_mmc=$(cat /proc/sys/vm/max_map_count)
		echo "$mmc" > /proc/sys/vm/max_map_count
		echo "$mmc" > "$n.max-map-count"
	fi
	thp_file=/sys/kernel/mm/transparent_hugepage/enabled
	if [ -n "$thp" ]; then
		old_thp=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp_file")
		echo "$thp" > "$thp_file"
		echo "$thp" > "$n.thp"
	fi
	if [ -n "$pool" ]; then
		old_pool=$(cat /proc/sys/vm/nr_hugepages)
		echo "$pool" > /proc/sys/vm/nr_hugepages
		echo "$pool" > "$n.hugetlb-pages"
	fi
	cc -O1 -Wall -o "/tmp/vmsim-rp-$n" "$n.c" -lpthread
	"/tmp/vmsim-rp-$n" >/dev/null || true
	"$vmsim" record --faults -o "$n.trace" -- "/tmp/vmsim-rp-$n" >/dev/null
	strace -f -o "$n.strace" "/tmp/vmsim-rp-$n" >/dev/null
	# with ASLR off the address space at exec is the same every run: a
	# plain log and the maps of its process at exec (from vmsim record)
	setarch -R "$vmsim" record --expect none -o "/tmp/vmsim-rp-$n.maps.trace" -- "/tmp/vmsim-rp-$n" >/dev/null
	# (the first image's: a program that execs again inherits anew)
	awk '/ execve\(/ { n++ } n <= 1 && / inherit\(/' "/tmp/vmsim-rp-$n.maps.trace" |
		sed -E 's/^[0-9]+  inherit\("([^"]*)".*/\1/' > "$n.maps"
	setarch -R strace -f -o "$n-norandom.strace" "/tmp/vmsim-rp-$n" >/dev/null
	[ -n "$pool" ] && echo "$old_pool" > /proc/sys/vm/nr_hugepages
	[ -n "$thp" ] && echo "$old_thp" > "$thp_file"
	[ -n "$mmc" ] && echo "$old_mmc" > /proc/sys/vm/max_map_count
	echo "$n: $("$vmsim" replay -q "$n.trace" | tail -n 1)"
	echo "$n: $("$vmsim" replay -q --cap-ipc-lock yes ${pool:+--hugetlb-pages $pool} ${thp:+--thp $thp} ${mmc:+--max-map-count $mmc} --maps "$n.maps" "$n-norandom.strace" | tail -n 1)"
	echo "$n: $("$vmsim" replay -q --cap-ipc-lock yes ${pool:+--hugetlb-pages $pool} ${thp:+--thp $thp} ${mmc:+--max-map-count $mmc} "$n.strace" | tail -n 1)"
	case $n in
	threads_mmap) # threads whose calls overlap: strace cannot order them (see there)
		mv "$n.strace" "$n-norandom.strace" ../../traces/known-divergent/
		cp "$n.maps" ../../traces/known-divergent/ ;;
	esac
done
