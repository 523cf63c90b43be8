#!/bin/sh
# exhaustive.sh - vmsim check --exhaustive over the default alphabet
# (sim/checker/check_exhaustive.c, docs/invariants.md "Exhaustive"):
# on lof-v1 it breaks every invariant the sampled campaigns broke
# (traces/findings/lof-v1-*.trace), each at a depth no longer than the
# sampled reproducer, and each reproducer replays to its invariant; on
# 6.1 and 6.18 every invariant sampling never broke holds to depth 5; two
# shards merge into the single run's verdicts and reproducers; the JSON
# has the kinds docs/json.md names; a --call alphabet works.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=$PWD/$vmsim ;; esac
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# lof-v1: every sampled finding, no deeper than its reproducer
"$vmsim" check --exhaustive --kernel lof-v1 --depth 4 --out "$tmp/lof" -q > "$tmp/lof.txt" 2>&1
[ $? = 1 ] && ok || bad "lof-v1: exit not 1: $(tail -3 "$tmp/lof.txt")"
for f in traces/findings/lof-v1-*.trace; do
	inv=$(basename "$f" .trace); inv=${inv#lof-v1-}
	len=$(grep -cv '^#' "$f")
	d=$(sed -n "s/^  $inv: broken at depth \([0-9]*\):.*/\1/p" "$tmp/lof.txt")
	if [ -n "$d" ] && [ "$d" -le "$len" ]; then ok
	else bad "lof-v1 $inv: depth '${d:-none}', the sampled reproducer has $len events"; fi
	r="$tmp/lof/lof-v1-exhaustive-$inv.trace"
	if "$vmsim" replay --check-invariants "$r" 2>&1 | grep -q "$inv"; then ok
	else bad "$r does not replay to $inv"; fi
done
# 6.1 and 6.18: what sampling never broke holds to depth 5
for k in 6.1 6.18; do
	"$vmsim" check --exhaustive --kernel $k --depth 5 --out "$tmp/$k" -q > "$tmp/$k.txt" 2>&1
	for inv in locked-vm-accounting locked-vm-range rlimit-memlock unlock-complete fork-no-inherit \
		   onfault-no-prefault locked-never-reclaimed mlocked-pages lru-consistent vma-tree locked-madvise; do
		[ -f "traces/findings/$k-$inv.trace" ] && continue
		if grep -q "^  $inv: holds for every sequence up to depth 5" "$tmp/$k.txt"; then ok
		else bad "$k $inv: $(grep "^  $inv:" "$tmp/$k.txt")"; fi
	done
	grep -q "^explored: every sequence up to depth 5: [0-9]* distinct states, [0-9]* transitions" "$tmp/$k.txt" && ok ||
		bad "$k: no explored line: $(tail -2 "$tmp/$k.txt")"
done
# two shards merge into the single run
for i in 1 2; do
	"$vmsim" check --exhaustive --kernel lof-v1 --depth 4 --shard $i/2 --out "$tmp/sh" -q 2>/dev/null
done
"$vmsim" check-merge --out "$tmp/merged" "$tmp"/sh/*.shard > "$tmp/m.txt" 2>&1
grep -v '^explored\|^(merged\|^  ' "$tmp/lof.txt" > "$tmp/a"; grep -v '^explored\|^(merged\|^  ' "$tmp/m.txt" > "$tmp/b"
sed -n 's/^  \([a-z-]*: [a-z]* .* depth [0-9]*\).*/\1/p' "$tmp/lof.txt" > "$tmp/va"
sed -n 's/^  \([a-z-]*: [a-z]* .* depth [0-9]*\).*/\1/p' "$tmp/m.txt" > "$tmp/vb"
if cmp -s "$tmp/a" "$tmp/b" && cmp -s "$tmp/va" "$tmp/vb" && [ -s "$tmp/va" ] && diff -r "$tmp/lof" "$tmp/merged" >/dev/null; then ok
else bad "2 shards do not merge into the single run: $(diff "$tmp/va" "$tmp/vb" | head -5)"; fi
"$vmsim" check-merge --out "$tmp/m1" "$tmp/sh/exhaustive-lof-v1-1-of-2.shard" > /dev/null 2>"$tmp/e"
[ $? = 2 ] && grep -q "part 2 of 2 is missing" "$tmp/e" && ok || bad "a missing shard: $(cat "$tmp/e")"
# JSON
"$vmsim" check --exhaustive --kernel 6.18 --depth 3 --format json --out "$tmp/j" -q > "$tmp/j.jsonl" 2>/dev/null
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
inv = [o for o in objs if o["kind"] == "invariant"]
s = [o for o in objs if o["kind"] == "summary"]
assert len(inv) == 11 and all({"name", "status"} <= o.keys() for o in inv), inv
assert len(s) == 1 and s[0]["mode"] == "exhaustive" and s[0]["states"] > 0 and s[0]["reached"] == 3, s
' "$tmp/j.jsonl" && ok || bad "JSON: $(head -c 300 "$tmp/j.jsonl")"
fi
# an alphabet of its own: MAP_LOCKED beyond the limit, then munlock
"$vmsim" check --exhaustive --kernel 6.18 --depth 3 --out "$tmp/c" -q \
	--call 'mmap(0x100000000, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED|MAP_LOCKED, -1, 0) = ?' \
	--call 'munlock(0x100000000, 4096) = ?' > "$tmp/c.txt" 2>&1
grep -q "^vmsim check --exhaustive: kernel 6.18, arch x86_64, depth 3, 2 calls (the alphabet given)" "$tmp/c.txt" &&
	grep -q "^  unlock-complete: holds for every sequence up to depth 3" "$tmp/c.txt" && ok ||
	bad "--call alphabet: $(cat "$tmp/c.txt" | head -5)"
"$vmsim" check --exhaustive --kernel 6.18 --call 'openat(AT_FDCWD, "/x", O_RDONLY) = 3' 2> "$tmp/e" >/dev/null
[ $? = 2 ] && grep -q "path or string argument" "$tmp/e" && ok || bad "a path in the alphabet: $(cat "$tmp/e")"
# --shard I/N exactly (sscanf took 1/8/8 as 1/8 and wrapped 2^64+1): exit 2
for a in 1/18446744073709551617 1/8/8 0/3 3/2 /3 1/ -1/3; do
	"$vmsim" check --exhaustive --kernel 6.18 --depth 1 --shard "$a" -q -o "$tmp/bad.shard" >/dev/null 2>"$tmp/err"
	[ $? = 2 ] && grep -q "takes I/N" "$tmp/err" && [ ! -e "$tmp/bad.shard" ] && ok || bad "--shard $a: $(cat "$tmp/err")"
done
# --max-map-count: the machine's limit, kept in a shard
"$vmsim" check --exhaustive --kernel 6.12 --depth 3 --max-map-count 5 -q --out "$tmp/mm" > "$tmp/mm.txt" 2>&1
grep -q "max-map-count 5" "$tmp/mm.txt" && ok || bad "--max-map-count 5 not in the report: $(head -c 200 "$tmp/mm.txt")"
"$vmsim" check --exhaustive --kernel 6.12 --depth 1 --max-map-count 0 -q --out "$tmp/mm" >/dev/null 2>&1
[ $? = 2 ] && ok || bad "--max-map-count 0 accepted"
"$vmsim" check --exhaustive --kernel 6.12 --depth 2 --max-map-count 7 --shard 1/1 -q -o "$tmp/m.shard" >/dev/null 2>&1
grep -q "^max-map-count 7$" "$tmp/m.shard" && ok || bad "the shard does not keep --max-map-count"
echo "exhaustive: $pass passed, $fail failed"
[ $fail -eq 0 ]
