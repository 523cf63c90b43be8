#!/bin/sh
# bench.sh VMSIM [BASELINE] - the figures of vmsim's performance, from one
# run, each beside a reference measured in the same run (printed, never
# judged; `make bench`, `make bench BASELINE=path/to/older/vmsim`).
#
#   1. replay of seed 001's lock-on-fault stream (a 5 GB file mlock2(ONFAULT)ed,
#      15,000,000 random page reads) from text, 6.18 and lof-v1, and from
#      each binary's own binary form: events/s
#   2. the same kind of stream on this machine's real kernel: perf-baseline's
#      eric (1 GiB in /dev/shm, 3,000,000 random reads, -s onfault) dumps the
#      pages it touched; that stream replayed, text and binary: ns/access,
#      kernel (eric's best of 3 here, and perf-baseline's recorded median)
#      vs vmsim
#   3. ns/touch against the VMA count (10, 1,000, 30,000, 65,530 one-page
#      VMAs, every page faulted in first, 2,000,000 random reads; the setup
#      is timed alone and subtracted; the best of five runs each)
#   4. ns/event against the trace length (10^6, 10^7, 10^8 events of the
#      lock-on-fault stream as eric runs it, generated on the fly through a pipe: no
#      disk; as text, and through vmsim convert as the binary form; vmsim's
#      own task clock in the pipe), raw and net of the setup (a run of one
#      event), beside the
#      kernel's ns/access for the same reads of the same 5 GiB file (eric's
#      timed reads, the best of 3 below 10^8); then the same reads of a
#      MAP_LOCKED mapping, where every event is a hit from the start (the
#      best of five runs below 10^7 events, where the setup is most of a run),
#      the kernel's beside them too
#   5. bytes per simulated page frame (a 5 GiB mapping faulted in)
#   6. vmsim check: steps/s at 100 and at 200,000 steps per run (seed 1's
#      run alone, and seeds 1-8); max RSS of one run of 10^6 and 10^7 steps
#   7. --check-invariants against plain replay (2,000 and 2,000,000 reads of
#      a 1 GiB mapping)
#   8. vmsim check --exhaustive: states/s, depth in 10 minutes, 1 and 2 shards
#   9. vmsim record, plain and --faults, against the program alone: wall
#      time of a 100,000-iteration mmap/touch/munmap loop (3 syscall stops
#      and a fault each), the best of three
#  10. vmsim step: the wall (and CPU) time of back, back 10 and goto at events 10^3,
#      10^5 and 10^6 of a 10^6-event trace, with its checkpoints and with
#      none; and the walk to the end that takes them, with and without
#  11. vmsim diff --all against the two replays it runs in lockstep (CPU
#      time, max RSS) at 10^4, 10^5 and 10^6 events: 8,000 VMAs whose flags
#      differ between 6.18 and 6.1 (mprotect keeps VM_ACCOUNT there), then
#      random reads; and the lock-on-fault stream, 6.18 against lof-v1
#      (16,385 differing events) and 6.1 (none); VMA churn (random 2-page
#      mlock/munlock over 64 MiB), alone and after a fork, against 4.4 and 6.1
#  12. a plain `strace -f -o` log of 200 `python3 -c pass` runs, recorded
#      here once (build/bench/py200.strace; skipped without strace or
#      python3): events per CPU second
#  13. instructions (callgrind; this machine has no hardware counters, and
#      counts do not move with the load): the reader's a line, text and
#      binary form (trace_read_accesses() and trace_read() of a replay of
#      10^6 lines of the lock-on-fault stream, each form's own), and the
#      model's a faulted page: a private anonymous mapping of 65,536 pages
#      written once each and unmapped (vm_touch(), the hot loop's tries and
#      vm_munmap()), and the lock-on-fault stream's fault path a page it
#      maps (handle_fault())
#  14. vmsim report and vmsim explain of 10^6 events over 8,000 VMAs (the
#      trace of section 11): CPU s, max RSS, the HTML's size, against a
#      replay
#  15. scaling of the line kinds of mounts, namespaces, the working
#      directory, SysV shm, hugetlb, NUMA runs and memcg limits: CPU at N
#      and at 10 N repetitions, and the ratio (about 10x when linear)
#  16. every tool on every family of trace shapes (10^6 events each): VMA
#      churn (random 2-page mlock/munlock over 64 MiB), fork-heavy (a
#      child forked, writing a page and reaped, again and again), a file
#      stream (random reads of a 256 MiB shared file mapping in 128 MiB of
#      RAM), the lock-on-fault stream, section 11's 8,000 VMAs, and the
#      plain strace log of section 12 when it exists: replay CPU; diff
#      --all 6.18/6.1 CPU against its two replays, and the default diff's
#      lines; report CPU against a replay, and its HTML's size; explain
#      CPU and its output's size; step's goto to the middle, wall ms, with
#      its checkpoints and with none
# CPU time is the task clock of the process and its children (perf stat;
# /usr/bin/time's user + system where perf is missing); BASELINE, when given,
# runs every figure but the kernel's and gen-trace's own memory count again
# with that binary.
# BENCH_QUICK=1 scales every count down by 10 (a smoke run).
# BENCH_SECTIONS="12 13" runs those sections only (default: all).
vmsim=${1:-./vmsim}
base=${2:-$BASELINE}
out=build/bench
mkdir -p "$out" || exit 1
cc=${CC:-cc}
gen=$out/gen-trace
q=1
[ -n "$BENCH_QUICK" ] && q=10
if [ ! -x "$gen" ] || [ tools/gen-trace.c -nt "$gen" ] || [ build/libvmsim-model.a -nt "$gen" ] ||
   [ build/libvmsim-sim.a -nt "$gen" ]; then
	$cc -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Imodel $(for d in sim/*/; do printf -- " -I%s" "${d%/}"; done) -o "$gen" tools/gen-trace.c \
		build/libvmsim-sim.a build/libvmsim-model.a -lm || exit 1
fi

# how CPU time is read: perf's task clock, else /usr/bin/time, else the wall clock
clock="date"
if command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock true >/dev/null 2>&1; then
	clock="perf"
elif [ -x /usr/bin/time ]; then
	clock="time"
fi
# cpu1 CMD...: CPU seconds (user + system) of one run of CMD, its output discarded
cpu1() {
	case $clock in
	perf)
		perf stat -x, -e task-clock -o "$out/time" "$@" >/dev/null 2>&1
		awk -F, '/task-clock/ { printf "%.4f", $1 / 1000 }' "$out/time" ;;
	time)
		/usr/bin/time -f "%U %S" -o "$out/time" "$@" >/dev/null 2>&1
		awk '{ printf "%.3f", $1 + $2 }' "$out/time" ;;
	*)
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		echo "$(date +%s.%N) - $s" | bc ;;
	esac
}
# least N FN ARGS...: the least of N runs of FN ARGS, each printing CPU seconds
least() {
	n=$1; shift
	a=
	while [ "$n" -gt 0 ]; do
		b=$("$@")
		a=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%s", (a == "" || b < a) ? b : a }')
		n=$((n - 1))
	done
	printf "%s" "$a"
}
# cpu CMD...: the better of two runs. The first run of a trace can pay for
# reading it into the page cache (system time), which would count against
# whichever binary a figure runs first.
cpu() { least 2 cpu1 "$@"; }
# cpu5 CMD...: the best of five runs, for the rows of a tenth of a second,
# which this host's noise moves by a third
cpu5() { least 5 cpu1 "$@"; }
ns() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.0f", t * 1e9 / n }'; }   # ns per item
rate() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.2f", n / t / 1e6 }'; } # M items/s
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else printf "-" }'; }
row() { printf '  %-46s %14s %14s %10s\n' "$1" "$2" "$3" "$4"; }
trace() { # name args...: generate build/bench/NAME.trace once
	name=$1; shift
	f=$out/$name.trace
	if [ ! -s "$f" ]; then
		"$gen" gen "$@" >"$f.tmp" && mv "$f.tmp" "$f" || { rm -f "$f.tmp"; exit 1; }
	fi
	echo "$f"
}

# 8,000 one-page VMAs (an 8,000-page mapping cut by mprotect) and N random
# reads over them: every VMA's flags differ between 6.18 and 6.1 from the
# start, a difference that stands through every read
vmas8k() {
	f=$out/diff-vmas8k-$1.trace
	[ -s "$f" ] || awk -v n="$1" 'BEGIN { b = 268435456; print "# vmsim-trace: 1"; print "# kernel: 6.18"
		printf "mmap(0x%x, %d, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = ?\n", b, 8000 * 4096
		for (i = 0; i < 8000; i += 2) printf "mprotect(0x%x, 4096, PROT_READ) = ?\n", b + i * 4096
		for (i = 0; i < n; i++) printf "touch(0x%x, 4096, READ) = ?\n", b + (i * 7919 % 8000) * 4096 }' >"$f"
	echo "$f"
}
# VMA churn: N random 2-page mlock/munlock calls over 64 MiB, every page
# written first - thousands of VMAs split and merged, one anon_vma chained
# to them all; with FORK 1, after a fork whose child maps every page too
churn() {
	f=$out/churn-$2-$1.trace
	[ -s "$f" ] || awk -v n="$1" -v fork="$2" 'BEGIN {
		srand(7); print "# vmsim-trace: 1"; print "# rlimit-memlock: unlimited"
		p = fork ? "1 " : ""
		print p "mmap(0x7f0000000000, 67108864, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x7f0000000000"
		print p "touch(0x7f0000000000, 67108864, WRITE) = ?"
		if (fork) print p "fork() = 2"
		for (i = 0; i < n; i++) {
			a = sprintf("0x7f00%08x", int(rand() * 16382) * 4096)
			printf "%s%s(%s, 8192) = ?\n", p, rand() < 0.5 ? "mlock" : "munlock", a
		} }' >"$f"
	echo "$f"
}
rss() { /usr/bin/time -f %M -o $out/rss "$@" >/dev/null 2>&1; tail -1 $out/rss; }
# want N: whether section N runs (BENCH_SECTIONS="1 12 13", default all)
want() {
	[ -z "$BENCH_SECTIONS" ] && return 0
	case " $BENCH_SECTIONS " in *" $1 "*) return 0 ;; esac
	return 1
}

echo "vmsim bench ($(date -u +%Y-%m-%dT%H:%MZ), $(uname -r), $(nproc) CPUs)${base:+, baseline $base}"
echo "(ratios: vmsim over the reference; for ns the reference over vmsim, so > 1 is vmsim faster)"

if want 1; then
echo "1. replay, seed 001's lock-on-fault benchmark stream, text"
row "" "vmsim" "${base:+baseline}" "${base:+speedup}"
n=$((15000000 / q))
for k in 6.18 lof-v1; do
	f=$(export GEN_KERNEL=$k; trace lof-random-$k-$q lof-random $n 5) || exit 1
	t=$(cpu "$vmsim" replay -q --kernel $k "$f")
	if [ -n "$base" ]; then
		tb=$(cpu "$base" replay -q --kernel $k "$f")
		row "$n random reads, $k: M events/s" "$(rate "$t" $n)" "$(rate "$tb" $n)" "$(ratio "$tb" "$t")"
	else
		row "$n random reads, $k: M events/s" "$(rate "$t" $n)" "" ""
	fi
done
# the same stream in the binary form, each binary's own (vmsim convert;
# a baseline without it has no such row)
f=$(export GEN_KERNEL=6.18; trace lof-random-6.18-$q lof-random $n 5) || exit 1
if "$vmsim" convert --to binary "$f" "$out/lof-random-6.18-$q.bin" 2>/dev/null; then
	t=$(cpu "$vmsim" replay -q "$out/lof-random-6.18-$q.bin")
	if [ -n "$base" ] && "$base" convert --to binary "$f" "$out/lof-random-base-$q.bin" 2>/dev/null; then
		tb=$(cpu "$base" replay -q "$out/lof-random-base-$q.bin")
		row "$n random reads, 6.18, binary: M events/s" "$(rate "$t" $n)" "$(rate "$tb" $n)" "$(ratio "$tb" "$t")"
		row "  bytes of the binary form per event" \
			"$(awk -v b="$(wc -c <"$out/lof-random-6.18-$q.bin")" -v n=$n 'BEGIN { printf "%.1f", b / n }')" \
			"$(awk -v b="$(wc -c <"$out/lof-random-base-$q.bin")" -v n=$n 'BEGIN { printf "%.1f", b / n }')" ""
		rm -f "$out/lof-random-base-$q.bin"
	else
		row "$n random reads, 6.18, binary: M events/s" "$(rate "$t" $n)" "" ""
	fi
	tt=$(cpu "$vmsim" replay -q "$f")
	row "  binary over text (same binary)" "$(ratio "$tt" "$t")" "" ""
	rm -f "$out/lof-random-6.18-$q.bin"
fi
fi

if want 2; then
echo "2. the same access stream on the real kernel of this machine"
pb=../shared/perf-baseline
if [ -f $pb/eric.c ] && [ -d /dev/shm ]; then
	mkdir -p $out/pb
	[ -x $out/pb/eric ] || $cc -O2 -o $out/pb/eric $pb/eric.c || exit 1
	[ -x $out/pb/mkrand ] || $cc -O2 -o $out/pb/mkrand $pb/mkrand.c || exit 1
	data=/dev/shm/vmsim-bench-1g
	[ -s $data ] || $out/pb/mkrand $data 1024 || exit 1
	na=$((3000000 / q))
	best=
	for i in 1 2 3; do # the kernel's time is the eric's own clock around the reads; the best of 3
		ms=$($out/pb/eric -f $data -s onfault -p random -n $na -d $out/stream.txt | tr ' ' '\n' |
			sed -n 's/^proc_ms=//p')
		best=$(awk -v a="$best" -v b="$ms" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
	"$gen" gen stream $out/stream.txt 1024 > $out/stream.trace
	"$gen" gen stream /dev/null 1024 > $out/stream0.trace
	kns=$(awk -v ms="$best" -v n=$na 'BEGIN { printf "%.0f", ms * 1e6 / n }')
	for b in "$vmsim" $base; do
		t=$(cpu "$b" replay -q $out/stream.trace)
		t0=$(cpu "$b" replay -q $out/stream0.trace)
		vns=$(awk -v a="$t" -v b="$t0" -v n=$na 'BEGIN { printf "%.0f", (a - b) * 1e9 / n }')
		[ "$b" = "$vmsim" ] && label="ns/access: kernel vs vmsim (reads only), text" || label="  the same, baseline, text"
		row "$label" "$vns" "$kns (kernel)" "$(ratio "$kns" "$vns")"
	done
	for b in "$vmsim" $base; do
		if "$b" convert --to binary $out/stream.trace $out/stream.bin 2>/dev/null &&
		   "$b" convert --to binary $out/stream0.trace $out/stream0.bin 2>/dev/null; then
			t=$(cpu "$b" replay -q $out/stream.bin)
			t0=$(cpu "$b" replay -q $out/stream0.bin)
			vns=$(awk -v a="$t" -v b="$t0" -v n=$na 'BEGIN { printf "%.1f", (a - b) * 1e9 / n }')
			[ "$b" = "$vmsim" ] && label="  the same, binary" || label="  the same, baseline, binary"
			row "$label" "$vns" "$kns (kernel)" "$(ratio "$kns" "$vns")"
			[ "$b" = "$vmsim" ] && vbin=$vns
		fi
		rm -f $out/stream.bin $out/stream0.bin
	done
	# the kernel as perf-baseline recorded it on this kind of machine (the
	# median of its runs, eric_shm_1g), beside the live best of 3 above
	rec=$(grep -m1 '^| random | onfault | 3,000,000 |' $pb/summary.md 2>/dev/null | awk -F'|' '{ gsub(/[ ,]/, "", $(NF-3)); print $(NF-3) }')
	[ -n "$rec" ] && [ -n "${vbin:-}" ] && [ -z "$BENCH_QUICK" ] &&
		row "  binary against perf-baseline's recorded kernel" "$vbin" "$rec (recorded)" "$(ratio "$rec" "$vbin")"
else
	echo "  skipped: no ../shared/perf-baseline (the real-kernel programs)"
fi
fi

if want 3; then
echo "3. ns/touch against the VMA count (2,000,000 random reads)"
m=$((2000000 / q))
for nv in 10 1000 30000 65530; do
	f0=$(trace vmas-$nv-0 vmas-touch $nv 0) || exit 1
	f1=$(trace vmas-$nv-$q vmas-touch $nv $m) || exit 1
	t=$(awk -v a="$(cpu5 "$vmsim" replay -q "$f1")" -v b="$(cpu5 "$vmsim" replay -q "$f0")" 'BEGIN { print a - b }')
	[ $nv = 10 ] && t10=$t
	if [ -n "$base" ]; then
		tb=$(awk -v a="$(cpu5 "$base" replay -q "$f1")" -v b="$(cpu5 "$base" replay -q "$f0")" 'BEGIN { print a - b }')
		row "$nv VMAs: ns/touch (vs 10 VMAs: $(ratio "$t" "$t10"))" "$(ns "$t" $m)" "$(ns "$tb" $m)" "$(ratio "$tb" "$t")"
	else
		row "$nv VMAs: ns/touch (vs 10 VMAs: $(ratio "$t" "$t10"))" "$(ns "$t" $m)" "" ""
	fi
done
fi

if want 4; then
echo "4. ns/event against the trace length (streamed through a pipe)"
# "net" is less the setup (a run of 1 event): the cost an event adds
# tail1 PIPE VMSIM: CPU s of VMSIM replaying the output of PIPE, its own task
# clock inside the pipe (with perf: the generator's, and vmsim convert's,
# tens of times vmsim's own from the binary form, would be noise to
# subtract); without perf, the pipe's less the generator's alone
tail1() {
	if [ $clock = perf ]; then
		sh -c "$1 | perf stat -x, -e task-clock -o \"$out/time.tail\" \"$2\" replay -q -" >/dev/null 2>&1
		awk -F, '/task-clock/ { printf "%.4f", $1 / 1000 }' "$out/time.tail"
	else
		awk -v a="$(cpu1 sh -c "$1 | \"$2\" replay -q -")" -v b="$(cpu1 sh -c "$1 > /dev/null")" \
			'BEGIN { print a - b }'
	fi
}
streamed() { # EVENTS TEMPLATE VMSIM text|binary: CPU s of VMSIM replaying `gen-trace gen
	# TEMPLATE` (%d: EVENTS), as text or through VMSIM convert as the binary form
	pipe="\"$gen\" gen $(printf "$2" "$1")"
	[ "$4" = binary ] && pipe="$pipe | \"$3\" convert --to binary - -"
	# the best of five below 10^7 events: the setup is most of such a run,
	# and its noise would be most of the net figure; one run at 10^8
	n=2
	[ "$1" -lt 10000000 ] && n=5
	[ "$1" -ge 100000000 ] && n=1
	least $n tail1 "$pipe" "$3"
}
# kernel_ns N STRATEGY: the live kernel's ns/access for eric's N random reads
# of the 5 GiB file (its own clock around the reads, not the mmap and
# mlock before them); empty without eric
kernel_ns() {
	[ -n "${kdata:-}" ] || return 0
	best=
	for i in 1 2 3; do
		ms=$($out/pb/eric -f $kdata -s $2 -p random -n $1 | tr ' ' '\n' | sed -n 's/^proc_ms=//p')
		best=$(awk -v a="$best" -v b="$ms" 'BEGIN { print (a == "" || b < a) ? b : a }')
		[ "$1" -ge 100000000 ] && break # one run of seconds is enough
	done
	awk -v ms="$best" -v n=$1 'BEGIN { if (ms != "") printf "%.0f", ms * 1e6 / n }'
}
net() { awk -v a="$1" -v b="$2" 'BEGIN { print a - b }'; } # a run less its setup
per_vs() { # NET EVENTS NET6 EVENTS6: ns/event of the first over the second
	awk -v a="$1" -v n="$2" -v b="$3" -v m="$4" 'BEGIN { printf "%.2fx", (a / n) / (b / m) }'
}
length_rows() { # TEMPLATE LABEL SETUP [STRATEGY]: a row per length from text, one from
	# the binary form (and the kernel's for eric -s STRATEGY), then the setups' times
	ts=$(streamed 1 "$1" "$vmsim" text)
	tsb=$(streamed 1 "$1" "$vmsim" binary)
	if [ -n "$base" ]; then
		bts=$(streamed 1 "$1" "$base" text)
		btsb=$(streamed 1 "$1" "$base" binary)
	fi
	net6= netb6= k6=
	for e in 1000000 10000000 100000000; do
		e=$((e / q))
		t=$(streamed $e "$1" "$vmsim" text)
		nt=$(net "$t" "$ts")
		[ -z "$net6" ] && net6=$nt n6=$e
		row "$e events$2" "$(ns "$t" $e)" "$(ns "$nt" $e)" "$(per_vs "$nt" $e "$net6" $n6)"
		t=$(streamed $e "$1" "$vmsim" binary)
		ntb=$(net "$t" "$tsb")
		[ -z "$netb6" ] && netb6=$ntb
		row "  the binary form" "$(ns "$t" $e)" "$(ns "$ntb" $e)" "$(per_vs "$ntb" $e "$netb6" $n6)"
		if [ -n "${4:-}" ] && k=$(kernel_ns $e $4) && [ -n "$k" ]; then
			k6=${k6:-$k}
			row "  the kernel, same reads" "" "$k" "$(ratio "$k" "$k6")"
			row "    kernel / vmsim (text, binary)" "" "$(ratio "$k" "$(ns "$nt" $e)")" \
				"$(ratio "$k" "$(ns "$ntb" $e)")"
		fi
		if [ -n "$base" ]; then
			t=$(streamed $e "$1" "$base" text)
			row "  baseline" "$(ns "$t" $e)" "$(ns "$(net "$t" "$bts")" $e)" ""
			t=$(streamed $e "$1" "$base" binary)
			row "  baseline, binary" "$(ns "$t" $e)" "$(ns "$(net "$t" "$btsb")" $e)" ""
		fi
	done
	row "  $3, s (text, binary)" "$ts" "$tsb" ""
}
row "" "raw ns/event" "net ns/event" "net vs 10^6"
kdata=
if [ -x $out/pb/eric ] && [ -x $out/pb/mkrand ] && [ -d /dev/shm ] &&
   [ "$(awk '/MemAvailable/ { print int($2 / 1048576) }' /proc/meminfo)" -ge 12 ]; then
	kdata=/dev/shm/vmsim-bench-5g # 5 GiB of RAM while section 4 runs
	[ -s $kdata ] || $out/pb/mkrand $kdata 5120 >/dev/null || kdata=
fi
[ -n "$kdata" ] || echo "  (no kernel rows: eric, /dev/shm or 12 GiB of free memory missing)"
length_rows "munson onfault random %d 5120" "" "setup (the file cached and mapped)" onfault
# the same reads of a MAP_LOCKED mapping: every page present from the
# start, so every event is a hit and nothing but the length changes
length_rows "munson locked random %d 5120" ", MAP_LOCKED (all present)" "setup (5 GiB mapped and populated)" locked
[ -n "$kdata" ] && rm -f $kdata
fi

if want 5; then
echo "5. memory per simulated page frame"
f=$(trace touch5g touch 5) || exit 1
"$gen" replay "$f" | sed -n 's/.*memory: /  /p'
# the same by the max RSS of vmsim replay itself: less that of the trace's
# header alone (which leaves in the fixed cost of reading a long trace), and
# the marginal cost, the RSS of 5 GiB less that of 1 GiB over the 4 GiB of
# frames between them (fixed costs cancel) - for this binary and the baseline
if [ -x /usr/bin/time ]; then
	f1=$(trace touch1g touch 1) || exit 1
	head -n 20 "$f" | grep '^#' > $out/touch5g-empty.trace
	pages=$(grep -c '^fault' "$f")
	pages1=$(grep -c '^fault' "$f1")
	maxrss() { /usr/bin/time -f %M -o $out/rss "$@" >/dev/null 2>&1; tail -1 $out/rss; }
	for b in "$vmsim" $base; do
		full=$(maxrss "$b" replay -q "$f")
		empty=$(maxrss "$b" replay -q $out/touch5g-empty.trace)
		one=$(maxrss "$b" replay -q "$f1")
		who=$([ "$b" = "$vmsim" ] && echo "vmsim replay" || echo "baseline replay")
		row "$who: bytes per page (max RSS)" \
			"$(awk -v a="$full" -v b="$empty" -v n="$pages" 'BEGIN { printf "%.1f", (a - b) * 1024 / n }')" "" ""
		row "$who: bytes per page, 1 -> 5 GiB" \
			"$(awk -v a="$full" -v b="$one" -v n="$pages" -v m="$pages1" 'BEGIN { printf "%.1f", (a - b) * 1024 / (n - m) }')" "" ""
	done
fi
fi

if want 6; then
echo "6. vmsim check, 6.18, one job"
# one 200,000-step run is seed 1's machine alone; 8 runs (seeds 1-8) show
# the spread of machines that a campaign of long runs meets
for spec in "1000 100" "1 200000" "8 200000"; do
	set -- $spec
	# BENCH_QUICK: a tenth of the steps, and of the runs where there are
	# ten or more (8 long runs stay 8: the spread of seeds is the point)
	runs=$1 steps=$(($2 / q))
	[ $runs -ge $q ] && runs=$((runs / q))
	ks=
	for b in "$vmsim" $base; do
		s=$("$b" check -q --kernel 6.18 --runs $runs --steps $steps --stats --out $out/check 2>&1 >/dev/null |
			sed -n 's/.*: \([0-9]*\) steps\/s.*/\1/p')
		ks="$ks $(awk -v s="$s" 'BEGIN { printf "%.0f", s / 1000 }')"
	done
	set -- $ks
	row "$runs x $steps steps: k steps/s" "$1" "${2:-}" "$([ -n "${2:-}" ] && ratio "$1" "$2")"
	short=${short:-$1} long=$1 shortsteps=${shortsteps:-$steps} longspec="$runs x $steps"
done
# flat in the run's length: the short runs' rate over the 8 long runs'
row "$shortsteps-step rate / $longspec-step rate" "$(ratio "$short" "$long")" "" ""
# memory against the run's length: max RSS of one run of 10^6 and 10^7
# steps (the steps kept for shrinking are bounded, CHECK_KEEP; what still
# grows is the model's dead tasks, one per fork)
if [ -x /usr/bin/time ]; then
	for steps in $((1000000 / q)) $((10000000 / q)); do
		ms=
		for b in "$vmsim" $base; do
			/usr/bin/time -f %M -o $out/rss "$b" check -q --kernel 6.18 --runs 1 --steps $steps --out $out/check >/dev/null 2>&1
			ms="$ms $(awk '{ printf "%.0f", $1 / 1024 }' $out/rss)"
		done
		set -- $ms
		row "1 x $steps steps: max RSS MB" "$1" "${2:-}" "$([ -n "${2:-}" ] && ratio "$1" "$2")"
	done
fi
fi

if want 7; then
echo "7. --check-invariants against plain replay"
row "" "plain" "checked" "ratio"
for n in 2000 2000000; do
	n=$((n / q))
	f=$(trace lof-inv-$n lof-random $n 1) || exit 1
	for b in "$vmsim" $base; do
		t=$(cpu "$b" replay -q "$f")
		ti=$(cpu "$b" replay -q --check-invariants "$f")
		row "$n reads of 1 GiB: CPU s$([ "$b" = "$vmsim" ] || echo ", baseline")" "$t" "$ti" "$(ratio "$ti" "$t")"
	done
done
fi

if want 8; then
echo "8. vmsim check --exhaustive, 6.18, the default alphabet"
# distinct states per second of one core, and the depth every sequence was
# explored to in a fixed time: one core, then 2 shards side by side (10
# minutes each; BENCH_QUICK: one)
secs=$((600 / q))
[ $secs -lt 60 ] && secs=60
row "" "one core" "2 shards" "shards/one"
"$vmsim" check --exhaustive --kernel 6.18 --depth 16 --time $secs -q --out $out/exh \
	> $out/exh-one.txt 2>/dev/null
for i in 1 2; do
	"$vmsim" check --exhaustive --kernel 6.18 --depth 16 --time $secs -q --shard $i/2 \
		-o $out/exh-shard-$i --out $out/exh > /dev/null 2>&1 &
done
wait
"$vmsim" check-merge --out $out/exh-m $out/exh-shard-1 $out/exh-shard-2 > $out/exh-two.txt 2>/dev/null
exh() { sed -n "s/^explored: every sequence up to depth \([0-9]*\).*: \([0-9]*\) distinct states, \([0-9]*\) transitions in \([0-9.]*\) s.*/\\$2/p" "$1"; }
d1=$(exh $out/exh-one.txt 1) d2=$(exh $out/exh-two.txt 1)
s1=$(exh $out/exh-one.txt 2) s2=$(exh $out/exh-two.txt 2)
t1=$(exh $out/exh-one.txt 4) t2=$(exh $out/exh-two.txt 4)
# (parenthesised: a bare > in printf's arguments is awk's redirection)
sps1=$(awk -v s="$s1" -v t="$t1" 'BEGIN { printf "%.0f", (t > 0 ? s / t : 0) }')
sps2=$(awk -v s="$s2" -v t="$t2" 'BEGIN { printf "%.0f", (t > 0 ? s / t / 2 : 0) }')
row "distinct states/s per core" "$sps1" "$sps2" "$(ratio "$sps2" "$sps1")"
row "depth complete in $secs s" "$d1" "$d2" ""
row "distinct states then" "$s1" "$s2" ""
fi

if want 9; then
echo "9. vmsim record against the program alone (wall s, best of 3)"
# a stop of the tracee must wake the recorder at once, with --faults too
# (it sleeps in poll() on a signalfd and the sample rings)
cat > $out/loop.c <<'EOC'
#include <stdlib.h>
#include <sys/mman.h>
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	for (int i = 0; i < n; i++) {
		char *p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		p[0] = 1;
		munmap(p, 8192);
	}
	return 0;
}
EOC
wall3() { # the best of three wall times of "$@", in s
	best=
	for i in 1 2 3; do
		t0=$(date +%s%N)
		"$@" > /dev/null 2>&1
		t1=$(date +%s%N)
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
		best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
	echo "$best"
}
if cc -O1 -o $out/loop $out/loop.c 2>/dev/null; then
	n=$((100000 / q))
	row "" "wall s" "x native" "x record"
	tn=$(wall3 $out/loop $n)
	row "native, $n iterations" "$tn" "1" ""
	for b in "$vmsim" $base; do
		tr=$(wall3 "$b" record -o $out/loop.trace -- $out/loop $n)
		tf=$(wall3 "$b" record --faults -o $out/loop.trace -- $out/loop $n)
		sfx=$([ "$b" = "$vmsim" ] || echo ", baseline")
		row "record$sfx" "$tr" "$(ratio "$tr" "$tn")" "1"
		row "record --faults$sfx" "$tf" "$(ratio "$tf" "$tn")" "$(ratio "$tf" "$tr")"
	done
