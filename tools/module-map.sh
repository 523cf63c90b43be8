#!/bin/sh
# module-map.sh - the module map of docs/architecture.md, from the headers'
# "Owns:" and "May call:" lines: one row per header of model/, sim/ and
# include/.  tests/docs/module_map.sh checks that docs/architecture.md holds
# exactly this table and that every unit includes only what its header
# says it may call (tools/module-deps.sh).
cd "$(dirname "$0")/.." || exit 1
field() { # field HEADER KEY: the KEY: paragraph of the header's first comment
	awk -v key="$2" '
		NR == 1, /\*\// {
			line = $0; sub(/^ *\/?\*+ ?/, "", line); sub(/ *\*\/ *$/, "", line)
			if (index(line, key ": ") == 1) { on = 1; text = substr(line, length(key) + 3); next }
			if (on && line ~ /^  /) { sub(/^ +/, "", line); text = text " " line; next }
			on = 0
		}
		END { print text }' "$1"
}
echo "| unit | owns | may call |"
echo "|---|---|---|"
for h in model/*.h sim/*/*.h include/*.h; do
	echo "| \`$h\` | $(field "$h" Owns) | $(field "$h" 'May call') |"
done
