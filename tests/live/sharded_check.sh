#!/bin/sh
# sharded_check.sh - a vmsim check campaign split into 4 shards by seed
# range and run through GNU parallel on this machine, then merged with
# `vmsim check-merge`: the report and the reproducers are byte for byte
# those of one run over the whole range.
vmsim=${VMSIM:-./vmsim}
case $vmsim in /*) ;; */*) vmsim=$(pwd)/$vmsim ;; *) vmsim=$(pwd)/$vmsim ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
# check-merge refuses what no campaign wrote, FILE:LINE:COL and exit 2: a
# shard given twice (its runs counted twice), text after a shard's end,
# a count of violating runs beyond its runs (2^64-1 was taken), steps
# overwritten with 0xff bytes (reproducers of "-1 ?() = -1" were written)
mkdir -p "$tmp/bad"
(cd "$tmp/bad" && "$vmsim" check --kernel 6.1 --seed 1 --runs 64 --out s1 --shard sh.1 >/dev/null 2>&1
	"$vmsim" check --kernel 6.1 --seed 65 --runs 64 --out s2 --shard sh.2 >/dev/null 2>&1
	cp sh.2 sh.garbage && echo garbage >> sh.garbage
	sed 's/^inv \([a-z-]*\) [0-9]*/inv \1 18446744073709551615/' sh.1 > sh.count
	awk '/^step / { s = "step "; for (i = 6; i < length($0); i += 2) s = s "ff"; print s; next } { print }' sh.1 > sh.ff)
bad_merge() { # what shards... : exit 2 and the message
	what=$1; shift
	out=$(cd "$tmp/bad" && "$vmsim" check-merge --out m "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc = 2 ] && printf '%s' "$out" | grep -q "$what"; then pass=$((pass + 1)); echo "ok: check-merge $*: $out"
	else fail=$((fail + 1)); echo "FAIL: check-merge $*: exit $rc, $out (wanted '$what')"; fi
}
if grep -q '^step ' "$tmp/bad/sh.1"; then
	bad_merge "given twice" sh.1 sh.1
	bad_merge "sh.garbage:[0-9]*:1: error: text after the shard's end" sh.1 sh.garbage
	bad_merge "sh.count:[0-9]*:1: error: an invariant's count or seed outside" sh.count sh.2
	bad_merge "sh.ff:[0-9]*:1: error: a reproducer step that no run" sh.ff sh.2
	if (cd "$tmp/bad" && "$vmsim" check-merge --out m sh.1 sh.2 >/dev/null 2>&1) || [ $? = 1 ]; then
		pass=$((pass + 1)); echo "ok: the same shards, well formed, merge"
	else fail=$((fail + 1)); echo "FAIL: the well-formed shards do not merge"; fi
else
	fail=$((fail + 1)); echo "FAIL: the 6.1 shard of seeds 1-64 holds no reproducer to corrupt"
fi
if ! command -v parallel >/dev/null 2>&1; then
	echo "SKIP: sharded campaign: GNU parallel is not installed (apt-get install parallel)"
	echo "sharded_check: $pass passed, $fail failed"
	[ $fail -eq 0 ]
	exit
fi
mkdir -p "$tmp/one" "$tmp/sharded"
for k in lof-v1 6.18; do
	(cd "$tmp/one" && "$vmsim" check --kernel $k --seed 1 --runs 256 --out repro-$k > report-$k.txt)
	(cd "$tmp/sharded" && parallel --will-cite -j 2 "$vmsim" check --kernel $k --seed {} --runs 64 \
		--out scratch-{} --shard shard-$k.{} ::: 1 65 129 193
		# (a shard that found a violation exits 1, as check does)
		"$vmsim" check-merge --out repro-$k shard-$k.* > report-$k.txt)
	if cmp -s "$tmp/one/report-$k.txt" "$tmp/sharded/report-$k.txt" &&
	   diff -r "$tmp/one/repro-$k" "$tmp/sharded/repro-$k" >/dev/null; then
		pass=$((pass + 1)); echo "ok: $k: 4 shards through GNU parallel merge to the single run's report ($(grep -c . "$tmp/one/report-$k.txt") lines) and reproducers"
	else
		fail=$((fail + 1)); echo "FAIL: $k: merged shards differ from one run:"; diff "$tmp/one/report-$k.txt" "$tmp/sharded/report-$k.txt" | head
	fi
done
echo "sharded_check: $pass passed, $fail failed"
[ $fail -eq 0 ]
