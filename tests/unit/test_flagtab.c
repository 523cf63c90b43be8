/* test_flagtab.c - spot checks of the generated flag tables against values
 * read from the kernel headers and the lock-on-fault v1 patch. */
#include "flagtab.h"

#include "check_run.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

static uint64_t val(const char *arch, const char *kernel, enum flag_kind k,
		    const char *name)
{
	const struct flag_table *t = flagtab_get(arch, kernel, k);
	ck_assert_msg(t != NULL, "no table %s %s %d", arch, kernel, (int)k);
	uint64_t v = 0;
	ck_assert_msg(flagtab_lookup(t, name, strlen(name), &v) == 0,
		      "%s missing on %s %s", name, arch, kernel);
	return v;
}

static int has(const char *arch, const char *kernel, enum flag_kind k,
	       const char *name)
{
	const struct flag_table *t = flagtab_get(arch, kernel, k);
	uint64_t v;
	return t && flagtab_lookup(t, name, strlen(name), &v) == 0;
}

/* whether t names an entry exactly name[0..n) (a near miss may be one) */
static int has_name(const struct flag_table *t, const char *name, size_t n)
{
	for (size_t i = 0; i < t->nentries; i++)
		if (strlen(t->entries[i].name) == n && !memcmp(t->entries[i].name, name, n))
			return 1;
	return 0;
}

static const char *dec(const char *arch, const char *kernel, enum flag_kind k,
		       uint64_t v)
{
	static char buf[512];
	flagtab_decode(flagtab_get(arch, kernel, k), v, buf, sizeof buf);
	return buf;
}

START_TEST(arch_values)
{
	ck_assert_uint_eq(val("mips", "6.1", FK_MMAP, "MAP_LOCKED"), 0x8000);
	ck_assert_uint_eq(val("ppc64le", "4.4", FK_MLOCKALL, "MCL_CURRENT"), 0x2000);
	ck_assert_uint_eq(val("alpha", "6.1", FK_MMAP, "MAP_FIXED_NOREPLACE"), 0x200000);
	ck_assert_uint_eq(val("x86_64", "6.18", FK_MMAP, "MAP_FIXED_NOREPLACE"), 0x100000);
	ck_assert_uint_eq(val("sparc64", "4.0", FK_MMAP, "MAP_LOCKED"), 0x100);
	ck_assert_uint_eq(val("tilegx", "4.4", FK_MMAP, "MAP_LOCKED"), 0x200);
	ck_assert_uint_eq(val("parisc", "4.4", FK_MSYNC, "MS_SYNC"), 1);
	ck_assert_uint_eq(val("alpha", "4.0", FK_MADVISE, "MADV_DONTNEED"), 6);
	ck_assert_uint_eq(val("hppa", "4.4", FK_MADVISE, "MADV_MERGEABLE"), 65);
	/* 6.1 means 6.1.y: parisc advice aligned with the generic numbers */
	ck_assert_uint_eq(val("hppa", "6.1", FK_MADVISE, "MADV_MERGEABLE"), 12);
	ck_assert_uint_eq(val("parisc", "6.18", FK_MMAP, "MAP_DROPPABLE"), 8);
	ck_assert_uint_eq(val("x86_64", "6.1", FK_MMAP, "MAP_32BIT"), 0x40);
	ck_assert_uint_eq(val("x86_64", "6.18", FK_MMAP, "MAP_ABOVE4G"), 0x80);
	ck_assert(!has("x86_64", "6.1", FK_MMAP, "MAP_ABOVE4G"));
	ck_assert(!has("riscv64", "6.18", FK_MMAP, "MAP_32BIT"));
	ck_assert_uint_eq(val("aarch64", "6.1", FK_PROT, "PROT_MTE"), 0x20);
	ck_assert_uint_eq(val("x86_64", "6.18", FK_MADVISE, "MADV_GUARD_INSTALL"), 102);
}
END_TEST

START_TEST(lof_v1)
{
	ck_assert_uint_eq(val("mips", "lof-v1", FK_MMAP, "MAP_LOCKONFAULT"), 0x100000);
	ck_assert_uint_eq(val("alpha", "lof-v1", FK_MMAP, "MAP_LOCKONFAULT"), 0x200000);
	ck_assert_uint_eq(val("x86_64", "lof-v1", FK_MMAP, "MAP_LOCKONFAULT"), 0x80000);
	ck_assert_uint_eq(val("tile", "lof-v1", FK_MMAP, "MAP_LOCKONFAULT"), 0x8000);
	ck_assert_uint_eq(val("powerpc", "lof-v1", FK_MLOCKALL, "MCL_ON_FAULT"), 0x80000);
	ck_assert_uint_eq(val("x86_64", "lof-v1", FK_VM, "VM_LOCKONFAULT"), 0x1000);
	ck_assert(!has("x86_64", "4.0", FK_MMAP, "MAP_LOCKONFAULT"));
	ck_assert(!has("x86_64", "4.0", FK_MLOCKALL, "MCL_ONFAULT"));
	ck_assert(!has("x86_64", "lof-v1", FK_MLOCK2, "MLOCK_ONFAULT"));
	ck_assert_uint_eq(val("x86_64", "4.4", FK_VM, "VM_LOCKONFAULT"), 0x80000);
	ck_assert_str_eq(dec("mips", "lof-v1", FK_MMAP, 0x100802),
			 "MAP_PRIVATE|MAP_ANONYMOUS|MAP_LOCKONFAULT");
	ck_assert_str_eq(dec("mips", "6.1", FK_MMAP, 0x100802),
			 "MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE");
	ck_assert_str_eq(dec("mips", "4.0", FK_MMAP, 0x100802),
			 "MAP_PRIVATE|MAP_ANONYMOUS|0x100000");
}
END_TEST

