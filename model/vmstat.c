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

int vmstat_find(const char *name, unsigned len)
{
	for (int i = 0; i < NR_VMSTAT_ITEMS; i++)
		if (strlen(vmstat_names[i]) == len && !memcmp(vmstat_names[i], name, len))
			return i;
	return -1;
}
