#!/bin/sh
# study-lof.sh [OUT.md] - regenerate the numbers of docs/studies/lock-on-fault.md:
# seed 001's benchmark, every strategy x pattern, run on this machine's real
# kernel by perf-baseline's eric (1 GiB of random data in /dev/shm, the
# access streams eric builds) and replayed by vmsim from the same program's
# call stream (tools/gen-trace.c gen munson), side by side; written to OUT
# (default: standard output) as markdown tables.  Needs ../shared/perf-baseline
# and root-free /dev/shm; takes a few minutes.  REPS (default 5) runs of each
# kernel program give the range of its fault count, which varies from run to
# run.  Then seed 002's minor-fault program (minflt) and seed 004's mplay,
# the same way (mplay needs a ~1 TB sparse file in /tmp and root for nothing).
vmsim=${VMSIM:-./vmsim}
out=build/study
mkdir -p $out || exit 1
cc=${CC:-cc}
pb=../shared/perf-baseline
[ -f $pb/eric.c ] || { echo "study-lof: no $pb (the real-kernel programs)" >&2; exit 2; }
[ -x $out/eric ] || $cc -O2 -o $out/eric $pb/eric.c || exit 1
[ -x $out/mkrand ] || $cc -O2 -o $out/mkrand $pb/mkrand.c || exit 1
[ -x $out/minflt ] || $cc -O2 -o $out/minflt $pb/minflt.c || exit 1
[ -x $out/mplay ] || $cc -O2 -o $out/mplay $pb/mplay.c || exit 1
reps=${REPS:-5}
gen=build/bench/gen-trace
mkdir -p build/bench
$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Imodel $(for d in sim/*/; do printf -- " -I%s" "${d%/}"; done) -o $gen tools/gen-trace.c \
	build/libvmsim-sim.a build/libvmsim-model.a -lm || exit 1
data=/dev/shm/vmsim-study-1g
[ -s $data ] || $out/mkrand $data 1024 || exit 1
exec 3>&1
[ -n "$1" ] && exec >"$1"
kv() { tr ' ' '\n' < "$1" | sed -n "s/^$2=//p" | head -1; }   # key=value of eric's line
js() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }

echo "| pattern | strategy | N | reads done: kernel | vmsim | ENOMEM results: kernel | vmsim | VMAs in the mapping: kernel | vmsim | VmLck kB: kernel | vmsim | faults: kernel ($reps runs) | vmsim | SIGSEGVs: kernel | vmsim | kernel ms (setup / reads) | vmsim replay |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for pat in stride random; do
	[ $pat = stride ] && n=150000 || n=3000000
	for st in locked mlock onfault each plain segv1 segv8 segv16; do
		echo "study-lof: $pat $st" >&3
		$out/eric -f $data -s $st -p $pat -n $n > $out/k.txt 2>/dev/null
		: > $out/kf.txt
		r=0
		while [ $r -lt $reps ]; do
			[ $r -gt 0 ] && $out/eric -f $data -s $st -p $pat -n $n > $out/k2.txt 2>/dev/null || cp $out/k.txt $out/k2.txt
			echo $(( $(kv $out/k2.txt setup_minflt) + $(kv $out/k2.txt setup_majflt) + $(kv $out/k2.txt proc_minflt) + $(kv $out/k2.txt proc_majflt) )) >> $out/kf.txt
			r=$((r + 1))
		done
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
		kflt=$(sort -n $out/kf.txt | sed -n '1p;$p' | paste -sd' ' | awk '{ print ($1 == $2) ? $1 : $1 "-" $2 }')
		echo "| $pat | $st | $n | $(kv $out/k.txt done) | $vdone | $kenomem | $venomem | $(kv $out/k.txt vmas_in) | $vmas | $(kv $out/k.txt vmlck_kb) | $vlck | $kflt | $vflt | $(kv $out/k.txt segv) | $vsegv | $(kv $out/k.txt setup_ms) / $(kv $out/k.txt proc_ms) | $vrate |"
	done
done

# --- seed 002: the minor-fault program -------------------------------------
# faults of the mmap() call and of the loop (the touch or pread loop), kernel
# (getrusage, less the program's own) against vmsim (replayed up to the
# markers gen-trace writes: `# setup-starts` is implied by the warm pass)
vfaults() {  # vmsim's getrusage faults of a trace
	"$vmsim" replay -q --stats=json "$1" | grep '"kind": "stats"' > $out/v.json
	js $out/v.json 'd["total"]["minor_faults"] + d["total"]["major_faults"]'
}
echo
echo "| mode | file | N | faults in mmap(): kernel | vmsim | faults in the loop: kernel | vmsim | kernel loop ns/page | vmsim replay |"
echo "|---|---|---|---|---|---|---|---|---|"
for w in "" warm; do
	for m in fault populate nonblock pread; do
		echo "study-lof: minflt $m $w" >&3
		$out/minflt -m $m ${w:+-W} -n 500000 > $out/k.txt 2>/dev/null
		$gen gen minflt $m $w 500000 > $out/t.trace
		nwarm=0
		[ -n "$w" ] && nwarm=$(grep -m1 -n '^munmap' $out/t.trace | cut -d: -f1)
		if [ $nwarm -gt 0 ]; then head -n $nwarm $out/t.trace > $out/t0.trace; v0=$(vfaults $out/t0.trace); else v0=0; fi
		sed '/^# setup-ends/q' $out/t.trace > $out/t1.trace
		v1=$(vfaults $out/t1.trace)
		v2=$(vfaults $out/t.trace)
		rate=$(js $out/v.json '"%.2f s" % d["wall_s"]')
		# minflt prints setup_minflt.. for the mmap() and loop_minflt.. for the loop
		ks=$(( $(kv $out/k.txt setup_minflt) + $(kv $out/k.txt setup_majflt) ))
		kl=$(( $(kv $out/k.txt loop_minflt) + $(kv $out/k.txt loop_majflt) ))
		echo "| $m | ${w:-fresh} | 500000 | $ks | $((v1 - v0)) | $kl | $((v2 - v1)) | $(kv $out/k.txt loop_ns_pp) | $rate |"
	done
done

# --- seed 004: mplay, stride 100 over a ~1 TB sparse ext4 file --------------
sparse=/tmp/pb-sparse-1t
[ -s $sparse ] || dd if=/dev/zero of=$sparse bs=1M count=1 seek=1024000 2>/dev/null
echo
echo "| variant | accesses | minor faults: kernel | vmsim | major faults: kernel | vmsim | the file's pages cached after: kernel (fincore, 3 runs) | vmsim | kernel ns/access | vmsim replay |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for v in cold random; do
	echo "study-lof: mplay $v" >&3
	: > $out/kr.txt
	r=0
	while [ $r -lt 3 ]; do  # what stays cached varies with the machine's other memory use
		$out/mplay -f $sparse -C $([ $v = random ] && echo -R) > $out/k.txt 2>/dev/null
		fincore -b -n -o PAGES $sparse 2>/dev/null | tr -d ' ' >> $out/kr.txt
		r=$((r + 1))
	done
	kres=$(sort -n $out/kr.txt | sed -n '1p;$p' | paste -sd' ' | awk '{ print ($1 == $2) ? $1 : $1 "-" $2 }')
	$gen gen mplay 100 1000000 $([ $v = random ] && echo random) > $out/t.trace
	"$vmsim" replay -q --stats=json $out/t.trace | grep '"kind": "stats"' > $out/v.json
	echo "| $v | 10001 | $(kv $out/k.txt loop_minflt) | $(js $out/v.json 'd["total"]["minor_faults"]') | $(kv $out/k.txt loop_majflt) | $(js $out/v.json 'd["total"]["major_faults"]') | ${kres:-?} | $(js $out/v.json 'd["page_cache_pages"]') | $(kv $out/k.txt ns_per_access) | $(js $out/v.json '"%.2f s" % d["wall_s"]') |"
done
$out/mplay -f $sparse -C > /dev/null 2>&1   # free the cached zeros
