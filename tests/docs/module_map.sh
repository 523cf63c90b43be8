#!/bin/sh
# module_map.sh - every header of model/, sim/ and include/ opens with
# "Owns:" and "May call:"; every unit includes only project headers its
# "May call:" names (tools/module-deps.sh; alloc.h is free for all); and
# docs/architecture.md's module map is the table tools/module-map.sh makes from
# the headers.
. "$(dirname "$0")/../lib/suite.sh"
sh tools/module-map.sh > "$tmp/map" || exit 1
for h in model/*.h sim/*/*.h include/*.h; do
	row=$(grep -F "| \`$h\` |" "$tmp/map")
	owns=$(echo "$row" | awk -F' [|] ' '{print $2}')
	may=$(echo "$row" | awk -F' [|] ' '{print $3}' | sed 's/ |$//')
	[ -n "$owns" ] && ok || bad "$h: no 'Owns:' line in its first comment"
	[ -n "$may" ] && ok || { bad "$h: no 'May call:' line in its first comment"; continue; }
	# the names it may call, parenthesised remarks dropped
	echo "$may" | sed 's/([^)]*)//g; s/[.,]/ /g' | tr ' ' '\n' | grep -v '^$' | sort -u > "$tmp/may"
	u=$(basename "$h" .h)
	sh tools/module-deps.sh | grep "^$u:" | sed 's/^[^:]*://' | tr ' ' '\n' | grep -v '^$' | sort -u > "$tmp/uses"
	extra=$(comm -23 "$tmp/uses" "$tmp/may" | tr '\n' ' ')
	[ -z "$extra" ] && ok || bad "$h: its sources include $extra- not in its 'May call:'"
done
awk '/<!-- module-map begin -->/{on=1; next} /<!-- module-map end -->/{on=0} on' docs/architecture.md > "$tmp/doc"
if cmp -s "$tmp/doc" "$tmp/map"; then ok; else
	bad "docs/architecture.md's module map is not the headers' (regenerate with sh tools/module-map.sh):"
	diff "$tmp/doc" "$tmp/map" | head -10
fi
finish module_map