else
	echo "  (no C compiler: section 9 skipped)"
fi
fi

if want 10; then
echo "10. vmsim step: back and goto wherever they go (wall ms of the command, --timer; its CPU ms in brackets)"
# the lock-on-fault benchmark's random reads, 10^6 events (a 5 GiB file's
# 1.3 M pages cached: a model of 60 MB); the commands' wall time, and
# their CPU time in every process they ran in (a back's hand-over is a
# clone() in the checkpoint it resumes, whose CPU the new process does not
# see: the wall time counts it), with the default checkpoints and with none
# (every back replays from the start); the walk forward that took the
# checkpoints, against the same walk taking none
T=$(trace step-lofr lof-random $((1000000 / q)))
steptimes() { # EVERY COMMANDS...: "WALL CPU" ms of each command but the first, a line each
	every=$1
	shift
	cmds=$(printf '%s\n' "$@")
	printf '%s\n' "$cmds" | VMSIM_STEP_CHECKPOINT_EVERY=$every "$vmsim" step --timer --no-pictures "$T" 2>/dev/null |
		sed -n 's/^time: \([0-9.]*\) ms wall, \([0-9.]*\) ms CPU$/\1 \2/p' | tail -n +2
}
# WALL CPU -> "WALL (CPU)", one decimal
wall_cpu() { awk -v w="$1" -v c="$2" 'BEGIN { printf "%.1f (%.1f)", w, c }'; }
row "" "checkpoints" "none" "none/ckpt"
for e in 1000 100000 1000000; do
	e=$((e / q))
	[ $e -lt 1000 ] && e=1000
	# the trace's first event (the cached file) is on line 12, its reads
	# from line 16: goto LINE is the read LINE - 15, shown event LINE - 11
	ck=$(steptimes "" "goto $((e + 12))" "goto $((e + 12))" back "back 10" "goto $((e / 2 + 12))")
	no=$(steptimes 0 "goto $((e + 12))" "goto $((e + 12))" back "back 10" "goto $((e / 2 + 12))")
	i=1
	for what in "back at event $e" "back 10 more" "goto event $((e / 2))"; do
		i=$((i + 1))
		a=$(echo "$ck" | sed -n ${i}p) b=$(echo "$no" | sed -n ${i}p)
		row "$what, ms" "$(wall_cpu $a)" "$(wall_cpu $b)" "$(ratio "${b%% *}" "${a%% *}")"
	done
