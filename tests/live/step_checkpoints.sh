#!/bin/sh
# step_checkpoints.sh - vmsim step's checkpoints (sim/cli/checkpoint.h):
# back, goto and the drained views through checkpoint processes answer
# exactly what a replay from the start answers (the same bytes, text and
# JSON, with pictures), over traces of every kind, and with checkpoints so
# close (every event, every 2, every 3) that the thinning at 64 drops and
# re-spaces them; the session leaves no process and no directory behind;
# the exit status and a bad trace line are the same; a trace read from a
# pipe is copied and goes back as a file does.  Times are not tested here
# (make bench shows them).
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
G=traces/golden

# same NAME EVERY TRACE INPUT [OPTION...]: the output and exit status with
# checkpoints every EVERY events equal those without any
same() {
	name=$1 every=$2 trace=$3 input=$4
	shift 4
	VMSIM_STEP_CHECKPOINT_EVERY=0 "$vmsim" step "$@" "$trace" <"$input" >"$tmp/plain.out" 2>&1
	a=$?
	for how in memory fork; do
		TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINTS=$how VMSIM_STEP_CHECKPOINT_EVERY=$every \
			"$vmsim" step "$@" "$trace" <"$input" >"$tmp/ck.out" 2>&1
		b=$?
		if [ $a = $b ] && cmp -s "$tmp/plain.out" "$tmp/ck.out"; then ok; else
			bad "$name: with checkpoints ($how) every $every, exit $b and output differ from a replay from the start (exit $a)"
			diff "$tmp/plain.out" "$tmp/ck.out" | head -10
		fi
		# nothing left: the directory is removed by the supervisor
		if [ -z "$(ls -A "$tmp/ckdir")" ]; then ok; else bad "$name ($how): left $(ls "$tmp/ckdir")"; fi
	done
}
mkdir -p "$tmp/ckdir"

# a walk that goes back and forth over the whole trace
cat >"$tmp/walk.in" <<'EOF'
next 30
back 7
goto 40
next 3
back 25
show pages
goto 5
until call munlock
back 1
show lru
goto 100000
back 2
where
next
back 100000
next 2
goto 60
back
back
goto 29
goto 3
goto 100000
back 3
EOF
for t in tests/real-programs/mlock2_tests.trace $G/mlock/split-and-merge.trace \
	$G/rlimit/mlock-enomem.trace tests/real-programs/shm_lock.trace; do
	for every in 1 2 3 7; do
		same "$(basename $t)" $every $t "$tmp/walk.in" --no-pictures
	done
	same "$(basename $t) pictures" 2 $t "$tmp/walk.in" --width 100
	same "$(basename $t) json" 3 $t "$tmp/walk.in" --format json
done
# a trace of 460 KB, past the readers' 64 KiB blocks and stdio's buffer:
# a restore puts the file's offset back with the reader's buffer
awk 'BEGIN { print "# vmsim-trace: 1"; print "# kernel: 6.18"
	for (i = 0; i < 3000; i++) {
		a = 268435456 + i * 8192
		printf "mmap(0x%x, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x%x\n", a, a
		printf "mlock(0x%x, %d) = 0\n", a, 4096 * (1 + i % 2)
		if (i % 3 == 0) printf "munmap(0x%x, 4096) = 0\n", a
	} }' >"$tmp/big.trace"
printf 'goto 7000\nback 3000\nnext 2\ngoto 1000\nback 1\nnext 2500\ngoto 6800\ngoto 5\nnext 3000\nwhere\n' >"$tmp/big.in"
same "a trace past the readers' buffers" 100 "$tmp/big.trace" "$tmp/big.in" --no-pictures

# snapshots in memory within a budget (VMSIM_STEP_CHECKPOINT_MB) too
# small for a few: the ones a take cannot store are not taken, half of the
# others are dropped, and every answer is the same
for mb in 1 3; do
	for t in tests/real-programs/mlock2_tests.trace $G/mlock/split-and-merge.trace; do
		VMSIM_STEP_CHECKPOINT_EVERY=0 "$vmsim" step --no-pictures "$t" <"$tmp/walk.in" >"$tmp/plain.out" 2>&1
		VMSIM_STEP_CHECKPOINT_MB=$mb VMSIM_STEP_CHECKPOINT_EVERY=1 "$vmsim" step --no-pictures "$t" \
			<"$tmp/walk.in" >"$tmp/ck.out" 2>&1
		cmp -s "$tmp/plain.out" "$tmp/ck.out" && ok || bad "$(basename $t): snapshots in $mb MiB differ"
	done