START_TEST(versions)
{
	ck_assert(!has("x86_64", "4.4", FK_MADVISE, "MADV_FREE"));
	ck_assert_uint_eq(val("x86_64", "6.1", FK_MADVISE, "MADV_FREE"), 8);
	ck_assert_ptr_null(flagtab_get("tile", "6.1", FK_MMAP));
	ck_assert_ptr_null(flagtab_get("tile", "6.18", FK_VM));
	ck_assert_ptr_null(flagtab_get("vax", "6.1", FK_MMAP));
	ck_assert_ptr_null(flagtab_get("x86_64", "5.10", FK_MMAP));
	ck_assert_uint_eq(val("x86_64", "6.1", FK_VM, "VM_UFFD_MINOR"), 1ULL << 37);
	ck_assert_uint_eq(val("x86_64", "6.18", FK_VM, "VM_UFFD_MINOR"), 1ULL << 41);
	ck_assert_uint_eq(val("x86_64", "6.18", FK_VM, "VM_DROPPABLE"), 1ULL << 40);
	ck_assert_uint_eq(val("x86_64", "6.18", FK_VM, "VM_SEALED"), 1ULL << 42);
}
END_TEST

static const char *mnemonic(const char *arch, const char *kernel, const char *name)
{
	const struct flag_table *t = flagtab_get(arch, kernel, FK_VM);
	for (size_t i = 0; t && i < t->nentries; i++)
		if (!strcmp(t->entries[i].name, name))
			return t->entries[i].mnemonic ? t->entries[i].mnemonic : "??";
	return NULL;
}

START_TEST(mnemonics)
{
	ck_assert_str_eq(mnemonic("x86_64", "6.1", "VM_LOCKONFAULT"), "??");
	ck_assert_str_eq(mnemonic("x86_64", "4.4", "VM_LOCKONFAULT"), "??");
	ck_assert_str_eq(mnemonic("x86_64", "6.18", "VM_LOCKONFAULT"), "lf");
	ck_assert_str_eq(mnemonic("x86_64", "6.18", "VM_LOCKED"), "lo");
	ck_assert_str_eq(mnemonic("x86_64", "6.18", "VM_DROPPABLE"), "dp");
	ck_assert_str_eq(mnemonic("x86_64", "6.18", "VM_SEALED"), "sl");
	ck_assert_str_eq(mnemonic("x86_64", "6.18", "VM_SHADOW_STACK"), "ss");
	ck_assert_str_eq(mnemonic("x86_64", "4.4", "VM_DENYWRITE"), "dw");
	ck_assert_str_eq(mnemonic("arm64", "6.1", "VM_ARM64_BTI"), "bt");
}
END_TEST

