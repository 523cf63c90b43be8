/* cmd_flags.c - `vmsim flags`: decode, encode and list flag tables. */
#include "cli.h"
#include "semantics.h"
#include "flagtab.h"
#include "replay.h"
#include "trace.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char flags_usage[] =
	"usage: vmsim flags decode --arch ARCH --kernel KERNEL [--names TABLE] KIND VALUE\n"
	"       vmsim flags encode --arch ARCH --kernel KERNEL [--names TABLE] KIND NAMES\n"
	"       vmsim flags list   --arch ARCH --kernel KERNEL KIND\n"
	"\n"
	"  decode  VALUE is a number (0x hex, 0 octal, or decimal); prints it the\n"
	"          way strace does: NAME|NAME|0xREST (unknown bits as hex).\n"
	"  encode  NAMES is NAME|NAME|0x10 (names, aliases, numbers, N<<MAP_HUGE_SHIFT);\n"
	"          prints the value in hex (0x...).\n"
	"  list    prints every entry of the table: value, name, and for enumerated\n"
	"          values the field mask, for aliases what they alias, for vm the\n"
	"          VmFlags mnemonic (\"??\" when /proc prints none).\n"
	"\n"
	"  KIND: mmap prot mlockall mlock2 madvise mremap msync vm\n"
	"  The table is chosen by ARCH and KERNEL: the names KERNEL's own headers\n"
	"  give.  Options may come anywhere.\n"
	"  --names TABLE  also the names a trace written with TABLE uses, as its\n"
	"                 `# flag-names:` line says: strace (a current strace's, the\n"
	"                 default of every trace) or a kernel's own (4.0 lof-v1 ...).\n"
	"                 decode prints the value in TABLE's names, then how KERNEL\n"
	"                 names it; encode reads NAMES as a trace's reader does (by\n"
	"                 TABLE, a name TABLE lacks by KERNEL's table) and prints the\n"
	"                 value, then how KERNEL names it (docs/trace-format.md,\n"
	"                 \"Flag names and numbers\").\n"
	"  --format json  JSON Lines: an object for decode/encode, one per entry for\n"
	"                 list (docs/json.md).\n"
	"  Exit: 0 ok, 2 bad usage or value.\n";

static void list_names(const char *what, const char *const *names)
{
	fprintf(stderr, "valid %s:", what);
	for (size_t i = 0; names[i]; i++)
		fprintf(stderr, " %s", names[i]);
	fputc('\n', stderr);
}

static void list_kinds(void)
{
	fprintf(stderr, "valid kinds:");
	for (int k = 0; k < FK_NKINDS; k++)
		fprintf(stderr, " %s", flagtab_kind_name((enum flag_kind)k));
	fputc('\n', stderr);
}

static int in_list(const char *s, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return 1;
	return 0;
}

static void print_table_json(const struct flag_table *t, const char *kernel)
{
	for (size_t i = 0; i < t->nentries; i++) {
		const struct flag_entry *e = &t->entries[i];
		char v[32];
		snprintf(v, sizeof(v), "%#llx", (unsigned long long)e->value);
		json_begin(stdout, "entry");
		json_kv_str(stdout, "table", flagtab_kind_name(t->kind));
		json_kv_str(stdout, "arch", t->arch);
		json_kv_str(stdout, "kernel", kernel);
		json_kv_str(stdout, "table_kernel", t->kernel);
		json_kv_str(stdout, "name", e->name);
		json_kv_str(stdout, "value", v);
		if (e->field && e->field != UINT64_MAX) {
			snprintf(v, sizeof(v), "%#llx", (unsigned long long)e->field);
			json_kv_str(stdout, "field", v);
		}
		if (e->alias_of)
			json_kv_str(stdout, "alias_of", e->alias_of);
		if (t->kind == FK_VM && e->value && !e->alias_of)
			json_kv_str(stdout, "mnemonic", e->mnemonic ? e->mnemonic : "??");
		json_end(stdout);
	}
}

/* decode and encode in JSON: {"kind": OP, arch, kernel, table_kernel, table, value, names[,
 * names_table, trace_names]} */