done
# the walk to the end: what taking the checkpoints costs (copy-on-write
# faults after each fork: tens of microseconds each on a paravirtual machine)
last=$((1000000 / q + 12))
a=$(printf 'goto %d\n' $last | "$vmsim" step --timer --no-pictures "$T" 2>/dev/null |
	sed -n 's/^time: \([0-9.]*\) ms wall, \([0-9.]*\) ms CPU$/\1 \2/p')
b=$(printf 'goto %d\n' $last | VMSIM_STEP_CHECKPOINT_EVERY=0 "$vmsim" step --timer --no-pictures "$T" 2>/dev/null |
	sed -n 's/^time: \([0-9.]*\) ms wall, \([0-9.]*\) ms CPU$/\1 \2/p')
row "goto the end from the start, ms" "$(wall_cpu $a)" "$(wall_cpu $b)" "$(ratio "${b%% *}" "${a%% *}")"
fi

if want 11; then
echo "11. vmsim diff --all: CPU s against its two replays, max RSS"
row "" "diff" "2 replays" "diff/replays"
for n in 10000 100000 1000000; do
	n=$((n / q))
	f=$(vmas8k $n)
	d=$(cpu "$vmsim" diff --all --kernel 6.18 --kernel 6.1 "$f")
	ra=$(cpu "$vmsim" replay -q --kernel 6.18 "$f")
	rb=$(cpu "$vmsim" replay -q --kernel 6.1 "$f")
	r2=$(awk -v a="$ra" -v b="$rb" 'BEGIN { printf "%.4f", a + b }')
	row "8,000 VMAs, $n events, 6.18/6.1: CPU s" "$d" "$r2" "$(ratio "$d" "$r2")"
