/*
 * flagtab.h - per-architecture, per-kernel flag tables (MAP_*, PROT_*, ...).
 *
 * A table maps the names of one kind of flag argument to the numbers one
 * architecture uses in one kernel version.  Tables are generated from the
 * kernel's uapi headers by tools/gen-flagtab and committed as
 * model/flagtab_data.c (which names its sources).  Lookup never allocates.
 *
 * A table is a set of entries.  Most entries are single bits or multi-bit
 * masks that are OR-ed together.  Some kinds hold an enumerated field
 * instead: madvise advice numbers (the whole value is one name) and the
 * mmap mapping type (MAP_SHARED, MAP_PRIVATE, MAP_SHARED_VALIDATE,
 * MAP_DROPPABLE live in the MAP_TYPE field).  An entry with `field` set
 * is compared against (value & field) instead of being tested as bits.
 * Aliases (MAP_ANON for MAP_ANONYMOUS, MAP_FILE = 0 ...) are accepted by
 * encode and never produced by decode.
 *
 *
 * Owns: the per-arch, per-kernel tables of flag names and values (generated
 *   data in flagtab_data.c).
 * May call: nothing.
 */
#ifndef VMSIM_FLAGTAB_H
#define VMSIM_FLAGTAB_H

#include <stddef.h>
#include <stdint.h>

enum flag_kind {
	FK_MMAP,     /* mmap flags: MAP_* */
	FK_PROT,     /* PROT_* */
	FK_MLOCKALL, /* MCL_* */
	FK_MLOCK2,   /* MLOCK_* */
	FK_MADVISE,  /* MADV_* (enumerated) */
	FK_MREMAP,   /* MREMAP_* */
	FK_MSYNC,    /* MS_* */
	FK_VM,       /* VM_* bits of struct vm_area_struct, with VmFlags mnemonics */
	FK_NKINDS
};

struct flag_entry {
	const char *name;     /* "MAP_LOCKED" */
	uint64_t value;       /* the number on this arch/kernel */
	uint64_t field;       /* 0 for bit flags; the field mask for enumerated values */
	const char *alias_of; /* NULL, or the canonical name this one duplicates */
	const char *mnemonic; /* FK_VM only: VmFlags mnemonic ("lo"), NULL if none */
};

struct flag_table {
	const char *arch;   /* "generic", "alpha", "mips", ... */
	const char *kernel; /* "4.0", "lof-v1", "4.4", "6.1", "6.18" */
	enum flag_kind kind;
	const struct flag_entry *entries;
	size_t nentries;
};

/* Kind names as the command line spells them: "mmap", "prot", "mlockall",
 * "mlock2", "madvise", "mremap", "msync", "vm".  Returns FK_NKINDS if unknown. */
enum flag_kind flagtab_kind_from_name(const char *name);
const char *flagtab_kind_name(enum flag_kind kind);

/* Map an architecture name as traces and users write it ("x86_64",
 * "arm64", "mips", "mips64", ...) to its table family ("generic", "mips"...);
 * NULL when unknown. */
const char *flagtab_arch_family(const char *arch);

/* The table for arch (any name flagtab_arch_family accepts), kernel and
 * kind; NULL when there is none (unknown arch or kernel, or tile after 4.4). */
const struct flag_table *flagtab_get(const char *arch, const char *kernel,
				     enum flag_kind kind);

/* Value of one name in a table.  Returns 0 and sets *found when known;
 * returns -1 when the name is not in the table. */
int flagtab_lookup(const struct flag_table *t, const char *name, size_t len,
		   uint64_t *value);

/* Canonical value of a name, or 0 if the table lacks it (a flag the arch
 * or kernel does not have).  For the model: `af->map_locked = flagtab_value(t, "MAP_LOCKED")`. */
uint64_t flagtab_value(const struct flag_table *t, const char *name);

/* Decode value into "NAME|NAME|0xREST" (strace's style; "0" for zero when
 * the table has no zero-valued name) into buf.  Returns the length that
 * the full string needs (like snprintf). */
size_t flagtab_decode(const struct flag_table *t, uint64_t value, char *buf,
		      size_t buflen);

/* Encode "NAME|NAME|0x10" (names, aliases, or numbers) into *value.
 * Returns 0, or -1 with *bad_offset set to the offset of the first
 * unknown name. */
int flagtab_encode(const struct flag_table *t, const char *text, size_t len,
		   uint64_t *value, size_t *bad_offset);

/* Lists for error messages: NULL-terminated arrays of names. */
extern const char *const flagtab_arch_names[];   /* every accepted arch name */
extern const char *const flagtab_kernel_names[]; /* "4.0", "lof-v1", "4.4", "6.1", "6.18" */

#endif
