#!/bin/sh
# module-deps.sh - for each header of model/, sim/ and include/, the
# project headers that the sources implementing it include (the unit's own
# header and alloc.h, which every unit may use, left out): one line
# "UNIT: DEP DEP ...".  A source implements the header of its own name;
# the others are listed here.  Used by tests/docs/module_map.sh and to
# write the "May call:" lines of the headers.
cd "$(dirname "$0")/.." || exit 1
owner() {
	case $1 in
	model/flagtab_data.c) echo model/flagtab.h ;;
	model/sem_*.c) echo model/semantics.h ;;
	model/*.c) [ -f "${1%.c}.h" ] && echo "${1%.c}.h" || echo model/internal.h ;;
	sim/cli/*.c) echo sim/cli/cmds.h ;;
	sim/replay/expect.c) echo sim/replay/apply.h ;;
	sim/lib/libvmsim.c) echo include/vmsim.h ;;
	sim/trace/trace_read.c | sim/trace/trace_write.c) echo sim/trace/trace.h ;;
	*) echo "${1%.c}.h" ;;
	esac
}
for h in model/*.h sim/*/*.h include/*.h; do
	u=$(basename "$h" .h)
	srcs=$h
	for c in model/*.c sim/*/*.c; do [ "$(owner "$c")" = "$h" ] && srcs="$srcs $c"; done
	deps=$(grep -h '^#include "' $srcs | sed 's/#include "\(.*\)\.h".*/\1/' | sort -u | grep -vx -e "$u" -e alloc | tr '\n' ' ')
	echo "$u: $deps" | sed 's/ *$//'
done