done
# a long real trace: many thinnings (64 at most), each back through them
T=tests/real-programs/mlock2_tests.trace
n=$(VMSIM_STEP_CHECKPOINT_EVERY=0 "$vmsim" step --no-pictures $T </dev/null | wc -l)
: >"$tmp/long.in"
i=0
while [ $i -lt 40 ]; do
	printf 'next 17\nback %d\ngoto %d\n' $((i % 9 + 1)) $((i * 13 % 400)) >>"$tmp/long.in"
	i=$((i + 1))
done
same "many hand-overs" 1 $T "$tmp/long.in" --no-pictures

# a walk keeps only the event it ends at: next N that runs off the end
# still shows the last event (made again, kept, from a checkpoint or the
# start), with checkpoints and without
last=$(grep -c '' $T)
for every in 0 1 ""; do
	printf 'next 100000\nwhere\n' | TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINT_EVERY=$every \
		"$vmsim" step --no-pictures $T >"$tmp/end.out" 2>&1
	if grep -q "^end of trace after line $last$" "$tmp/end.out" &&
		grep -q "^$T:$last: [0-9]* *+++ exited with 0 +++$" "$tmp/end.out" && grep -q '^  => -$' "$tmp/end.out"; then
		ok
	else
		bad "next past the end (checkpoints '$every'): $(cat "$tmp/end.out")"
	fi
done

# the bad line of a bad trace, reached through a checkpoint: the same error
printf '# vmsim-trace: 1\n# kernel: 6.18\nmmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7ffff7ff0000\nmlock(0x7ffff7ff0000, 4096) = 0\nmunlock(0x7ffff7ff0000, 4096) = 0\nmlock(0x7ffff7ff0000, 4096) = 0\nmunlock(0x7ffff7ff0000 4096) = 0\n' >"$tmp/bad.trace"
printf 'next 3\nback 2\nnext 5\nback 1\n' >"$tmp/bad.in"
same "bad line" 1 "$tmp/bad.trace" "$tmp/bad.in" --no-pictures

# no process of the session outlives it: each carries a mark in its
# environment, looked for in every process's (other vmsim runs of the
# machine do not count)
mark="VMSIM_CKPT_TEST=$$.$(date +%s%N)"
env "$mark" TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINT_EVERY=1 "$vmsim" step --no-pictures $T <"$tmp/long.in" >/dev/null 2>&1
left=-1
for i in 1 2 3 4 5 6 7 8 9 10; do
	left=$(grep -l -a -F "$mark" /proc/[0-9]*/environ 2>/dev/null | wc -l)
	[ "$left" = 0 ] && break
	sleep 0.2
done
[ "$left" = 0 ] && ok || bad "$left processes of a session with checkpoints outlived it"

# --checkpoint-every and --timer
"$vmsim" step --checkpoint-every x $T </dev/null >"$tmp/o" 2>&1
[ $? = 2 ] && grep -q "checkpoint-every needs a number" "$tmp/o" && ok || bad "--checkpoint-every x: $(cat "$tmp/o")"
printf 'next 40\nback 3\n' | TMPDIR=$tmp/ckdir "$vmsim" step --checkpoint-every 8 --timer --no-pictures $T >"$tmp/o" 2>&1
[ "$(grep -c '^time: [0-9.]* ms wall, [0-9.]* ms CPU$' "$tmp/o")" = 2 ] && ok || bad "--timer: $(grep time "$tmp/o")"

