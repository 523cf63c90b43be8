#!/bin/sh
# live_corpus.sh - every recording of traces/live/ (made inside booted
# kernels by tools/kernels/record-corpus, kept xz-compressed) replays with
# zero divergences under the semantics its header names, and with the
# model's own invariants checked (--check-invariants).  Which kernel made
# each, and how: traces/live/README.md.
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
if ! command -v xz >/dev/null 2>&1; then
	echo "SKIP: xz is not installed (Debian: xz-utils)"
	finish live_corpus
fi
n=0
for f in $(find traces/live -name '*.trace.xz' | sort); do
	n=$((n + 1))
	t=$tmp/$(basename "$f" .xz)
	if ! xz -dc "$f" > "$t"; then
		bad "$f: xz cannot read it"
		continue
	fi
	if out=$("$vmsim" replay -q --check-invariants "$t" 2>&1); then ok
	else bad "$f: $(printf '%s' "$out" | grep -m2 -E 'divergence|error|invariant' | tr '\n' ' ')"; fi
	rm -f "$t"
done
[ $n -ge 652 ] && ok || bad "only $n recordings under traces/live (652 expected)"
echo "live_corpus: $n recordings replayed"
finish live_corpus
