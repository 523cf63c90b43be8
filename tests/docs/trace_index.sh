#!/bin/sh
# trace_index.sh - traces/README.md indexes every trace exactly once, names
# only files that exist, cites a kernel function as FILE:FUNC() @ vVERSION
# (or an arch header), and names a model function defined where it says;
# docs/fidelity.md names only traces that exist, and every trace cut at a
# divergence (a golden trace with a "# seed:" line) is one of its entries.
. "$(dirname "$0")/../lib/suite.sh"

# rows: | [NAME](PATH) | rule | `kernel` | `model/FILE.c:FUNC()` |
grep '^| \[' traces/README.md | awk -F' [|] ' '{
	link = $1; sub(/^[|] /, "", link)
	path = link; sub(/^[^(]*[(]/, "", path); sub(/[)].*$/, "", path)
	k = $3; gsub(/`/, "", k); m = $4; gsub(/`/, "", m); sub(/ [|]$/, "", m)
	print path "\t" $2 "\t" k "\t" m
}' > "$tmp/rows"
[ -s "$tmp/rows" ] && ok || bad "traces/README.md has no index rows"

# every trace is indexed exactly once, and every indexed file exists
(cd traces && find . \( -name '*.trace' -o -name '*.strace' \) | sed 's|^\./||' | sort) > "$tmp/files"
cut -f1 "$tmp/rows" | sort > "$tmp/indexed"
missing=$(comm -23 "$tmp/files" "$tmp/indexed")
[ -z "$missing" ] && ok || bad "not in traces/README.md: $(echo $missing)"
ghost=$(comm -13 "$tmp/files" "$tmp/indexed" | sort -u)
[ -z "$ghost" ] && ok || bad "traces/README.md names files that do not exist: $(echo $ghost)"
dups=$(uniq -d "$tmp/indexed")
[ -z "$dups" ] && ok || bad "indexed twice: $(echo $dups)"
# no trace sits loose in traces/golden/: each belongs to a concept folder
loose=$(find traces/golden -maxdepth 1 -name '*.trace')
[ -z "$loose" ] && ok || bad "file under a concept in traces/golden/<concept>/: $(echo $loose)"

# each row: a rule, a kernel citation, a model function defined in its file
while IFS='	' read -r path rule k m; do
	[ -n "$rule" ] || bad "$path: no rule"
	case $k in
	*.[ch]:*"() @ v"[0-9]* | arch/*" @ v"[0-9]*) ok ;;
	*) bad "$path: kernel function '$k' is not FILE:FUNC() @ vVERSION" ;;
	esac
	file=${m%%:*} fn=${m#*:}; fn=${fn%"()"}
	if [ -f "$file" ] && grep -qE "^[a-z].*[ *]$fn\(" "$file"; then ok
	else bad "$path: model function $m is not defined in $file"; fi
done < "$tmp/rows"

# docs/fidelity.md: every trace it names exists; every cut recording is in it
for t in $(grep -oE 'traces/[a-z0-9./_-]+\.s?trace' docs/fidelity.md | sort -u); do
	[ -f "$t" ] && ok || bad "docs/fidelity.md names $t, which does not exist"
done
for t in $(grep -l '^# seed: ' $(find traces/golden -name '*.trace') | grep -v '/random/'); do
	grep -qF "$t" docs/fidelity.md && ok || bad "$t (cut at a divergence) has no entry in docs/fidelity.md"
done
# no lab notebook left in docs/
old=$(ls -d docs/triage* docs/handtests* 2>/dev/null)
[ -z "$old" ] && ok || bad "per-round files in docs/: $(echo $old)"

finish trace_index