START_TEST(decode_encode)
{
	char buf[64];
	const struct flag_table *t = flagtab_get("x86_64", "6.18", FK_MMAP);
	ck_assert_str_eq(dec("x86_64", "6.18", FK_MMAP, 0x22 | 0x400000000ULL),
			 "MAP_PRIVATE|MAP_ANONYMOUS|0x400000000");
	ck_assert_str_eq(dec("x86_64", "6.18", FK_MMAP, 0), "0");
	ck_assert_str_eq(dec("x86_64", "6.18", FK_PROT, 0), "PROT_NONE");
	ck_assert_str_eq(dec("x86_64", "6.18", FK_MADVISE, 0), "MADV_NORMAL");
	ck_assert_str_eq(dec("x86_64", "6.18", FK_MLOCKALL, 8), "0x8");
	ck_assert_str_eq(dec("x86_64", "6.18", FK_MADVISE, 7), "0x7");
	/* truncation behaves like snprintf */
	size_t n = flagtab_decode(t, 0x22, buf, 5);
	ck_assert_uint_eq(n, strlen("MAP_PRIVATE|MAP_ANONYMOUS"));
	ck_assert_str_eq(buf, "MAP_");

	uint64_t v;
	size_t bad;
	const char *s = "MAP_PRIVATE | MAP_ANON|0x100|010|3";
	ck_assert_int_eq(flagtab_encode(t, s, strlen(s), &v, &bad), 0);
	ck_assert_uint_eq(v, 0x2 | 0x20 | 0x100 | 8 | 3);
	s = "MAP_SHARED|MAP_HUGETLB|21<<MAP_HUGE_SHIFT";
	ck_assert_int_eq(flagtab_encode(t, s, strlen(s), &v, &bad), 0);
	ck_assert_uint_eq(v, 0x1 | 0x40000 | (21ULL << 26));
	s = "MAP_SHARED|MAP_NOPE";
	ck_assert_int_eq(flagtab_encode(t, s, strlen(s), &v, &bad), -1);
	ck_assert_uint_eq(bad, 11);
	s = "MAP_SHARED||";
	ck_assert_int_eq(flagtab_encode(t, s, strlen(s), &v, &bad), -1);
	/* lookup takes a counted name */
	ck_assert_int_eq(flagtab_lookup(t, "MAP_LOCKEDXX", 10, &v), 0);
	ck_assert_uint_eq(v, 0x2000);
	ck_assert_int_eq(flagtab_lookup(t, "MAP_LOCK", 8, &v), -1);
	ck_assert_uint_eq(flagtab_value(t, "MAP_NOPE"), 0);
}
END_TEST

START_TEST(names)
{
	ck_assert_int_eq(flagtab_kind_from_name("madvise"), FK_MADVISE);
	ck_assert_int_eq(flagtab_kind_from_name("nope"), FK_NKINDS);
	ck_assert_str_eq(flagtab_kind_name(FK_VM), "vm");
	ck_assert_str_eq(flagtab_arch_family("aarch64"), "arm64");
	ck_assert_str_eq(flagtab_arch_family("x86_64"), "x86");
	ck_assert_str_eq(flagtab_arch_family("s390x"), "generic");
	ck_assert_str_eq(flagtab_arch_family("ppc64le"), "powerpc");
	ck_assert_ptr_null(flagtab_arch_family("vax"));
	for (size_t i = 0; flagtab_arch_names[i]; i++)
		ck_assert_ptr_nonnull(flagtab_arch_family(flagtab_arch_names[i]));
	for (size_t i = 0; flagtab_kernel_names[i]; i++)
		ck_assert_ptr_nonnull(flagtab_get("x86_64", flagtab_kernel_names[i], FK_MMAP));
}
END_TEST

/* Every name of every generated table is found, as its own entry (the
 * lookup's hash assumes no table names an entry twice), through a copy
 * (not the table's own pointer), and its near misses are not: one letter
 * short, one letter more, a NUL inside, another table's name. */
extern const struct flag_table flagtab_tables[];
extern const size_t flagtab_ntables;

START_TEST(lookup_every_entry)
{
	char buf[300];
	for (size_t ti = 0; ti < flagtab_ntables; ti++) {
		const struct flag_table *t = &flagtab_tables[ti];
		for (size_t i = 0; i < t->nentries; i++) {
			const char *name = t->entries[i].name;
			size_t n = strlen(name);
			ck_assert_uint_lt(n, sizeof(buf) - 2);
			memcpy(buf, name, n + 1);
			for (size_t j = 0; j < t->nentries; j++)
				ck_assert_msg(j == i || strcmp(t->entries[j].name, name),
					      "%s named twice in %s %s %d", name, t->arch,
					      t->kernel, (int)t->kind);
			uint64_t v = ~0ull;
			ck_assert_int_eq(flagtab_lookup(t, buf, n, &v), 0);
			ck_assert_uint_eq(v, t->entries[i].value);
			if (n > 1)
				ck_assert_msg(flagtab_lookup(t, buf, n - 1, &v) == -1 ||
					      has_name(t, buf, n - 1), "%.*s", (int)(n - 1), buf);
			buf[n] = 'Q';
			buf[n + 1] = '\0';
			ck_assert_msg(flagtab_lookup(t, buf, n + 1, &v) == -1 ||
				      has_name(t, buf, n + 1), "%sQ", name);
			memcpy(buf, name, n + 1);
			buf[n / 2] = '\0';
			ck_assert_int_eq(flagtab_lookup(t, buf, n, &v), -1);
		}
	}
	const struct flag_table *x86 = flagtab_get("x86_64", "6.18", FK_MMAP);
	uint64_t v;
	ck_assert_int_eq(flagtab_lookup(x86, "PROT_READ", 9, &v), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("flagtab");
	TCase *tc = tcase_create("tables");
	tcase_add_test(tc, arch_values);
	tcase_add_test(tc, lof_v1);
	tcase_add_test(tc, versions);
	tcase_add_test(tc, mnemonics);
	tcase_add_test(tc, decode_encode);
	tcase_add_test(tc, names);
	tcase_add_test(tc, lookup_every_entry);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