static void print_one_json(const char *op, const struct flag_table *t, const char *kernel, uint64_t v,
			   const char *names, const char *names_table, const char *trace_names)
{
	char hex[32];
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)v);
	json_begin(stdout, op);
	json_kv_str(stdout, "table", flagtab_kind_name(t->kind));
	json_kv_str(stdout, "arch", t->arch);
	json_kv_str(stdout, "kernel", kernel);
	json_kv_str(stdout, "table_kernel", t->kernel);
	json_kv_str(stdout, "value", hex);
	json_kv_str(stdout, "names", names);
	if (names_table) {
		json_kv_str(stdout, "names_table", names_table);
		json_kv_str(stdout, "trace_names", trace_names);
	}
	json_end(stdout);
}

/* NAMES read as the trace reader reads them: each |-joined piece by the
 * names table nt, else by the kernel's table t.  0, or -1 with the offset
 * of the piece neither knows in *bad. */
static int encode_as_trace(const struct flag_table *nt, const struct flag_table *t, const char *text,
			   uint64_t *v, size_t *bad)
{
	*v = 0;
	for (size_t i = 0;;) {
		size_t e = i;
		while (text[e] && text[e] != '|')
			e++;
		uint64_t piece;
		size_t b;
		if ((!nt || flagtab_encode(nt, text + i, e - i, &piece, &b)) &&
		    flagtab_encode(t, text + i, e - i, &piece, &b)) {
			*bad = i;
			return -1;
		}
		*v |= piece;
		if (!text[e])
			return 0;
		i = e + 1;
	}
}

static void print_table(const struct flag_table *t)
{
	printf("# %s table, arch family %s, kernel %s (%zu entries)\n",
	       flagtab_kind_name(t->kind), t->arch, t->kernel, t->nentries);
	for (size_t i = 0; i < t->nentries; i++) {
		const struct flag_entry *e = &t->entries[i];
		printf("%#-14llx %-24s", (unsigned long long)e->value, e->name);
		if (e->field && e->field != UINT64_MAX)
			printf(" field=%#llx", (unsigned long long)e->field);
		if (e->alias_of)
			printf(" alias of %s", e->alias_of);
		if (t->kind == FK_VM && e->value && !e->alias_of)
			printf(" %s", e->mnemonic ? e->mnemonic : "??");
		putchar('\n');
	}
}

