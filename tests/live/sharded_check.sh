#!/bin/sh
# sharded_check.sh - a vmsim check campaign split into 4 shards by seed
# range and run through GNU parallel on this machine, then merged with
# `vmsim check-merge`: the report and the reproducers are byte for byte
# those of one run over the whole range.
vmsim=${VMSIM:-./vmsim}
case $vmsim in /*) ;; */*) vmsim=$(pwd)/$vmsim ;; *) vmsim=$(pwd)/$vmsim ;; esac
if ! command -v parallel >/dev/null 2>&1; then
	echo "SKIP: sharded campaign: GNU parallel is not installed (apt-get install parallel)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/one" "$tmp/sharded"
pass=0 fail=0
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
