#!/bin/sh
# study-lof.sh [OUT.md] - regenerate the numbers of docs/studies/lock-on-fault.md:
# seed 001's benchmark, every strategy x pattern, run on this machine's real
# kernel by perf-baseline's eric (1 GiB of random data in /dev/shm, the
# access streams eric builds) and replayed by vmsim from the same program's
# call stream (tools/gen-trace.c gen munson), side by side; written to OUT
# (default: standard output) as markdown tables.  Needs ../shared/perf-baseline
# and root-free /dev/shm; takes a few minutes.
vmsim=${VMSIM:-./vmsim}
out=build/study
mkdir -p $out || exit 1
cc=${CC:-cc}
pb=../shared/perf-baseline
[ -f $pb/eric.c ] || { echo "study-lof: no $pb (the real-kernel programs)" >&2; exit 2; }
[ -x $out/eric ] || $cc -O2 -o $out/eric $pb/eric.c || exit 1
[ -x $out/mkrand ] || $cc -O2 -o $out/mkrand $pb/mkrand.c || exit 1
gen=build/bench/gen-trace
mkdir -p build/bench
$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Imodel -Isim -o $gen tools/gen-trace.c \
	build/libvmsim-sim.a build/libvmsim-model.a -lm || exit 1
data=/dev/shm/vmsim-study-1g
[ -s $data ] || $out/mkrand $data 1024 || exit 1
exec 3>&1
[ -n "$1" ] && exec >"$1"
kv() { tr ' ' '\n' < "$1" | sed -n "s/^$2=//p" | head -1; }   # key=value of eric's line
js() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }

echo "| pattern | strategy | N | reads done: kernel | vmsim | ENOMEM results: kernel | vmsim | VMAs in the mapping: kernel | vmsim | VmLck kB: kernel | vmsim | faults: kernel | vmsim | SIGSEGVs: kernel | vmsim | kernel ms (setup / reads) | vmsim replay |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for pat in stride random; do
	[ $pat = stride ] && n=150000 || n=3000000
	for st in locked mlock onfault each plain segv1 segv8 segv16; do
		echo "study-lof: $pat $st" >&3
		$out/eric -f $data -s $st -p $pat -n $n > $out/k.txt 2>/dev/null
		other=$(( $(kv $out/k.txt vmas) - $(kv $out/k.txt vmas_in) ))
		$gen gen munson $st $pat $n 1024 42 $other > $out/t.trace
		"$vmsim" replay -q --stats=json $out/t.trace | grep '"kind": "stats"' > $out/v.json
		# a program that gives up at its first failed mprotect (segvN) stops
		# there: vmsim's state at that point is what compares
		p='d["processes"][0]'
		stop=$(js $out/v.json "'$st'.startswith('segv') and 'first_enomem_access' in $p")
		if [ "$stop" = True ]; then
			vdone=$(js $out/v.json "$p['first_enomem_access']")
			vmas=$(js $out/v.json "$p['vmas_at_first_enomem'] - $other")
			vlck=$(js $out/v.json "$p['VmLck_kB_at_first_enomem']")
			vsegv=$(js $out/v.json "$p['sigsegv_lines_at_first_enomem']")
			vflt=$(js $out/v.json "$p['faults_at_first_enomem']")
			venomem=1
		else
			vdone=$n
			vmas=$(js $out/v.json "$p['vmas'] - $other")
			vlck=$(js $out/v.json "$p['VmLck_kB']")
			venomem=$(js $out/v.json "$p['enomem']")
			vsegv=$(js $out/v.json "$p['sigsegv_lines']")
			vflt=$(js $out/v.json "$p['minor_faults'] + $p['major_faults']")
		fi
		vrate=$(js $out/v.json '"%.2f s" % d["wall_s"]')
		kenomem=$(kv $out/k.txt each_fail)
		[ "$(kv $out/k.txt enomem)" = 1 ] && [ "$kenomem" = 0 ] && kenomem=1
		kflt=$(( $(kv $out/k.txt setup_minflt) + $(kv $out/k.txt setup_majflt) + $(kv $out/k.txt proc_minflt) + $(kv $out/k.txt proc_majflt) ))
		echo "| $pat | $st | $n | $(kv $out/k.txt done) | $vdone | $kenomem | $venomem | $(kv $out/k.txt vmas_in) | $vmas | $(kv $out/k.txt vmlck_kb) | $vlck | $kflt | $vflt | $(kv $out/k.txt segv) | $vsegv | $(kv $out/k.txt setup_ms) / $(kv $out/k.txt proc_ms) | $vrate |"
	done
done
