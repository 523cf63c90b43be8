/*
 * cmd_exhaustive.c - `vmsim check --exhaustive` and the merge of its
 * shards by `vmsim check-merge` (sim/checker/check_exhaustive.c does the
 * search; docs/invariants.md, "Exhaustive").
 *
 * Exit: 0 every invariant holds up to the depth, 1 a violation, 2 bad
 * usage or input.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <malloc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "checker.h"
#include "cli.h"
#include "flagtab.h"
#include "replay.h"

#define EXH_MAGIC "# vmsim check --exhaustive shard 1"

static const char exh_usage[] =
	"usage: vmsim check --exhaustive --kernel NAME [--depth K] [--call LINE]... [--alphabet FILE]\n"
	"                   [--invariant NAME]... [--max-map-count N] [--time SEC] [--shard I/N]\n"
	"                   [--out DIR] [-o FILE]\n"
	"                   [--format text|json] [-q]\n"
	"\n"
	"Runs every sequence of up to K calls (default 5) from a finite alphabet on the\n"
	"model, breadth first, and explores each model state once (states are hashed\n"
	"canonically: alike machines but for allocation order are one state).  For each\n"
	"invariant it prints the shortest violating sequence, written as a reproducer\n"
	"to DIR (vmsim replay --check-invariants reproduces it), or that it holds for\n"
	"every sequence up to depth K, with the number of distinct states and\n"
	"transitions.\n"
	"\n"
	"  --kernel NAME     the semantics (required)\n"
	"  --depth K         the longest sequence (default 5, at most 16)\n"
	"  --call LINE       an alphabet symbol: one call as a trace line, e.g.\n"
	"                    'mlock(0x100000000, 8192) = ?' (repeatable; a line without a pid\n"
	"                    is process 100's).  Without --call or --alphabet: the default\n"
	"                    alphabet of docs/invariants.md (23 calls over 4 pages in 2\n"
	"                    places, RLIMIT_MEMLOCK 2 pages, no CAP_IPC_LOCK)\n"
	"  --alphabet FILE   symbols from a trace file, one call a line\n"
	"  --max-map-count N vm.max_map_count of the machine (default 3; 1 to 2147483647)\n"
	"  --invariant NAME  check only this invariant (repeatable)\n"
	"  --time SEC        stop after SEC seconds (the depth completed is reported)\n"
	"  --shard I/N       explore only the sequences whose first call is the I-th of\n"
	"                    every N (1-based) and write a shard (-o FILE, else\n"
	"                    DIR/exhaustive-KERNEL-I-of-N.shard); `vmsim check-merge` of\n"
	"                    the N shards reports what one run reports\n"
	"  --out DIR         where reproducers go (default check-out)\n"
	"  -o, --output FILE the report (or the shard) into FILE\n"
	"  --format json     JSON Lines: an object per invariant, then a summary\n"
	"  -q, --quiet       no progress line on a terminal\n"
	"Exit: 0 every invariant holds up to the depth, 1 a violation, 2 bad input.\n";

struct exh_cfg {
	struct check_plan plan;
	struct gen_machine m;
	struct exh_alphabet al;
	struct exh_opts eo;
	const char *out, *output;
	bool json, quiet;
};

static void progress(void *ctx, unsigned depth, uint64_t states, uint64_t transitions, double seconds)
{
	const struct exh_cfg *c = ctx;
	if (c->quiet || !isatty(2))
		return;
	fprintf(stderr, "\r\033[Kvmsim check --exhaustive: depth %u, %" PRIu64 " states, %" PRIu64
			" transitions, %.0f states/s ", depth, states, transitions,
		seconds > 0 ? (double)states / seconds : 0.0);
}

static const char *alphabet_name(const struct exh_cfg *c)
{
	return c->al.is_default ? "the default alphabet" : "the alphabet given";
}

/* The report of a search (one run, or the merge of its shards): 0 held,
 * 1 violated, 2 an error */