# a trace read from a pipe is copied into an unlinked file of TMPDIR
# first: back and goto answer as for the file (a back through a pipe read
# the trace again from its end: "expected a syscall name" at 1:1), the
# messages name the pipe, nothing is left in TMPDIR
printf 'next 5\nback 2\n' >"$tmp/pipe.in"
for how in memory fork; do
	cat $T | TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINTS=$how \
		"$vmsim" step --no-pictures --width 400 /dev/fd/3 3<&0 <"$tmp/walk.in" >"$tmp/piped.out" 2>&1
	a=$?
	"$vmsim" step --no-pictures --width 400 $T <"$tmp/walk.in" 2>&1 | sed "s|$T|/dev/fd/3|g" >"$tmp/file.out"
	[ $a = 0 ] && cmp -s "$tmp/piped.out" "$tmp/file.out" && ok ||
		{ bad "a piped trace ($how, exit $a) differs from the file"; diff "$tmp/file.out" "$tmp/piped.out" | head -6; }
	[ -z "$(ls -A "$tmp/ckdir")" ] && ok || bad "a piped trace ($how) left $(ls "$tmp/ckdir")"
done
# "-": the trace on standard input, the commands from the terminal; with
# none (setsid: no controlling terminal) a message and exit 2
if command -v setsid >/dev/null 2>&1; then
	cat $T | setsid "$vmsim" step - >"$tmp/o" 2>&1
	[ $? = 2 ] && grep -q "no terminal for the commands" "$tmp/o" && ok || bad "step - without a terminal: $(cat "$tmp/o")"
