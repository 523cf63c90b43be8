/* vmstat.c - counter names. */
#include "vmstat.h"

#include <string.h>

static const char *const vmstat_names[] = {
#define X(id, name) name,
	VMSTAT_ITEMS(X)
#undef X
};

const char *vmstat_name(enum vmstat_item i)
{
	return (unsigned)i < NR_VMSTAT_ITEMS ? vmstat_names[i] : "?";
}

/* The names 4.x prints for counters 6.x splits by type: mm/vmstat.c @ v4.4
 * has workingset_refault and workingset_activate, which count file pages
 * only (4.x keeps no shadows of anonymous pages). */
static const struct { const char *name; enum vmstat_item item; } aliases[] = {
	{ "workingset_refault", WORKINGSET_REFAULT_FILE },
	{ "workingset_activate", WORKINGSET_ACTIVATE_FILE },
};

int vmstat_find(const char *name, unsigned len)
{
	for (int i = 0; i < NR_VMSTAT_ITEMS; i++)
		if (strlen(vmstat_names[i]) == len && !memcmp(vmstat_names[i], name, len))
			return i;
	for (unsigned i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strlen(aliases[i].name) == len && !memcmp(aliases[i].name, name, len))
			return (int)aliases[i].item;
	return -1;
}