static int report(const struct exh_cfg *c, const struct exh_result *r)
{
	unsigned nviol = 0, nchecked = 0;
	char path[4096], explain[4096];
	double sps = r->seconds > 0 ? (double)r->states / r->seconds : 0.0;
	if (!c->json)
		printf("vmsim check --exhaustive: kernel %s, arch %s, depth %u, %zu calls (%s), "
		       "max-map-count %" PRIu64 "\n",
		       c->plan.sem->name, c->plan.arch, c->eo.depth, c->al.n, alphabet_name(c),
		       c->m.max_map_count);
	if (mkdir(c->out, 0777) && errno != EEXIST) {
		fprintf(stderr, "vmsim check: cannot create %s: %s\n", c->out, strerror(errno));
		return 2;
	}
	for (unsigned k = 0; k < INV_NR; k++) {
		if (!(c->plan.mask & (1u << k)))
			continue;
		nchecked++;
		const struct exh_found *f = &r->inv[k];
		path[0] = 0;
		explain[0] = 0;
		if (f->depth) {
			nviol++;
			snprintf(path, sizeof(path), "%s/%s-exhaustive-%s.trace", c->out, c->plan.sem->name,
				 inv_name(k));
			if (check_write_repro(path, &c->plan, &c->m, 0, f->steps, f->depth, k, explain,
					      sizeof(explain))) {
				fprintf(stderr, "vmsim check: cannot write %s: %s\n", path, strerror(errno));
				return 2;
			}
		}
		if (c->json) {
			json_begin(stdout, "invariant");
			json_kv_str(stdout, "name", inv_name(k));
			json_kv_str(stdout, "status", f->depth ? "violated" : "held");
			json_kv_u64(stdout, f->depth ? "depth" : "held_to_depth", f->depth ? f->depth : r->reached);
			if (f->depth) {
				json_kv_str(stdout, "reproducer", path);
				json_kv_str(stdout, "explain", explain);
				json_key(stdout, "calls");
				fputc('[', stdout);
				for (unsigned i = 0; i < f->depth; i++) {
					char text[200] = "";
					for (size_t y = 0; y < c->al.n; y++)
						if (!memcmp(&c->al.sym[y].st, &f->steps[i], sizeof(struct gstep)))
							snprintf(text, sizeof(text), "%s", c->al.sym[y].text);
					fputs(i ? ", " : "", stdout);
					json_str(stdout, text);
				}
				fputc(']', stdout);
			}
			json_end(stdout);
		} else if (f->depth) {
			printf("  %s: broken at depth %u: %s\n", inv_name(k), f->depth, path);
			for (unsigned i = 0; i < f->depth; i++)
				for (size_t y = 0; y < c->al.n; y++)
					if (!memcmp(&c->al.sym[y].st, &f->steps[i], sizeof(struct gstep))) {
						printf("      %s\n", c->al.sym[y].text);
						break;
					}
			printf("    %s\n", f->msg);
		} else {
			printf("  %s: holds for every sequence up to depth %u%s\n", inv_name(k), r->reached,
			       r->closed ? " (and every longer one: no new state)" : "");
		}
	}
	if (c->json) {
		json_begin(stdout, "summary");
		json_kv_str(stdout, "mode", "exhaustive");
		json_kv_str(stdout, "kernel", c->plan.sem->name);
		json_kv_str(stdout, "arch", c->plan.arch);
		json_kv_u64(stdout, "depth", c->eo.depth);
		json_kv_u64(stdout, "reached", r->reached);
		json_kv_bool(stdout, "closed", r->closed);
		json_kv_u64(stdout, "alphabet", c->al.n);
		json_kv_u64(stdout, "states", r->states);
		json_kv_u64(stdout, "transitions", r->transitions);
		json_kv_u64(stdout, "checked", nchecked);
		json_kv_u64(stdout, "violated", nviol);
		json_end(stdout);
	} else {
		printf("explored: every sequence up to depth %u%s: %" PRIu64 " distinct states, %" PRIu64
		       " transitions in %.1f s (%.0f states/s)\n", r->reached,
		       r->stopped ? " (--time stopped the next)" : r->closed ? " (no new state after it)" : "",
		       r->states, r->transitions, r->seconds, sps);
		printf("summary: kernel %s: %u of %u invariants violated\n", c->plan.sem->name, nviol, nchecked);
	}
	return nviol ? 1 : 0;
}

