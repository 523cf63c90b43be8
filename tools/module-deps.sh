#!/bin/sh
# module-deps.sh - for each header of model/, sim/ and include/, the
# project headers that the sources implementing it include (the unit's own
# header and alloc.h, which every unit may use, left out): one line
# "UNIT: DEP DEP ...".  A source implements the header of its own name,
# else (sim/) its folder's header, sim/DIR/DIR.h; the others are listed
# here.  Used by tests/docs/module_map.sh and to
# write the "May call:" lines of the headers.
cd "$(dirname "$0")/.." || exit 1
owner() {
	case $1 in
	model/flagtab_data.c) echo model/flagtab.h ;;
	model/sem_*.c) echo model/semantics.h ;;
	model/*.c) [ -f "${1%.c}.h" ] && echo "${1%.c}.h" || echo model/internal.h ;;
	sim/lib/*.c) echo include/vmsim.h ;;
	sim/*/*.c) # its own private header, else its folder's: sim/DIR/DIR.h
		if [ -f "${1%.c}.h" ]; then echo "${1%.c}.h"; else d=${1%/*}; echo "$d/${d##*/}.h"; fi ;;
	esac
}
for h in model/*.h sim/*/*.h include/*.h; do
	u=$(basename "$h" .h)
	srcs=$h
	for c in model/*.c sim/*/*.c; do [ "$(owner "$c")" = "$h" ] && srcs="$srcs $c"; done
	deps=$(grep -h '^#include "' $srcs | sed 's/#include "\(.*\)\.h".*/\1/' | sort -u | grep -vx -e "$u" -e alloc | tr '\n' ' ')
	echo "$u: $deps" | sed 's/ *$//'
done
