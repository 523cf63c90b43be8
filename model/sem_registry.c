/* sem_registry.c - the list of semantics and lookup by name or version. */
#include "semantics.h"

#include <stdlib.h>
#include <string.h>

extern const struct semantics sem_4_0, sem_lof_v1, sem_4_4, sem_6_1, sem_6_18;

const struct semantics *const semantics_all[] = {
	&sem_4_0, &sem_lof_v1, &sem_4_4, &sem_6_1, &sem_6_18, NULL,
};

/* "6.18.44" -> 61844, "5.10" -> 51000; 0 when not a version */
static unsigned version_order(const char *v)
{
	char *end;
	if (*v < '0' || *v > '9')
		return 0;
	unsigned long maj = strtoul(v, &end, 10);
	if (end == v || *end != '.' || end[1] < '0' || end[1] > '9')
		return 0;
	unsigned long min = strtoul(end + 1, &end, 10);
	/* "6.18", "6.18.44", "6.18.44-fc-v1045", "5.10+" */
	if (maj > 99 || min > 99 || (*end && *end != '.' && *end != '-' && *end != '+'))
		return 0;
	return (unsigned)(maj * 10000 + min * 100);
}

const struct semantics *semantics_find(const char *name)
{
	if (!strncmp(name, "test-", 5)) /* test-only semantics (sem_test.c) */
		return semantics_test_find(name);
	for (unsigned i = 0; semantics_all[i]; i++)
		if (!strcmp(semantics_all[i]->name, name))
			return semantics_all[i];
	unsigned want = version_order(name);
	if (!want)
		return NULL;
	const struct semantics *best = NULL;
	for (unsigned i = 0; semantics_all[i]; i++) {
		const struct semantics *s = semantics_all[i];
		/* patch semantics (non-numeric names) are never chosen by version */
		if (!version_order(s->name))
			continue;
		if (s->order <= want && (!best || s->order > best->order))
			best = s;
	}
	return best;
}