int cmd_flags(int argc, char **argv)
{
	const char *op = NULL, *arch = NULL, *kernel = NULL, *names_id = NULL;
	const char *pos[2] = { NULL, NULL };
	int npos = 0;
	bool json = false;
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' }, { "kernel", required_argument, NULL, 'k' },
		{ "format", required_argument, NULL, 'f' }, { "help", no_argument, NULL, 'h' },
		{ "names", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(flags_usage, stdout);
			return 0;
		case 'a':
			arch = optarg;
			break;
		case 'k':
			kernel = optarg;
			break;
		case 'n':
			if (!systab_names_known(optarg)) {
				fprintf(stderr, "vmsim flags: unknown table of flag names '%s' (strace, or a "
					"kernel's own: 4.0 lof-v1 4.4 6.1 6.12 6.18)\n", optarg);
				return 2;
			}
			names_id = optarg;
			break;
		case 'f':
			if (json_format_arg("flags", "--format", optarg, &json))
				return 2;
			break;
		case ':':
			session_opt_error("flags", c, argv, flags_usage);
			return 2;
		default:
			session_usage_error("flags", flags_usage, "unknown option '%s'", argv[optind - 1]);
			return 2;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (!op) {
			op = argv[i];
		} else if (npos < 2) {
			pos[npos++] = argv[i];
		} else {
			session_usage_error("flags", flags_usage, "unexpected argument '%s'", argv[i]);
			return 2;
		}
	}
	if (!op || (strcmp(op, "decode") && strcmp(op, "encode") &&
		    strcmp(op, "list"))) {
		session_usage_error("flags", flags_usage, "need decode, encode or list");
		return 2;
	}
	int is_list = !strcmp(op, "list");
	if (!arch || !kernel || !pos[0] || (!is_list && !pos[1]) ||
	    (is_list && pos[1])) {
		session_usage_error("flags", flags_usage, "%s: missing or extra arguments", op);
		return 2;
	}
	if (!flagtab_arch_family(arch)) {
		fprintf(stderr, "vmsim flags: unknown arch '%s'\n", arch);
		list_names("arches", flagtab_arch_names);
		return 2;
	}
	enum flag_kind kind = flagtab_kind_from_name(pos[0]);
	if (kind == FK_NKINDS) {
		fprintf(stderr, "vmsim flags: unknown kind '%s'\n", pos[0]);
		list_kinds();
		return 2;
	}
	/* the same kernel-name rule as every other command: a version without
	 * tables of its own takes the newest older ones (6.6 -> 6.1) */
	const struct flag_table *t = systab_flag_table(arch, kernel, kind);
	if (!t && !in_list(kernel, flagtab_kernel_names) && !semantics_find(kernel)) {
		fprintf(stderr, "vmsim flags: unknown kernel '%s'\n", kernel);
		list_names("kernels", flagtab_kernel_names);
		return 2;
	}
	if (t && strcmp(t->kernel, kernel))
		fprintf(stderr, "vmsim flags: note: kernel %s has the tables of %s\n", kernel, t->kernel);
	if (!t) {
		fprintf(stderr, "vmsim flags: no %s table for arch %s on kernel %s"
			" (tile was removed in 4.17)\n", pos[0], arch, kernel);
		return 2;
	}

	if (is_list && names_id) {
		fprintf(stderr, "vmsim flags list: --names is for decode and encode (list the table "
			"with --kernel TABLE)\n");
		return 2;
	}
	/* the names table of a trace that says `# flag-names: NAMES` */
	const struct flag_table *nt = names_id ? systab_names_table(arch, names_id, kind) : NULL;

	if (is_list) {
		if (json)
			print_table_json(t, kernel);
		else
			print_table(t);
		return 0;
	}

	const char *text = pos[1];
	uint64_t v;
	size_t bad = 0;
	if (!strcmp(op, "decode")) {
		/* A number only: reuse encode on an empty-named table. */
		static const struct flag_table numbers = { "", "", FK_MMAP, NULL, 0 };
		if (flagtab_encode(&numbers, text, strlen(text), &v, &bad)) {
			fprintf(stderr, "vmsim flags decode: bad number '%s' at offset %zu"
				" (want 0x hex, 0 octal or decimal, optionally |-joined)\n",
				text, bad);
			return 2;
		}
		char buf[512], tbuf[512] = "";
		size_t n = flagtab_decode(t, v, buf, sizeof buf);
		if (n >= sizeof buf || (nt && flagtab_decode(nt, v, tbuf, sizeof tbuf) >= sizeof tbuf)) {
			fprintf(stderr, "vmsim flags decode: output too long\n");
			return 2;
		}
		if (json)
			print_one_json("decode", t, kernel, v, buf, names_id, nt ? tbuf : NULL);
		else if (nt)
			printf("%s\nkernel %s: %s\n", tbuf, kernel, buf);
		else
			puts(buf);
		return 0;
	}
	if (names_id ? encode_as_trace(nt, t, text, &v, &bad) : flagtab_encode(t, text, strlen(text), &v, &bad)) {
		size_t end = bad;
		while (text[end] && text[end] != '|')
			end++;
		fprintf(stderr, "vmsim flags encode: unknown %s name or bad number"
			" '%.*s' at offset %zu (try `vmsim flags list --arch %s"
			" --kernel %s %s`)\n", pos[0], (int)(end - bad), text + bad,
			bad, arch, kernel, pos[0]);
		return 2;
	}
	char kbuf[512];
	if (names_id && flagtab_decode(t, v, kbuf, sizeof kbuf) >= sizeof kbuf) {
		fprintf(stderr, "vmsim flags encode: output too long\n");
		return 2;
	}
	if (json)
		print_one_json("encode", t, kernel, v, names_id ? kbuf : text, names_id, names_id ? text : NULL);
	else if (names_id)
		printf("0x%llx\nkernel %s: %s\n", (unsigned long long)v, kernel, kbuf);
	else
		printf("0x%llx\n", (unsigned long long)v);
	return 0;
}