done
row "  max RSS at $n events, KB" "$(rss "$vmsim" diff --all --kernel 6.18 --kernel 6.1 "$f")" \
	"$(rss "$vmsim" replay -q --kernel 6.18 "$f")" ""
T=$(trace step-lofr lof-random $((1000000 / q)))
for k in lof-v1 6.1; do
	d=$(cpu "$vmsim" diff --all --kernel 6.18 --kernel $k "$T")
	ra=$(cpu "$vmsim" replay -q --kernel 6.18 "$T")
	rb=$(cpu "$vmsim" replay -q --kernel $k "$T")
	r2=$(awk -v a="$ra" -v b="$rb" 'BEGIN { printf "%.4f", a + b }')
	row "lock-on-fault, $((1000000 / q)) events, 6.18/$k: CPU s" "$d" "$r2" "$(ratio "$d" "$r2")"
	row "  events listed" "$("$vmsim" diff --all --kernel 6.18 --kernel $k "$T" | sed -n 's/.*: \([0-9]*\) of .*/\1/p;s/.*agree$/0/p' | tail -1)" "" ""
done
row "  max RSS, 6.18/lof-v1, KB" "$(rss "$vmsim" diff --all --kernel 6.18 --kernel lof-v1 "$T")" \
	"$(rss "$vmsim" replay -q --kernel 6.18 "$T")" ""