static int write_shard(const struct exh_cfg *c, const struct exh_result *r, const char *path)
{
	struct outfile of; /* whole or absent */
	char err[4200];
	FILE *f = outfile_fopen(&of, path, "w", err, sizeof(err));
	if (!f) {
		fprintf(stderr, "vmsim check: %s\n", err);
		return 2;
	}
	fprintf(f, "%s\nkernel %s\narch %s\ndepth %u\nmask %#x\nmax-map-count %" PRIu64 "\nalphabet %" PRIx64
		   " %zu %d\nshard %u %u\n"
		   "reached %u\nclosed %d\nstopped %d\nstates %" PRIu64 "\ntransitions %" PRIu64 "\nseconds %.3f\n"
		   "gstep-size %zu\n",
		EXH_MAGIC, c->plan.sem->name, c->plan.arch, c->eo.depth, c->plan.mask, c->m.max_map_count,
		exh_alphabet_id(&c->al),
		c->al.n, c->al.is_default, c->eo.shard_i, c->eo.shard_n, r->reached, r->closed, r->stopped,
		r->states, r->transitions, r->seconds, sizeof(struct gstep));
	for (unsigned k = 0; k < INV_NR; k++) {
		fprintf(f, "inv %s %u\n", inv_name(k), r->inv[k].depth);
		if (r->inv[k].depth)
			fprintf(f, "msg %s\n", r->inv[k].msg);
		for (unsigned i = 0; i < r->inv[k].depth; i++) {
			const unsigned char *b = (const unsigned char *)&r->inv[k].steps[i];
			fputs("step ", f);
			for (size_t j = 0; j < sizeof(struct gstep); j++)
				fprintf(f, "%02x", b[j]);
			fputc('\n', f);
		}
	}
	/* the alphabet itself: a merge rebuilds the reproducers from it */
	for (size_t y = 0; y < c->al.n; y++) {
		const unsigned char *b = (const unsigned char *)&c->al.sym[y].st;
		fputs("sym ", f);
		for (size_t j = 0; j < sizeof(struct gstep); j++)
			fprintf(f, "%02x", b[j]);
		fprintf(f, " %s\n", c->al.sym[y].text);
	}
	fprintf(f, "end\n");
	if (outfile_fclose(&of, f, true, err, sizeof(err))) {
		fprintf(stderr, "vmsim check: writing %s\n", err);
		return 2;
	}
	return 0;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* n bytes as 2n lowercase hex digits (what write_shard() prints: no sign,
 * no blank, no 0x), then the end or a blank */
static bool parse_hex(const char *s, void *dst, size_t n)
{
	unsigned char *b = dst;
	for (size_t j = 0; j < n; j++) {
		int hi = hex_digit(s[2 * j]), lo = hi < 0 ? -1 : hex_digit(s[2 * j + 1]);
		if (lo < 0)
			return false;
		b[j] = (unsigned char)(hi << 4 | lo);
	}
	return s[2 * n] == 0 || s[2 * n] == ' ';
}

struct exh_shard {
	char kernel[32], arch[32];
	unsigned depth, shard_i, shard_n;
	uint32_t mask;
	uint64_t alpha_id, max_map_count; /* a shard without the line: the default machine's */
	int is_default;
	struct exh_result r;
	struct exh_alphabet al;
};

static int read_shard(const char *path, struct exh_shard *sh)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "vmsim check-merge: %s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(sh, 0, sizeof(*sh));
	static char line[8192];
	unsigned long lineno = 0;
	int k = -1, closed = 0, stopped = 0;
	unsigned nstep = 0;
	size_t gsize = 0, nsym = 0;
	bool end = false, bad = false;
	while (!bad && fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		char name[64];
		unsigned d;
		if (lineno == 1) {
			bad = strcmp(line, EXH_MAGIC) != 0;
		} else if (sscanf(line, "kernel %31s", sh->kernel) == 1 || sscanf(line, "arch %31s", sh->arch) == 1 ||
			   sscanf(line, "depth %u", &sh->depth) == 1 || sscanf(line, "mask %x", &sh->mask) == 1 ||
			   sscanf(line, "max-map-count %" SCNu64, &sh->max_map_count) == 1 ||
			   sscanf(line, "alphabet %" SCNx64 " %zu %d", &sh->alpha_id, &nsym, &sh->is_default) == 3 ||
			   sscanf(line, "shard %u %u", &sh->shard_i, &sh->shard_n) == 2 ||
			   sscanf(line, "reached %u", &sh->r.reached) == 1 || sscanf(line, "closed %d", &closed) == 1 ||
			   sscanf(line, "stopped %d", &stopped) == 1 ||
			   sscanf(line, "states %" SCNu64, &sh->r.states) == 1 ||
			   sscanf(line, "transitions %" SCNu64, &sh->r.transitions) == 1 ||
			   sscanf(line, "seconds %lf", &sh->r.seconds) == 1 || sscanf(line, "gstep-size %zu", &gsize) == 1) {
			continue;
		} else if (sscanf(line, "inv %63s %u", name, &d) == 2) {
			k = inv_find(name);
			bad = k < 0 || d > EXH_MAX_DEPTH;
			if (!bad)
				sh->r.inv[k].depth = d;
			nstep = 0;
		} else if (!strncmp(line, "msg ", 4) && k >= 0) {
			snprintf(sh->r.inv[k].msg, sizeof(sh->r.inv[k].msg), "%.319s", line + 4);
		} else if (!strncmp(line, "step ", 5) && k >= 0 && nstep < sh->r.inv[k].depth &&
			   gsize == sizeof(struct gstep)) {
			bad = !parse_hex(line + 5, &sh->r.inv[k].steps[nstep++], gsize);
		} else if (!strncmp(line, "sym ", 4) && gsize == sizeof(struct gstep) && sh->al.n < EXH_MAX_SYMBOLS) {
			if (sh->al.n == sh->al.cap) {
				size_t cap = sh->al.cap ? 2 * sh->al.cap : 32;
				struct exh_symbol *n = vm_realloc(sh->al.sym, cap * sizeof(*n));
				if (!n) {
					bad = true;
					break;
				}
				sh->al.sym = n;
				sh->al.cap = cap;
			}
			struct exh_symbol *y = &sh->al.sym[sh->al.n++];
			bad = !parse_hex(line + 4, &y->st, gsize);
			const char *t = line + 4 + 2 * gsize;
			snprintf(y->text, sizeof(y->text), "%.199s", *t == ' ' ? t + 1 : "");
		} else if (!strcmp(line, "end")) {
			end = true;
			break;
		} else {
			bad = true;
		}
	}
	fclose(f);
	sh->r.closed = closed;
	sh->r.stopped = stopped;
	sh->al.is_default = sh->is_default;
	if (bad || !end || sh->al.n != nsym || exh_alphabet_id(&sh->al) != sh->alpha_id) {
		fprintf(stderr, "vmsim check-merge: %s:%lu:1: error: not a whole shard of vmsim check --exhaustive\n",
			path, lineno);
		exh_alphabet_free(&sh->al);
		return -1;
	}
	return 0;
}

