/* sem_registry.c - the list of semantics and lookup by name or version. */
#include "semantics.h"

#include <stdlib.h>
#include <string.h>

extern const struct semantics sem_4_0, sem_lof_v1, sem_4_4, sem_6_1, sem_6_12, sem_6_18;
/* patches (SEM_PATCH in semantics.h): copies of their base made before main() */
extern struct semantics sem_vma_count_v3, sem_mremap_count, sem_6_18_dontunmap_fix;

const struct semantics *const semantics_all[] = {
	&sem_4_0, &sem_lof_v1, &sem_4_4, &sem_6_1, &sem_6_12, &sem_vma_count_v3,
	&sem_mremap_count, &sem_6_18, &sem_6_18_dontunmap_fix, NULL,
};

/*
 * A kernel version, "6.18.44" -> 61800, "5.10" -> 51000; 0 when the name
 * is not one.  Taken as versions: MAJOR.MINOR, and a release as uname -r
 * gives it - MAJOR.MINOR.PATCH with anything after ("6.18.44-fc-v1045",
 * "6.12.118+deb12-amd64") - or MAJOR.MINOR-rcN or MAJOR.MINOR+.  Not a
 * version: MAJOR.MINOR-WORD ("6.18-myfix"), which is how a patch's
 * semantics is named, so a mistyped patch name is an unknown kernel and
 * never the base kernel's answers.
 */
static unsigned version_order(const char *v)
{
	char *end;
	if (*v < '0' || *v > '9')
		return 0;
	unsigned long maj = strtoul(v, &end, 10);
	if (end == v || *end != '.' || end[1] < '0' || end[1] > '9')
		return 0;
	unsigned long min = strtoul(end + 1, &end, 10);
	if (maj > 99 || min > 99)
		return 0;
	if (*end == '.' && end[1] >= '0' && end[1] <= '9') {
		strtoul(end + 1, &end, 10); /* the patch level: a release, any suffix */
		if (*end && *end != '-' && *end != '+' && *end != '.' && *end != '_')
			return 0;
	} else if (*end == '-') {
		if (strncmp(end, "-rc", 3) || end[3] < '0' || end[3] > '9')
			return 0;
		strtoul(end + 3, &end, 10);
		if (*end)
			return 0;
	} else if (*end == '+') {
		if (end[1])
			return 0;
	} else if (*end) {
		return 0;
	}
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