fi
# a TMPDIR that cannot take the copy: a message naming it, exit 2
cat $T | TMPDIR=$tmp/none "$vmsim" step /dev/fd/3 3<&0 </dev/null >"$tmp/o" 2>&1
[ $? = 2 ] && grep -q "$tmp/none/vmsim-step-" "$tmp/o" && ok || bad "a piped trace, TMPDIR missing: $(cat "$tmp/o")"
if command -v strace >/dev/null 2>&1; then
	# and a file does: a hand-over (exit 77) for the back
	TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINTS=fork VMSIM_STEP_CHECKPOINT_EVERY=1 strace -f -e trace=exit_group -o "$tmp/exits" \
		"$vmsim" step --no-pictures $T <"$tmp/pipe.in" >/dev/null 2>&1
	grep -q 'exit_group(77)' "$tmp/exits" && ok || bad "back did not hand over to a checkpoint"
	# goto forward to an event's line stops before the event after it
	# (session_unread()): no walk one too far and back through a
	# checkpoint
	printf 'goto 40\ngoto 200\n' >"$tmp/fwd.in"
	TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINTS=fork VMSIM_STEP_CHECKPOINT_EVERY=1 strace -f -e trace=exit_group -o "$tmp/exits" \
		"$vmsim" step --no-pictures $T <"$tmp/fwd.in" >"$tmp/fwd.out" 2>&1
	grep -q 'exit_group(77)' "$tmp/exits" && bad "goto forward handed over to a checkpoint" || ok
	grep -q "^$T:200: " "$tmp/fwd.out" && ok || bad "goto 200: $(tail -3 "$tmp/fwd.out")"
	# near checkpoints (checkpoint.h) on the way: 32, 4 and 1 lines before
	# the goto's line, and one event before a back's destination, so that
	# each back hands over to the event it wants or a few before it
	printf 'goto 200\nback\nback\n' >"$tmp/near.in"
	TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINTS=fork strace -f -e trace=mknodat -o "$tmp/mk" \
		"$vmsim" step --no-pictures $T <"$tmp/near.in" >"$tmp/near.out" 2>&1
	for l in 168 196 199 197; do
		grep -q "/n[0-9]*-$l\"" "$tmp/mk" && ok || bad "no near checkpoint at line $l: $(grep -o '/[cn][0-9-]*"' "$tmp/mk" | tr '\n' ' ')"
	done
	grep -q "^$T:198: " "$tmp/near.out" && ok || bad "goto 200, back, back: $(tail -3 "$tmp/near.out")"
	# at most CKPT_NEAR (12) of them at a time, over many commands
	TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINTS=fork VMSIM_STEP_CHECKPOINT_EVERY=100000 strace -f -e trace=mknodat,unlink -o "$tmp/mk" \
		"$vmsim" step --no-pictures $T <"$tmp/long.in" >/dev/null 2>&1
	most=$(awk 'match($0, /\/n[0-9]+-[0-9]+"/) { f = substr($0, RSTART, RLENGTH) }
		/mknodat\(.*\/n[0-9]+-[0-9]+"/ { if (!(f in live)) { live[f]; n++ } if (n > m) m = n }
		/unlink\(".*\/n[0-9]+-[0-9]+"/ { if (f in live) { delete live[f]; n-- } }
		END { print m + 0 }' "$tmp/mk")
	made=$(grep -c 'mknodat(.*/n[0-9]*-[0-9]*"' "$tmp/mk")
	[ "$most" -le 12 ] && [ "$made" -gt 24 ] && ok || bad "near checkpoints: $made made, $most at once (at most 12)"
	# snapshots in memory (the default, snapshot.h): one process, whose
	# only clone is the thread that readies the storage; every back a
	# restore in it (the back 7 of pipe.in needs the one at the start)
	TMPDIR=$tmp/ckdir VMSIM_STEP_CHECKPOINT_EVERY=1 strace -f -e trace=clone,clone3,fork,vfork,brk -o "$tmp/mem" \
		"$vmsim" step --no-pictures $T <"$tmp/pipe.in" >"$tmp/mem.out" 2>&1
	threads=$(grep -c 'clone.*CLONE_THREAD' "$tmp/mem")
	procs=$(grep -E 'clone|fork' "$tmp/mem" | grep -vc CLONE_THREAD)
	[ "$threads" = 1 ] && [ "$procs" = 0 ] && ok || bad "memory snapshots: $threads threads, $procs processes made"
	grep -q "^$T:[0-9]*: " "$tmp/mem.out" && ok || bad "memory snapshots: $(tail -3 "$tmp/mem.out")"
else
	echo "SKIP: no strace: which processes a session makes is not checked"
fi

# the history and the repeated command going with the session on a
# terminal: step_tmux.sh (its `back 1` hands over to the checkpoint at the
# start, then Up Up and an empty line are checked)
# the user's vmsim step killed while fork checkpoints are alive (TERM,
# HUP, INT, and KILL, which the copies learn by their death signal):
# nothing is left in TMPDIR (a vmsim-ckpt.* directory with its FIFOs was)
for sig in TERM HUP INT KILL; do
	mkdir -p "$tmp/kill-$sig"
	(sleep 1; echo "goto 40"; sleep 4) | TMPDIR=$tmp/kill-$sig VMSIM_STEP_CHECKPOINTS=fork \
		VMSIM_STEP_CHECKPOINT_EVERY=5 "$vmsim" step $G/mlock/mlock2-flags.trace >/dev/null 2>&1 &
	sup=$!
	sleep 2
	kill -$sig $sup 2>/dev/null
	wait $sup 2>/dev/null
	sleep 1
	if [ -z "$(ls -A "$tmp/kill-$sig")" ]; then ok; else bad "killed by SIG$sig: left $(ls "$tmp/kill-$sig")"; fi
done

# the environment that tunes the checkpoints: a bad value is an error
# naming the variable, exit 2, before anything runs (-1, abc and values
# whose MiB wrap when shifted were taken without a word)
for kv in VMSIM_STEP_CHECKPOINT_MB=-1 VMSIM_STEP_CHECKPOINT_MB=abc VMSIM_STEP_CHECKPOINT_MB=0 \
	VMSIM_STEP_CHECKPOINT_MB=18446744073709551615 VMSIM_STEP_CHECKPOINT_MB=17592186044417 \
	VMSIM_STEP_CHECKPOINT_EVERY=x VMSIM_STEP_CHECKPOINTS=disk; do
	echo q | env "$kv" "$vmsim" step $G/mlock/mlock2-flags.trace >/dev/null 2>"$tmp/env.err"
	rc=$?
	if [ $rc = 2 ] && grep -q "^vmsim step: ${kv%%=*} '" "$tmp/env.err"; then ok; else
		bad "$kv: exit $rc, $(head -n 1 "$tmp/env.err")"; fi
done
echo q | VMSIM_STEP_CHECKPOINT_MB=64 "$vmsim" step $G/mlock/mlock2-flags.trace >/dev/null 2>&1 && ok ||
	bad "VMSIM_STEP_CHECKPOINT_MB=64 refused"
finish step_checkpoints