# VMA churn (churn()), alone and after a fork
n=$((100000 / q))
for shape in churn fork-churn; do
	f=$(churn $n $([ $shape = fork-churn ] && echo 1 || echo 0))
	for k in 4.4 6.1; do
		d=$(cpu "$vmsim" diff --all --kernel 6.18 --kernel $k "$f")
		ra=$(cpu "$vmsim" replay -q --kernel 6.18 "$f")
		rb=$(cpu "$vmsim" replay -q --kernel $k "$f")
		r2=$(awk -v a="$ra" -v b="$rb" 'BEGIN { printf "%.4f", a + b }')
		row "$shape, $n events, 6.18/$k: CPU s" "$d" "$r2" "$(ratio "$d" "$r2")"
	done
done
fi

if want 12; then
echo "12. replay of a plain strace -f log of python3 -c pass runs (200; 20 quick), recorded here"
py=$out/py200.strace
runs=$((200 / q))
[ -n "$BENCH_QUICK" ] && py=$out/py20.strace
if [ ! -s "$py" ] && command -v strace >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	strace -f -o "$py.tmp" sh -c "i=0; while [ \$i -lt $runs ]; do python3 -c pass; i=\$((i + 1)); done" \
		>/dev/null 2>&1 && mv "$py.tmp" "$py"
