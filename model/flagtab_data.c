/* flagtab_data.c - PROVISIONAL hand-made x86_64 6.18 tables (from the project notes), to be replaced by tools/gen-flagtab output. */
#include "flagtab.h"

static const struct flag_entry t_x86_618_mmap[] = {
	{ "MAP_SHARED", 0x1ULL, 0xfULL, NULL, NULL },
	{ "MAP_PRIVATE", 0x2ULL, 0xfULL, NULL, NULL },
	{ "MAP_SHARED_VALIDATE", 0x3ULL, 0xfULL, NULL, NULL },
	{ "MAP_DROPPABLE", 0x8ULL, 0xfULL, NULL, NULL },
	{ "MAP_FIXED", 0x10ULL, 0x0ULL, NULL, NULL },
	{ "MAP_ANONYMOUS", 0x20ULL, 0x0ULL, NULL, NULL },
	{ "MAP_32BIT", 0x40ULL, 0x0ULL, NULL, NULL },
	{ "MAP_ABOVE4G", 0x80ULL, 0x0ULL, NULL, NULL },
	{ "MAP_GROWSDOWN", 0x100ULL, 0x0ULL, NULL, NULL },
	{ "MAP_DENYWRITE", 0x800ULL, 0x0ULL, NULL, NULL },
	{ "MAP_EXECUTABLE", 0x1000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_LOCKED", 0x2000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_NORESERVE", 0x4000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_POPULATE", 0x8000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_NONBLOCK", 0x10000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_STACK", 0x20000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_HUGETLB", 0x40000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_SYNC", 0x80000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_FIXED_NOREPLACE", 0x100000ULL, 0x0ULL, NULL, NULL },
	{ "MAP_UNINITIALIZED", 0x4000000ULL, 0x0ULL, NULL, NULL },
};
static const uint16_t t_x86_618_mmap_byname[] = { 6, 7, 5, 9, 3, 10, 4, 18, 8, 16, 11, 14, 12, 13, 1, 0, 2, 15, 17, 19 };
static const struct flag_entry t_x86_618_prot[] = {
	{ "PROT_NONE", 0x0ULL, 0x0ULL, NULL, NULL },
	{ "PROT_READ", 0x1ULL, 0x0ULL, NULL, NULL },
	{ "PROT_WRITE", 0x2ULL, 0x0ULL, NULL, NULL },
	{ "PROT_EXEC", 0x4ULL, 0x0ULL, NULL, NULL },
	{ "PROT_SEM", 0x8ULL, 0x0ULL, NULL, NULL },
	{ "PROT_GROWSDOWN", 0x1000000ULL, 0x0ULL, NULL, NULL },
	{ "PROT_GROWSUP", 0x2000000ULL, 0x0ULL, NULL, NULL },
};
static const uint16_t t_x86_618_prot_byname[] = { 3, 5, 6, 0, 1, 4, 2 };
static const struct flag_entry t_x86_618_mlockall[] = {
	{ "MCL_CURRENT", 0x1ULL, 0x0ULL, NULL, NULL },
	{ "MCL_FUTURE", 0x2ULL, 0x0ULL, NULL, NULL },
	{ "MCL_ONFAULT", 0x4ULL, 0x0ULL, NULL, NULL },
};
static const uint16_t t_x86_618_mlockall_byname[] = { 0, 1, 2 };
static const struct flag_entry t_x86_618_mlock2[] = {
	{ "MLOCK_ONFAULT", 0x1ULL, 0x0ULL, NULL, NULL },
};
static const uint16_t t_x86_618_mlock2_byname[] = { 0 };
static const struct flag_entry t_x86_618_madvise[] = {
	{ "MADV_NORMAL", 0x0ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_RANDOM", 0x1ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_SEQUENTIAL", 0x2ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_WILLNEED", 0x3ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_DONTNEED", 0x4ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_FREE", 0x8ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_REMOVE", 0x9ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_DONTFORK", 0xaULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_DOFORK", 0xbULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_MERGEABLE", 0xcULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_UNMERGEABLE", 0xdULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_HUGEPAGE", 0xeULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_NOHUGEPAGE", 0xfULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_DONTDUMP", 0x10ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_DODUMP", 0x11ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_WIPEONFORK", 0x12ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_KEEPONFORK", 0x13ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_COLD", 0x14ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_PAGEOUT", 0x15ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_POPULATE_READ", 0x16ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_POPULATE_WRITE", 0x17ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_DONTNEED_LOCKED", 0x18ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_COLLAPSE", 0x19ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_HWPOISON", 0x64ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_SOFT_OFFLINE", 0x65ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_GUARD_INSTALL", 0x66ULL, 0xffffffffffffffffULL, NULL, NULL },
	{ "MADV_GUARD_REMOVE", 0x67ULL, 0xffffffffffffffffULL, NULL, NULL },
};
static const uint16_t t_x86_618_madvise_byname[] = { 17, 22, 14, 8, 13, 7, 4, 21, 5, 25, 26, 11, 23, 16, 9, 12, 0, 18, 19, 20, 1, 6, 2, 24, 10, 3, 15 };
static const struct flag_entry t_x86_618_mremap[] = {
	{ "MREMAP_MAYMOVE", 0x1ULL, 0x0ULL, NULL, NULL },
	{ "MREMAP_FIXED", 0x2ULL, 0x0ULL, NULL, NULL },
	{ "MREMAP_DONTUNMAP", 0x4ULL, 0x0ULL, NULL, NULL },
};
static const uint16_t t_x86_618_mremap_byname[] = { 2, 1, 0 };
static const struct flag_entry t_x86_618_msync[] = {
	{ "MS_ASYNC", 0x1ULL, 0x0ULL, NULL, NULL },
	{ "MS_INVALIDATE", 0x2ULL, 0x0ULL, NULL, NULL },
	{ "MS_SYNC", 0x4ULL, 0x0ULL, NULL, NULL },
};
static const uint16_t t_x86_618_msync_byname[] = { 0, 1, 2 };
static const struct flag_entry t_x86_618_vm[] = {
	{ "VM_NONE", 0x0ULL, 0, NULL, NULL },
	{ "VM_READ", 0x1ULL, 0, NULL, "rd" },
	{ "VM_WRITE", 0x2ULL, 0, NULL, "wr" },
	{ "VM_EXEC", 0x4ULL, 0, NULL, "ex" },
	{ "VM_SHARED", 0x8ULL, 0, NULL, "sh" },
	{ "VM_MAYREAD", 0x10ULL, 0, NULL, "mr" },
	{ "VM_MAYWRITE", 0x20ULL, 0, NULL, "mw" },
	{ "VM_MAYEXEC", 0x40ULL, 0, NULL, "me" },
	{ "VM_MAYSHARE", 0x80ULL, 0, NULL, "ms" },
	{ "VM_GROWSDOWN", 0x100ULL, 0, NULL, "gd" },
	{ "VM_UFFD_MISSING", 0x200ULL, 0, NULL, "um" },
	{ "VM_PFNMAP", 0x400ULL, 0, NULL, "pf" },
	{ "VM_UFFD_WP", 0x1000ULL, 0, NULL, "uw" },
	{ "VM_LOCKED", 0x2000ULL, 0, NULL, "lo" },
	{ "VM_IO", 0x4000ULL, 0, NULL, "io" },
	{ "VM_SEQ_READ", 0x8000ULL, 0, NULL, "sr" },
	{ "VM_RAND_READ", 0x10000ULL, 0, NULL, "rr" },
	{ "VM_DONTCOPY", 0x20000ULL, 0, NULL, "dc" },
	{ "VM_DONTEXPAND", 0x40000ULL, 0, NULL, "de" },
	{ "VM_LOCKONFAULT", 0x80000ULL, 0, NULL, "lf" },
	{ "VM_ACCOUNT", 0x100000ULL, 0, NULL, "ac" },
	{ "VM_NORESERVE", 0x200000ULL, 0, NULL, "nr" },
	{ "VM_HUGETLB", 0x400000ULL, 0, NULL, "ht" },
	{ "VM_SYNC", 0x800000ULL, 0, NULL, "sf" },
	{ "VM_PAT", 0x1000000ULL, 0, NULL, "ar" },
	{ "VM_WIPEONFORK", 0x2000000ULL, 0, NULL, "wf" },
	{ "VM_DONTDUMP", 0x4000000ULL, 0, NULL, "dd" },
	{ "VM_SOFTDIRTY", 0x8000000ULL, 0, NULL, "sd" },
	{ "VM_MIXEDMAP", 0x10000000ULL, 0, NULL, "mm" },
	{ "VM_HUGEPAGE", 0x20000000ULL, 0, NULL, "hg" },
	{ "VM_NOHUGEPAGE", 0x40000000ULL, 0, NULL, "nh" },
	{ "VM_MERGEABLE", 0x80000000ULL, 0, NULL, "mg" },
	{ "VM_SHADOW_STACK", 0x2000000000ULL, 0, NULL, "ss" },
	{ "VM_DROPPABLE", 0x10000000000ULL, 0, NULL, "dp" },
	{ "VM_UFFD_MINOR", 0x20000000000ULL, 0, NULL, "ui" },
	{ "VM_SEALED", 0x40000000000ULL, 0, NULL, "sl" },
};
static const uint16_t t_x86_618_vm_byname[] = { 20, 17, 26, 18, 33, 3, 9, 29, 22, 14, 13, 19, 7, 5, 8, 6, 31, 28, 30, 0, 21, 24, 11, 16, 1, 35, 15, 32, 4, 27, 23, 34, 10, 12, 25, 2 };
extern const struct flag_table flagtab_tables[];
extern const uint16_t *const flagtab_byname[];
extern const size_t flagtab_ntables;
const struct flag_table flagtab_tables[] = {
	{ "generic", "6.18", FK_MMAP, t_x86_618_mmap, sizeof t_x86_618_mmap / sizeof t_x86_618_mmap[0] },
	{ "generic", "6.18", FK_PROT, t_x86_618_prot, sizeof t_x86_618_prot / sizeof t_x86_618_prot[0] },
	{ "generic", "6.18", FK_MLOCKALL, t_x86_618_mlockall, sizeof t_x86_618_mlockall / sizeof t_x86_618_mlockall[0] },
	{ "generic", "6.18", FK_MLOCK2, t_x86_618_mlock2, sizeof t_x86_618_mlock2 / sizeof t_x86_618_mlock2[0] },
	{ "generic", "6.18", FK_MADVISE, t_x86_618_madvise, sizeof t_x86_618_madvise / sizeof t_x86_618_madvise[0] },
	{ "generic", "6.18", FK_MREMAP, t_x86_618_mremap, sizeof t_x86_618_mremap / sizeof t_x86_618_mremap[0] },
	{ "generic", "6.18", FK_MSYNC, t_x86_618_msync, sizeof t_x86_618_msync / sizeof t_x86_618_msync[0] },
	{ "generic", "6.18", FK_VM, t_x86_618_vm, sizeof t_x86_618_vm / sizeof t_x86_618_vm[0] },
	{ "x86", "6.18", FK_MMAP, t_x86_618_mmap, sizeof t_x86_618_mmap / sizeof t_x86_618_mmap[0] },
	{ "x86", "6.18", FK_PROT, t_x86_618_prot, sizeof t_x86_618_prot / sizeof t_x86_618_prot[0] },
	{ "x86", "6.18", FK_MLOCKALL, t_x86_618_mlockall, sizeof t_x86_618_mlockall / sizeof t_x86_618_mlockall[0] },
	{ "x86", "6.18", FK_MLOCK2, t_x86_618_mlock2, sizeof t_x86_618_mlock2 / sizeof t_x86_618_mlock2[0] },
	{ "x86", "6.18", FK_MADVISE, t_x86_618_madvise, sizeof t_x86_618_madvise / sizeof t_x86_618_madvise[0] },
	{ "x86", "6.18", FK_MREMAP, t_x86_618_mremap, sizeof t_x86_618_mremap / sizeof t_x86_618_mremap[0] },
	{ "x86", "6.18", FK_MSYNC, t_x86_618_msync, sizeof t_x86_618_msync / sizeof t_x86_618_msync[0] },
	{ "x86", "6.18", FK_VM, t_x86_618_vm, sizeof t_x86_618_vm / sizeof t_x86_618_vm[0] },
};
const uint16_t *const flagtab_byname[] = {
	t_x86_618_mmap_byname,
	t_x86_618_prot_byname,
	t_x86_618_mlockall_byname,
	t_x86_618_mlock2_byname,
	t_x86_618_madvise_byname,
	t_x86_618_mremap_byname,
	t_x86_618_msync_byname,
	t_x86_618_vm_byname,
	t_x86_618_mmap_byname,
	t_x86_618_prot_byname,
	t_x86_618_mlockall_byname,
	t_x86_618_mlock2_byname,
	t_x86_618_madvise_byname,
	t_x86_618_mremap_byname,
	t_x86_618_msync_byname,
	t_x86_618_vm_byname,
};
const size_t flagtab_ntables = sizeof flagtab_tables / sizeof flagtab_tables[0];