bool exh_is_shard(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[64] = "";
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	return !strncmp(line, EXH_MAGIC, strlen(EXH_MAGIC));
}

int exh_merge(char *const *paths, int n, const char *out, const char *output, bool json)
{
	struct exh_shard *sh = vm_calloc((size_t)n, sizeof(*sh));
	if (!sh)
		return 2;
	int rc = 2;
	for (int i = 0; i < n; i++)
		if (read_shard(paths[i], &sh[i]))
			goto done;
	/* one search: the same kernel, arch, depth, invariants, alphabet;
	 * every part of N once */
	unsigned parts = sh[0].shard_n ? sh[0].shard_n : 1;
	bool *have = vm_calloc(parts + 1, sizeof(*have));
	if (!have)
		goto done;
	for (int i = 0; i < n; i++) {
		const struct exh_shard *a = &sh[0], *b = &sh[i];
		if (strcmp(a->kernel, b->kernel) || strcmp(a->arch, b->arch) || a->depth != b->depth ||
		    a->mask != b->mask || a->alpha_id != b->alpha_id || a->max_map_count != b->max_map_count ||
		    (b->shard_n ? b->shard_n : 1) != parts ||
		    b->shard_i > parts || have[b->shard_i ? b->shard_i : 1]) {
			fprintf(stderr, "vmsim check-merge: %s is not a part of the search %s is a part of "
					"(kernel, arch, depth, invariants, max-map-count, alphabet, or a part given twice)\n",
				paths[i], paths[0]);
			free(have);
			goto done;
		}
		have[b->shard_i ? b->shard_i : 1] = true;
	}
	for (unsigned i = 1; i <= parts; i++)
		if (!have[i]) {
			fprintf(stderr, "vmsim check-merge: part %u of %u is missing\n", i, parts);
			free(have);
			goto done;
		}
	free(have);
	struct exh_cfg c;
	memset(&c, 0, sizeof(c));
	c.plan.sem = semantics_find(sh[0].kernel);
	if (!c.plan.sem) {
		fprintf(stderr, "vmsim check-merge: unknown kernel '%s' in %s\n", sh[0].kernel, paths[0]);
		goto done;
	}
	c.plan.arch = sh[0].arch;
	c.plan.mask = sh[0].mask;
	c.plan.w = &gen_weights_default;
	exh_default_machine(&c.m);
	if (sh[0].max_map_count)
		c.m.max_map_count = sh[0].max_map_count;
	c.al = sh[0].al;
	c.eo.depth = sh[0].depth;
	c.out = out;
	c.json = json;
	struct exh_result r;
	memset(&r, 0, sizeof(r));
	r.reached = sh[0].r.reached;
	r.closed = true;
	for (int i = 0; i < n; i++) {
		const struct exh_result *s = &sh[i].r;
		if (s->reached < r.reached)
			r.reached = s->reached;
		r.closed &= s->closed;
		r.stopped |= s->stopped;
		r.states += s->states;
		r.transitions += s->transitions;
		if (s->seconds > r.seconds)
			r.seconds = s->seconds;
		for (unsigned k = 0; k < INV_NR; k++)
			if (exh_better(&s->inv[k], &r.inv[k], &c.al))
				r.inv[k] = s->inv[k];
	}
	struct cli_output o;
	if (cli_output_begin("check-merge", output, paths, n, &o))
		goto done;
	rc = report(&c, &r);
	if (!json)
		printf("(merged from %d shards: the states of each are counted in its own search, so the total "
		       "counts a state reached from two shards' first calls twice; the time is the longest shard's)\n",
		       n);
	rc = cli_output_end("check-merge", &o, rc);
done:
	for (int i = 0; i < n; i++)
		exh_alphabet_free(&sh[i].al);
	free(sh);
	return rc;
}

