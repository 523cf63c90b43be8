/* prop_flagtab.c - properties of every arch x kernel x kind flag table:
 * decode and encode are inverses, bit names do not share bits (except the
 * documented overlaps below), enumerated values are distinct. */
#include "flagtab.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const families[] = {
	"generic", "x86", "arm64", "alpha", "mips", "parisc", "powerpc",
	"sparc", "xtensa", "tile", NULL
};

/* Documented overlaps between canonical bit names: none known among the
 * generated canonical names (aliases such as MAP_RENAME = MAP_ANONYMOUS,
 * tile MAP_STACK = MAP_GROWSDOWN, VM_ARCH_1 = VM_PAT carry alias_of).
 * MAP_UNINITIALIZED (bit 26) lies inside the MAP_HUGE_* size field
 * (bits 26..31): that field is an enumerated field, not a bit, so it is
 * checked separately and allowed here. */
static const char *const bit_in_field_ok[] = { "MAP_UNINITIALIZED", NULL };

static uint64_t rng = 0x9e3779b97f4a7c15ULL; /* fixed seed: deterministic */
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int listed(const char *n, const char *const *l)
{
	for (; *l; l++)
		if (!strcmp(n, *l))
			return 1;
	return 0;
}

static int ntables;

static void check_table(const struct flag_table *t)
{
	char buf[1024];
	ntables++;
	for (size_t i = 0; i < t->nentries; i++) {
		const struct flag_entry *a = &t->entries[i];
		uint64_t v;
		/* every name, alias or not, looks up to its own value */
		CU_ASSERT(flagtab_lookup(t, a->name, strlen(a->name), &v) == 0 &&
			  v == a->value);
		if (a->alias_of)
			continue;
		for (size_t j = i + 1; j < t->nentries; j++) {
			const struct flag_entry *b = &t->entries[j];
			if (b->alias_of)
				continue;
			CU_ASSERT(strcmp(a->name, b->name) != 0);
			if (!a->field && !b->field && (a->value & b->value)) {
				fprintf(stderr, "%s %s %s: %s and %s share bits\n",
					t->arch, t->kernel, flagtab_kind_name(t->kind),
					a->name, b->name);
				CU_FAIL("two bit names share a bit");
			}
			if (a->field && a->field == b->field && a->value == b->value)
				CU_FAIL("enumerated values not distinct");
			const struct flag_entry *f = a->field ? a : b, *bit = a->field ? b : a;
			if (f->field && !bit->field && (f->field & bit->value) &&
			    f->field != UINT64_MAX && !listed(bit->name, bit_in_field_ok)) {
				fprintf(stderr, "%s %s: %s inside field of %s\n",
					t->arch, t->kernel, bit->name, f->name);
				CU_FAIL("bit inside an enumerated field");
			}
		}
	}
	for (int round = 0; round < 300; round++) {
		/* a value built from names: decode gives those names back in
		 * some order, and encode gives the value back */
		uint64_t v = 0, fields = 0;
		for (size_t i = 0; i < t->nentries; i++) {
			const struct flag_entry *e = &t->entries[i];
			if (e->alias_of || !(rnd() & 1))
				continue;
			if (e->field) {
				if (e->field & fields)
					continue;
				fields |= e->field;
			} else if (e->value & fields) {
				continue;
			}
			v |= e->value;
		}
		uint64_t back;
		size_t bad, n = flagtab_decode(t, v, buf, sizeof buf);
		CU_ASSERT_FATAL(n < sizeof buf);
		CU_ASSERT(flagtab_encode(t, buf, n, &back, &bad) == 0);
		if (back != v)
			fprintf(stderr, "%s %s %s: %#llx -> %s -> %#llx\n", t->arch,
				t->kernel, flagtab_kind_name(t->kind),
				(unsigned long long)v, buf, (unsigned long long)back);
		CU_ASSERT(back == v);
		CU_ASSERT(strstr(buf, "0x") == NULL || !v); /* all known names */

		/* any 64-bit value, unknown bits included */
		uint64_t r = round < 64 ? 1ULL << round : rnd() >> (rnd() & 63);
		n = flagtab_decode(t, r, buf, sizeof buf);
		CU_ASSERT_FATAL(n < sizeof buf);
		CU_ASSERT(flagtab_encode(t, buf, n, &back, &bad) == 0);
		CU_ASSERT(back == r);
	}
}

static void test_all_tables(void)
{
	for (size_t f = 0; families[f]; f++)
		for (size_t k = 0; flagtab_kernel_names[k]; k++)
			for (int kind = 0; kind < FK_NKINDS; kind++) {
				const struct flag_table *t = flagtab_get(
					families[f], flagtab_kernel_names[k],
					(enum flag_kind)kind);
				int tile6 = !strcmp(families[f], "tile") &&
					    flagtab_kernel_names[k][0] == '6';
				CU_ASSERT(tile6 ? t == NULL : t != NULL);
				if (t)
					check_table(t);
			}
	/* 9 families in 6 kernels, tile in the three 4.x ones (gone by 6.1) */
	CU_ASSERT(ntables == (9 * 6 + 3) * FK_NKINDS);
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	CU_pSuite s = CU_add_suite("flagtab properties", NULL, NULL);
	CU_add_test(s, "every table: inverses, distinct bits and values", test_all_tables);
	CU_basic_set_mode(CU_BRM_SILENT);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures();
	unsigned run = CU_get_number_of_asserts();
	printf("%u passed, %u failed (%d tables)\n", run - failed, failed, ntables);
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