fi
if [ -s "$py" ]; then
	ev=$("$vmsim" replay -q "$py" 2>&1 | sed -n 's/.*: \([0-9]*\) events.*/\1/p')
	t=$(cpu5 "$vmsim" replay -q "$py")
	row "" "vmsim" "${base:+baseline}" "${base:+speedup}"
	if [ -n "$base" ]; then
		tb=$(cpu5 "$base" replay -q "$py")
		row "$ev events: M events/CPU s" "$(rate "$t" "$ev")" "$(rate "$tb" "$ev")" "$(ratio "$tb" "$t")"
	else
		row "$ev events: M events/CPU s" "$(rate "$t" "$ev")" "" ""
	fi
	row "  ns an event" "$(ns "$t" "$ev")" "${base:+$(ns "$tb" "$ev")}" ""
else
	echo "  skipped: strace or python3 missing (no log to replay)"
fi
fi

if want 13; then
echo "13. instructions (callgrind): the reader a line, the model a faulted page"
if command -v valgrind >/dev/null 2>&1; then
	# ir FUNCTIONS BINARY ARGS...: the instructions BINARY runs inside the
	# functions (comma-separated) and what they call: callgrind collecting
	# only there.  A function may have been replaced by a specialised clone
	# (F.constprop.0, F.isra.0: link-time optimisation clones what
	# model/measured.h keeps out of line), counted under F's name; not F's
	# split-off parts (F.part.0, F.cold), which F itself enters: a toggle
	# there would turn the count off inside F
	ir() {
		fns=$1; b=$2; shift 2
		tog=$(echo "$fns" | tr ',' '\n' | sed 's/.*/--toggle-collect=& --toggle-collect=&.constprop* --toggle-collect=&.isra*/' | tr '\n' ' ')
		valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" $tog "$b" "$@" >/dev/null 2>&1 &&
			sed -n 's/^totals: *//p' "$out/cg.out"
	}
	n13=$((1000000 / q))
	L=$(trace lof-random-13-$q lof-random $n13 5)
	anon=$out/anon-fault-$q.trace
	pages=$((65536 / q))
	[ -s "$anon" ] || awk -v n=$pages 'BEGIN { b = 0x7f0000000000; print "# vmsim-trace: 1"; print "# kernel: 6.18"
		printf "mmap(0x%x, %d, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x%x\n", b, n * 4096, b
		for (i = 0; i < n; i++) printf "touch(0x%x, 4096, WRITE) = ?\n", b + i * 4096
		printf "munmap(0x%x, %d) = 0\n", b, n * 4096 }' >"$anon"
	row "" "vmsim" "${base:+baseline}" "${base:+ratio}"
	for who in vmsim base; do
		eval b=\$$who
		[ -n "$b" ] || continue
		"$b" convert "$L" "$out/cg-$who.bin" >/dev/null 2>&1 || rm -f "$out/cg-$who.bin"
		eval "${who}_text=\$(ir trace_read_accesses,trace_read \"$b\" replay -q \"$L\")"
		[ -s "$out/cg-$who.bin" ] &&
			eval "${who}_bin=\$(ir trace_read_accesses,trace_read \"$b\" replay -q \"$out/cg-$who.bin\")"
		eval "${who}_anon=\$(ir vm_touch,vm_touch_hits,vm_munmap \"$b\" replay -q \"$anon\")"
		eval "${who}_lof=\$(ir handle_fault \"$b\" replay -q \"$L\")"
	done
	per() { awk -v a="$1" -v n="$2" 'BEGIN { if (a != "" && a > 0) printf "%.0f", a / n; else printf "-" }'; }
	lofpages=$("$vmsim" show meminfo "$L" 2>/dev/null | awk '/^Mapped:/ { printf "%d", $2 / 4 }')
	row "text reader, a line ($n13 lines)" "$(per "$vmsim_text" $n13)" "$(per "$base_text" $n13)" \
		"$(ratio "$(per "$vmsim_text" $n13)" "$(per "$base_text" $n13)")"
	row "binary reader, a record" "$(per "$vmsim_bin" $n13)" "$(per "$base_bin" $n13)" ""
	row "  text over binary" "$(ratio "$(per "$vmsim_text" $n13)" "$(per "$vmsim_bin" $n13)")" "" ""
	row "fault and teardown, a page (anonymous, $pages)" "$(per "$vmsim_anon" $pages)" \
		"$(per "$base_anon" $pages)" "$(ratio "$(per "$vmsim_anon" $pages)" "$(per "$base_anon" $pages)")"
	row "lock-on-fault fault path, a page mapped" "$(per "$vmsim_lof" $lofpages)" \
		"$(per "$base_lof" $lofpages)" "$(ratio "$(per "$vmsim_lof" $lofpages)" "$(per "$base_lof" $lofpages)")"