/* the symbols of a trace text (a file, or one --call line) */
static int add_text(struct exh_cfg *c, FILE *f, const char *name)
{
	char err[512];
	const char *kn = c->plan.sem->flag_kernel;
	struct trace_reader *r = trace_open_stream(f, name, c->plan.arch, kn, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	struct event *ev = vm_calloc(1, sizeof(*ev));
	int k, rc = 0;
	while (ev && (k = trace_read(r, ev)) > 0) {
		if (exh_alphabet_add_event(&c->al, ev, c->plan.arch, kn, err, sizeof(err))) {
			fprintf(stderr, "%s:%lu:1: error: %s\n", name, ev->line, err);
			rc = -1;
			break;
		}
	}
	if (!rc && ev && k < 0) {
		fprintf(stderr, "%s\n", trace_error(r));
		rc = -1;
	}
	free(ev);
	trace_close(r);
	return ev ? rc : -1;
}

int cmd_check_exhaustive(int argc, char **argv)
{
	struct exh_cfg c;
	memset(&c, 0, sizeof(c));
	c.plan.arch = "x86_64";
	c.plan.w = &gen_weights_default;
	c.eo.depth = 5;
	c.out = "check-out";
	const char *kernel = NULL, *alphabet = NULL;
	const char **calls = NULL;
	size_t ncalls = 0;
	uint32_t mask = 0;
	enum { O_EXH = 256, O_KERNEL, O_ARCH, O_DEPTH, O_CALL, O_ALPHABET, O_INV, O_TIME, O_SHARD, O_OUT,
	       O_FORMAT, O_MMC };
	uint64_t mmc = 0;
	static const struct option longopts[] = {
		{ "exhaustive", no_argument, NULL, O_EXH },      { "kernel", required_argument, NULL, O_KERNEL },
		{ "arch", required_argument, NULL, O_ARCH },     { "depth", required_argument, NULL, O_DEPTH },
		{ "call", required_argument, NULL, O_CALL },     { "alphabet", required_argument, NULL, O_ALPHABET },
		{ "invariant", required_argument, NULL, O_INV }, { "time", required_argument, NULL, O_TIME },
		{ "shard", required_argument, NULL, O_SHARD },   { "out", required_argument, NULL, O_OUT },
		{ "format", required_argument, NULL, O_FORMAT }, { "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },             { "help", no_argument, NULL, 'h' },
		{ "max-map-count", required_argument, NULL, O_MMC },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	opterr = 0;
	int opt, rc = 2;
	while ((opt = getopt_long(argc, argv, ":qho:", longopts, NULL)) != -1) {
		char *end;
		unsigned long v;
		switch (opt) {
		case O_EXH:
			break;
		case 'h':
			fputs(exh_usage, stdout);
			free(calls);
			return 0;
		case 'q':
			c.quiet = true;
			break;
		case 'o':
			c.output = optarg;
			break;
		case O_KERNEL:
			kernel = optarg;
			break;
		case O_ARCH:
			c.plan.arch = optarg;
			break;
		case O_DEPTH:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (*end || !*optarg || errno || !v || v > EXH_MAX_DEPTH || optarg[0] == '-') {
				fprintf(stderr, "vmsim check: --depth takes 1 to %u, not '%s'\n", EXH_MAX_DEPTH, optarg);
				goto out;
			}
			c.eo.depth = (unsigned)v;
			break;
		case O_CALL: {
			const char **n = vm_realloc(calls, (ncalls + 1) * sizeof(*n));
			if (!n)
				goto out;
			calls = n;
			calls[ncalls++] = optarg;
			break;
		}
		case O_ALPHABET:
			alphabet = optarg;
			break;
		case O_MMC:
			/* sysctl_max_map_count is an int: 1 .. INT_MAX */
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (*end || !*optarg || errno || !v || v > 2147483647UL || optarg[0] == '-') {
				fprintf(stderr, "vmsim check: --max-map-count takes 1 to 2147483647, not '%s'\n", optarg);
				goto out;
			}
			mmc = v;
			break;
		case O_INV: {
			int id = inv_find(optarg);
			if (id < 0) {
				session_usage_error("check", exh_usage, "unknown invariant '%s'", optarg);
				goto out;
			}
			mask |= 1u << id;
			break;
		}
		case O_TIME:
			c.eo.time_budget = strtod(optarg, &end);
			if (*end || c.eo.time_budget <= 0) {
				fprintf(stderr, "vmsim check: --time takes seconds > 0, not '%s'\n", optarg);
				goto out;
			}
			break;
		case O_SHARD: {
			/* I/N exactly: decimal, no sign, no overflow, nothing after
			 * (sscanf took 1/8/8 as 1/8 and wrapped 2^64+1 to 2^32-1) */
			unsigned long si, sn;
			char *slash;
			errno = 0;
			si = strtoul(optarg, &slash, 10);
			bool good = slash != optarg && *slash == '/' && optarg[0] >= '0' && optarg[0] <= '9' &&
				    slash[1] >= '0' && slash[1] <= '9';
			sn = good ? strtoul(slash + 1, &end, 10) : 0;
			good = good && !*end && !errno && si >= 1 && sn >= 1 && si <= sn && sn <= UINT_MAX;
			c.eo.shard_i = good ? (unsigned)si : 0;
			c.eo.shard_n = good ? (unsigned)sn : 0;
			if (!good) {
				fprintf(stderr, "vmsim check: --exhaustive --shard takes I/N (1 <= I <= N < 2^32), not '%s'\n",
					optarg);
				goto out;
			}
			break;
		}
		case O_OUT:
			c.out = optarg;
			break;
		case O_FORMAT:
			if (json_format_arg("check", "--format", optarg, &c.json))
				goto out;
			break;
		default:
			session_opt_error("check", opt, argv, exh_usage);
			goto out;
		}
	}
	if (optind < argc) {
		session_usage_error("check", exh_usage, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!kernel) {
		session_usage_error("check", exh_usage, "--kernel is required");
		goto out;
	}
	if (!(c.plan.sem = semantics_find_checked(kernel)))
		goto out;
	if (!flagtab_arch_family(c.plan.arch)) {
		fprintf(stderr, "vmsim check: unknown arch '%s'\n", c.plan.arch);
		goto out;
	}
	c.plan.mask = mask ? mask : INV_ALL;
	c.plan.steps = c.eo.depth;
	exh_default_machine(&c.m);
	if (mmc)
		c.m.max_map_count = mmc;
	char err[512] = "";
	if (!alphabet && !ncalls) {
		if (exh_default_alphabet(&c.plan, &c.m, &c.al, err, sizeof(err))) {
			fprintf(stderr, "vmsim check: %s\n", err);
			goto out;
		}
	}
	if (alphabet) {
		FILE *f = fopen(alphabet, "r");
		if (!f) {
			fprintf(stderr, "vmsim check: %s: %s\n", alphabet, strerror(errno));
			goto out;
		}
		if (add_text(&c, f, alphabet))
			goto out;
	}
	for (size_t i = 0; i < ncalls; i++) {
		FILE *f = fmemopen((void *)calls[i], strlen(calls[i]), "r");
		if (!f || add_text(&c, f, "--call"))
			goto out;
	}
	if (!c.al.n) {
		fprintf(stderr, "vmsim check: the alphabet has no call\n");
		goto out;
	}
	c.eo.progress = progress;
	c.eo.ctx = &c;
	/* a machine is made and freed per transition: keep the heap (glibc
	 * gave its top back to the kernel each time, and the next machine
	 * faulted it in again: three quarters of the time) */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	struct exh_result r;
	if (exh_run(&c.plan, &c.m, &c.al, &c.eo, &r, err, sizeof(err))) {
		fprintf(stderr, "vmsim check: %s\n", err);
		goto out;
	}
	if (!c.quiet && isatty(2))
		fprintf(stderr, "\r\033[K");
	if (c.eo.shard_n) {
		char path[4096];
		if (c.output)
			snprintf(path, sizeof(path), "%s", c.output);
		else {
			if (mkdir(c.out, 0777) && errno != EEXIST) {
				fprintf(stderr, "vmsim check: cannot create %s: %s\n", c.out, strerror(errno));
				goto out;
			}
			snprintf(path, sizeof(path), "%s/exhaustive-%s-%u-of-%u.shard", c.out, c.plan.sem->name,
				 c.eo.shard_i, c.eo.shard_n);
		}
		rc = write_shard(&c, &r, path);
		if (!rc)
			fprintf(stderr, "vmsim check: shard %u of %u: %s (depth %u, %" PRIu64 " states, %" PRIu64
					" transitions, %.1f s)\n", c.eo.shard_i, c.eo.shard_n, path, r.reached, r.states,
				r.transitions, r.seconds);
		goto out;
	}
	struct cli_output o;
	if (cli_output_begin("check", c.output, NULL, 0, &o))
		goto out;
	rc = report(&c, &r);
	rc = cli_output_end("check", &o, rc);
out:
	exh_alphabet_free(&c.al);
	free(calls);
	return rc;
}
