/*
 * vmflags.h - the model's VM_* bits of a VMA.
 *
 * The model keeps one internal numbering, that of include/linux/mm.h @ v6.18
 * (so a VMA's flags read like the modern kernel's).  What a given kernel
 * version calls these bits, and how it prints them in VmFlags, is data of
 * that version's semantics (semantics.h), never a test in the core.
 *
 *
 * Owns: the model's VM_* bit numbering.
 * May call: nothing.
 */
#ifndef VMSIM_VMFLAGS_H
#define VMSIM_VMFLAGS_H

#include <stdint.h>

typedef uint64_t vm_flags_t;

#define VM_NONE         0ULL
#define VM_READ         0x1ULL
#define VM_WRITE        0x2ULL
#define VM_EXEC         0x4ULL
#define VM_SHARED       0x8ULL
#define VM_MAYREAD      0x10ULL
#define VM_MAYWRITE     0x20ULL
#define VM_MAYEXEC      0x40ULL
#define VM_MAYSHARE     0x80ULL
#define VM_GROWSDOWN    0x100ULL
#define VM_UFFD_MISSING 0x200ULL
#define VM_PFNMAP       0x400ULL
#define VM_MAYBE_GUARD  0x800ULL   /* 4.x VM_DENYWRITE lived here */
#define VM_UFFD_WP      0x1000ULL
#define VM_LOCKED       0x2000ULL
#define VM_IO           0x4000ULL
#define VM_SEQ_READ     0x8000ULL
#define VM_RAND_READ    0x10000ULL
#define VM_DONTCOPY     0x20000ULL
#define VM_DONTEXPAND   0x40000ULL
#define VM_LOCKONFAULT  0x80000ULL
#define VM_ACCOUNT      0x100000ULL
#define VM_NORESERVE    0x200000ULL
#define VM_HUGETLB      0x400000ULL
#define VM_SYNC         0x800000ULL
#define VM_ARCH_1       0x1000000ULL
#define VM_WIPEONFORK   0x2000000ULL
#define VM_DONTDUMP     0x4000000ULL
#define VM_SOFTDIRTY    0x8000000ULL
#define VM_MIXEDMAP     0x10000000ULL
#define VM_HUGEPAGE     0x20000000ULL
#define VM_NOHUGEPAGE   0x40000000ULL
#define VM_MERGEABLE    0x80000000ULL
#define VM_DROPPABLE    (1ULL << 40)
#define VM_UFFD_MINOR   (1ULL << 41)
#define VM_SEALED       (1ULL << 42)

/* include/linux/mm.h: mappings the kernel never merges, locks or expands */
#define VM_SPECIAL (VM_IO | VM_DONTEXPAND | VM_PFNMAP | VM_MIXEDMAP)
#define VM_ACCESS_FLAGS (VM_READ | VM_WRITE | VM_EXEC)
/* kernel/fork.c:mm_init() keeps only these of the parent's def_flags */
#define VM_INIT_DEF_MASK VM_NOHUGEPAGE
/* mm/vma.c:is_mergeable_vma() ignores soft-dirty */
#define VM_IGNORE_MERGE VM_SOFTDIRTY

#endif