else
	echo "  skipped: valgrind (callgrind) missing"
fi
fi

if want 14; then
echo "14. vmsim report and explain at $((1000000 / q)) events over 8,000 VMAs"
f=$(vmas8k $((1000000 / q)))
row "" "CPU s" "max RSS KB" "output"
tr=$(cpu "$vmsim" report -o "$out/report.html" "$f")
row "report" "$tr" "$(rss "$vmsim" report -o "$out/report.html" "$f")" "$(wc -c <"$out/report.html") B"
te=$(cpu "$vmsim" explain "$f")
"$vmsim" explain "$f" >"$out/explain.txt" 2>/dev/null
row "explain" "$te" "$(rss "$vmsim" explain "$f")" "$(wc -c <"$out/explain.txt") B"
row "replay" "$(cpu "$vmsim" replay -q "$f")" "$(rss "$vmsim" replay -q "$f")" ""
fi
if want 15; then
echo "15. scaling of each line kind: N and 10 N lines, CPU (10x the input should cost about 10x)"
# scale ID NAME N FMT: the trace of N repetitions of a line kind, made by
# the awk program FMT (n its repetitions), replayed at N and 10 N
scale() {
	id=$1; name=$2; n=$3; prog=$4
	for k in $n $((n * 10)); do
		f=$out/scale-$id-$k.trace
		[ -s "$f" ] || awk -v n=$k "BEGIN { print \"# vmsim-trace: 1\"; $prog }" >"$f"
	done
	a=$(cpu5 "$vmsim" replay -q "$out/scale-$id-$n.trace")
	b=$(cpu5 "$vmsim" replay -q "$out/scale-$id-$((n * 10)).trace")
	row "$name ($n, $((n * 10)))" "$a" "$b" "$(ratio "$b" "$a")"
}
row "" "CPU s at N" "at 10 N" "ratio"
m=$((20000 / q))
scale unshare "mount, then unshare(CLONE_NEWNS)" $m 'for (i = 0; i < n; i++) printf "mount(\"none\", \"/mnt/m%d\", \"tmpfs\", 0, NULL) = 0\n", i; for (i = 0; i < n; i++) print "unshare(CLONE_NEWNS) = 0"'
scale umount "mount, umount (last first)" $m 'for (i = 0; i < n; i++) printf "mount(\"none\", \"/mnt/m%d\", \"ramfs\", 0, NULL) = 0\n", i; for (i = n; i-- > 0;) printf "umount2(\"/mnt/m%d\", 0) = 0\n", i'
scale mntopen "mount, then an open under each" $m 'for (i = 0; i < n; i++) printf "mount(\"none\", \"/mnt/m%d\", \"tmpfs\", 0, NULL) = 0\n", i; for (i = 0; i < n; i++) printf "openat(AT_FDCWD, \"/mnt/m%d/f\", O_RDWR|O_CREAT, 0600) = 3\nclose(3) = 0\n", i'
# quadratic in the kernel too: each clone copies every mount of its parent
# (copy_mnt_ns()); here each namespace's first lookups walk its list
scale chainopen "clone(CLONE_NEWNS) chain, a mount and an open each" $((m / 10)) 'p = 1; for (i = 0; i < n; i++) { c = p + 1; printf "%d clone(child_stack=NULL, flags=CLONE_NEWNS|SIGCHLD) = %d\n", p, c; printf "%d mount(\"none\", \"/mnt/c%d\", \"tmpfs\", 0, NULL) = 0\n", c, i; printf "%d openat(AT_FDCWD, \"/mnt/c%d/f\", O_RDWR|O_CREAT, 0600) = 3\n", c, i; p = c }'
scale clone "clone(CLONE_NEWNS) chain, a mount each" $m 'p = 1; for (i = 0; i < n; i++) { c = p + 1; printf "%d clone(child_stack=NULL, flags=CLONE_NEWNS|SIGCHLD) = %d\n", p, c; printf "%d mount(\"none\", \"/mnt/c%d\", \"tmpfs\", 0, NULL) = 0\n", c, i; p = c }'
scale chdir "chdir deeper, an open each" $m 'print "chdir(\"/tmp\") = 0"; for (i = 0; i < n; i++) { print "chdir(\"d\") = 0"; print "openat(AT_FDCWD, \"f\", O_RDWR|O_CREAT, 0600) = 3"; print "close(3) = 0" }'
scale shm "shmget, shmat, shmdt, IPC_RMID" $m 'for (i = 0; i < n; i++) { print "shmget(IPC_PRIVATE, 8192, IPC_CREAT|0600) = 0"; print "shmat(0, NULL, 0) = 0x7f0000000000"; print "touch(0x7f0000000000, 8192, WRITE) = ?"; print "shmdt(0x7f0000000000) = 0"; print "shmctl(0, IPC_RMID, NULL) = 0" }'
scale shmmni "shmget past shmmni" $m 'for (i = 0; i < n; i++) print "shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = ?"'
scale hugetlb "MAP_HUGETLB map, touch, unmap" $m 'print "# hugetlb-pages: 4"; for (i = 0; i < n; i++) { print "mmap(0x7f0000000000, 4194304, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB|MAP_FIXED, -1, 0) = 0x7f0000000000"; print "touch(0x7f0000000000, 4194304, WRITE) = ?"; print "munmap(0x7f0000000000, 4194304) = 0" }'
scale numa "numa_run(1000) over 16 MiB" $((m / 10)) 'print "# numa-nodes: 2"; print "mmap(0x7f0000000000, 16777216, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x7f0000000000"; print "touch(0x7f0000000000, 16777216, WRITE) = ?"; for (i = 0; i < n; i++) { print "numa_run(1000) = ?"; print "touch(0x7f0000000000, 16777216, READ) = ?" }'
scale memcg "memcg_max writes over 4 MiB of file" $((m / 10)) 'print "openat(AT_FDCWD, \"/tmp/f\", O_RDWR|O_CREAT, 0600) = 3"; for (i = 0; i < n; i++) { print "pwrite64(3, \"\", 4194304, 0) = 4194304"; print "fsync(3) = 0"; print "memcg_max(1048576) = 0"; print "memcg_max(-1) = 0" }'
fi
if want 16; then
echo "16. every tool on every family of trace shapes, $((1000000 / q)) events each (CPU s unless said)"
n=$((1000000 / q))
fam() { # fam NAME: the family's trace, made once
	f=$out/fam-$1-$n.trace
	if [ ! -s "$f" ]; then
		case $1 in
		forks) awk -v n=$n 'BEGIN { print "# vmsim-trace: 1"
			print "1 mmap(0x7f0000000000, 4194304, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = ?"
			print "1 touch(0x7f0000000000, 4194304, WRITE) = ?"
			for (i = 0; i < n / 5; i++) { c = i + 2; print "1 fork() = " c
				printf "%d touch(0x7f00%08x, 4096, WRITE) = ?\n", c, (i * 7 % 1024) * 4096
				print c " exit_group(0) = ?"; print c " +++ exited with 0 +++"; print "1 wait4(-1, NULL, 0, NULL) = " c } }' ;;
		file) awk -v n=$n 'BEGIN { srand(11); print "# vmsim-trace: 1"; print "# ram: 128M"
			print "inherit_file(\"/tmp/fam-file\", 268435456) = 0"
			print "openat(AT_FDCWD, \"/tmp/fam-file\", O_RDONLY) = 3"
			print "mmap(0x7f0000000000, 268435456, PROT_READ, MAP_SHARED|MAP_FIXED, 3, 0) = ?"
			for (i = 0; i < n; i++) printf "touch(0x7f00%08x, 4096, READ) = ?\n", int(rand() * 65536) * 4096 }' ;;
		esac >"$f"
	fi
	echo "$f"
}
fams="churn forks file lof vmas8k"
[ -s "$out/py200.strace" ] && fams="$fams strace"
for fm in $fams; do
	case $fm in
	churn) f=$(churn $n 0) ;;
	lof) f=$(trace step-lofr lof-random $n) ;;
	vmas8k) f=$(vmas8k $n) ;;
	strace) f=$out/py200.strace ;;
	*) f=$(fam $fm) ;;
	esac
	echo "  $fm ($(wc -l <"$f") lines)"
	ra=$(cpu "$vmsim" replay -q --kernel 6.18 "$f")
	rb=$(cpu "$vmsim" replay -q --kernel 6.1 "$f")
	row "replay 6.18" "$ra" "" ""
	r2=$(awk -v a="$ra" -v b="$rb" 'BEGIN { printf "%.4f", a + b }')
	d=$(cpu "$vmsim" diff --all --kernel 6.18 --kernel 6.1 "$f")
	row "diff --all 6.18/6.1, against 2 replays" "$d" "$r2" "$(ratio "$d" "$r2")"
	row "  default diff: lines" "$("$vmsim" diff --kernel 6.18 --kernel 6.1 "$f" 2>&1 | wc -l)" "" ""
	rp=$(cpu "$vmsim" report -o "$out/fam.html" "$f")
	row "report, against a replay; HTML bytes" "$rp" "$ra" "$(ratio "$rp" "$ra")"
	row "  HTML bytes" "$(wc -c <"$out/fam.html")" "" ""
	ex=$(cpu "$vmsim" explain "$f")
	row "explain, against a replay" "$ex" "$ra" "$(ratio "$ex" "$ra")"
	row "  explain bytes" "$("$vmsim" explain "$f" 2>/dev/null | wc -c)" "" ""
	mid=$(($(wc -l <"$f") / 2))
	a=$(printf 'goto %d\n' $mid | "$vmsim" step --timer --no-pictures "$f" 2>/dev/null |
		sed -n 's/^time: \([0-9.]*\) ms wall.*/\1/p' | tail -1)
	b=$(printf 'goto %d\n' $mid | VMSIM_STEP_CHECKPOINT_EVERY=0 "$vmsim" step --timer --no-pictures "$f" 2>/dev/null |
		sed -n 's/^time: \([0-9.]*\) ms wall.*/\1/p' | tail -1)
	row "step goto the middle, ms wall: ckpt / none" "$a" "$b" "$(ratio "$b" "$a")"
done
fi
exit 0
