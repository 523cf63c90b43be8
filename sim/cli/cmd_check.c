/*
 * cmd_check.c - `vmsim check`: property testing of a semantics against
 * the promise invariants (docs/invariants.md).
 *
 * Runs are numbered 0..runs-1; run i uses seed SEED+i and its own fresh
 * machine.  Runs are grouped in blocks of CHECK_BLOCK; within a block the
 * first violation of each invariant is shrunk (so what is shrunk depends
 * only on the block, never on --jobs).  --jobs N forks N workers that take
 * blocks j, j+N, ... and send their block results through a pipe; the
 * parent merges them in block order.  The shortest reproducer of each
 * invariant (fewest events, then lowest run) is written to DIR.  Same
 * seed and options give byte-identical output, except with --time, which
 * stops starting runs when the budget is spent (the output then describes
 * the runs actually done, which depend on the machine's speed).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* <signal.h> (via sys/wait.h) defines si_addr, a field name of struct event */
#undef si_addr

#include "alloc.h"
#include "checker.h"
#include "cli.h"
#include "flagtab.h"
#include "replay.h"

#define CHECK_BLOCK 64u
#define MAX_REPRO 4096u
#define SHRINK_GOAL 8u   /* the promise: reproducers of at most 8 events */
#define SHRINK_TRIES 4u  /* violations of one invariant shrunk per block at most */
/* the steps of a run kept for shrinking (80 bytes each): a violation
 * later than this is shrunk from a second run of its seed, which keeps
 * the steps up to it; what is kept does not grow with the run's length */
#define CHECK_KEEP (1u << 16)

/* CHECK_KEEP, or VMSIM_CHECK_KEEP (a test's: a small window takes the
 * second-run path of every violation; docs/testing.md) */
static size_t check_keep(void)
{
	const char *e = getenv("VMSIM_CHECK_KEEP");
	char *end;
	unsigned long v = e ? strtoul(e, &end, 10) : 0;
	return e && *e && !*end && v ? (size_t)v : CHECK_KEEP;
}

static const char check_usage[] =
	"usage: vmsim check --kernel NAME [--arch NAME] [--seed N] [--steps N] [--runs N]\n"
	"                   [--time SEC] [--jobs N] [--out DIR] [--invariant NAME]... [--stats]\n"
	"                   [--shard FILE] [--format text|json] [-o FILE] [-q]\n"
	"\n"
	"Generates random call sequences (run i uses seed SEED+i), runs them on the model\n"
	"under the kernel's semantics, checks the promise invariants after every step and\n"
	"shrinks each violation to a short reproducer trace written to DIR.\n"
	"\n"
	"  --kernel NAME     semantics to check (required)\n"
	"  --arch NAME       flag tables of this arch (default x86_64)\n"
	"  --seed N          first seed (default 1)\n"
	"  --steps N         steps per run (default 100)\n"
	"  --runs N          runs (default 1000)\n"
	"  --time SEC        stop starting runs after SEC seconds (output then depends on speed)\n"
	"  --jobs N          worker processes (default 1); the output does not depend on N\n"
	"  --out DIR         where reproducers go (default check-out)\n"
	"  --invariant NAME  check only this invariant (repeatable); names:\n"
	"                    locked-vm-accounting locked-vm-range rlimit-memlock unlock-complete\n"
	"                    fork-no-inherit onfault-no-prefault locked-never-reclaimed\n"
	"                    mlocked-pages lru-consistent vma-tree locked-madvise\n"
	"  --stats           steps per second on stderr\n"
	"  --format json     JSON Lines: an object per invariant, then a summary (docs/json.md)\n"
	"  -o, --output FILE the report into FILE (default: standard output)\n"
	"  -q, --quiet       no progress line on a terminal\n"
	"  --exhaustive      every sequence up to a depth instead of random runs: see\n"
	"                    `vmsim check --exhaustive --help`\n"
	"  --shard FILE      write the result to FILE (a shard of a campaign split by seed\n"
	"                    range) instead of reporting; `vmsim check-merge FILE...`\n"
	"                    reports the whole as one run would.  Each shard but the last\n"
	"                    must have a multiple of 64 runs (docs/campaigns.md)\n"
	"Exit: 0 every invariant held, 1 a violation, 2 bad input.\n";

struct inv_best {
	unsigned long count;   /* runs that violated it */
	unsigned len;          /* events of the best reproducer, 0 = none */
	unsigned shrunk, maxlen; /* shrinks done, the longest result (--stats) */
	uint64_t run, seed;
	struct gstep steps[MAX_REPRO];
};

struct block_res {
	uint32_t block;
	uint32_t runs;
	uint64_t steps;
	int err;
	struct inv_best inv[INV_NR];
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct opts {
	struct check_plan plan;
	uint64_t seed, runs;
	double time_budget;
	unsigned jobs;
	const char *out;
	const char *shard;     /* --shard FILE: write the campaign's result there */
	bool stats;
	bool quiet;            /* -q: no progress line */
	bool json;             /* --format json (docs/json.md) */
	const char *output;    /* -o FILE: the report there */
	double t0;
};

/* The first n steps of seed's run, into w (n beyond what check_run()
 * kept): the run again, stopped at its violation of invariant k, which
 * must come at the same step (the run depends on the seed alone). */
static bool rerun_steps(const struct opts *o, uint64_t seed, struct gstep *w, size_t n, unsigned k,
			const struct run_out *was)
{
	struct check_plan p = o->plan;
	p.steps = (unsigned)n;
	struct run_out again;
	size_t cap = n;
	char err[256];
	if (check_run(&p, seed, &again, &w, &cap, n, err, sizeof(err))) {
		fprintf(stderr, "vmsim check: %s\n", err);
		return false;
	}
	if (!(again.viol & (1u << k)) || again.first[k] != was->first[k]) {
		fprintf(stderr, "vmsim check: seed %" PRIu64 " did not run the same twice\n", seed);
		return false;
	}
	return true;
}

/* Run one block into *br; false when --time ran out before it started. */
static void run_block(const struct opts *o, uint32_t b, struct block_res *br, struct gstep **buf,
		      size_t *cap)
{
	memset(br, 0, sizeof(*br));
	br->block = b;
	uint64_t first = (uint64_t)b * CHECK_BLOCK;
	uint64_t last = first + CHECK_BLOCK;
	if (last > o->runs)
		last = o->runs;
	static struct run_out ro;
	size_t keep = check_keep();
	for (uint64_t r = first; r < last; r++) {
		if (o->time_budget > 0 && now_s() - o->t0 >= o->time_budget)
			break;
		uint64_t seed = o->seed + r;
		char err[256];
		if (check_run(&o->plan, seed, &ro, buf, cap, keep, err, sizeof(err))) {
			fprintf(stderr, "vmsim check: %s\n", err);
			br->err = 1;
			return;
		}
		br->runs++;
		br->steps += ro.nsteps;
		for (unsigned k = 0; k < INV_NR; k++) {
			if (!(ro.viol & (1u << k)))
				continue;
			struct inv_best *ib = &br->inv[k];
			ib->count++;
			/* shrink the first violation of the block; while the best
			 * is still above the 8-event goal, a few more */
			if (ib->shrunk && (ib->shrunk >= SHRINK_TRIES || (ib->len && ib->len <= SHRINK_GOAL)))
				continue;
			struct gen_machine m;
			gen_machine(seed, &m);
			/* shrink a copy: the run's steps serve every invariant it broke */
			size_t n = ro.first[k] + 1;
			struct gstep *w = vm_malloc(n * sizeof(*w));
			if (!w) {
				fprintf(stderr, "vmsim check: out of memory\n");
				br->err = 1;
				return;
			}
			if (n <= keep) {
				memcpy(w, *buf, n * sizeof(*w));
			} else if (!rerun_steps(o, seed, w, n, k, &ro)) {
				free(w);
				br->err = 1;
				return;
			}
			check_shrink(&o->plan, &m, w, &n, k);
			ib->shrunk++;
			if (n > ib->maxlen)
				ib->maxlen = (unsigned)n;
			/* a reproducer is only kept if it replays to the violation */
			if (n <= MAX_REPRO && (!ib->len || n < ib->len) &&
			    check_replay_steps(&o->plan, &m, w, n, k, NULL, 0) == (long)n - 1) {
				ib->len = (unsigned)n;
				ib->run = r;
				ib->seed = seed;
				memcpy(ib->steps, w, n * sizeof(*w));
			}
			free(w);
		}
	}
}

static void merge(struct inv_best *tot, const struct block_res *br)
{
	for (unsigned k = 0; k < INV_NR; k++) {
		const struct inv_best *ib = &br->inv[k];
		tot[k].count += ib->count;
		tot[k].shrunk += ib->shrunk;
		if (ib->maxlen > tot[k].maxlen)
			tot[k].maxlen = ib->maxlen;
		if (!ib->len)
			continue;
		/* the shortest, then the earliest seed: the same whichever blocks,
		 * workers or shards found them */
		if (!tot[k].len || ib->len < tot[k].len || (ib->len == tot[k].len && ib->seed < tot[k].seed)) {
			tot[k].len = ib->len;
			tot[k].run = ib->run;
			tot[k].seed = ib->seed;
			memcpy(tot[k].steps, ib->steps, ib->len * sizeof(ib->steps[0]));
		}
	}
}

/* the counterpart of cli_write_all() for the shards' pipes */
static bool read_all(int fd, void *p, size_t n)
{
	char *c = p;
	while (n) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		c += r;
		n -= (size_t)r;
	}
	return true;
}

/* send a block result compactly: header, then per invariant its steps */
static bool send_block(int fd, const struct block_res *br)
{
	if (!cli_write_all(fd, br, offsetof(struct block_res, inv)))
		return false;
	for (unsigned k = 0; k < INV_NR; k++) {
		const struct inv_best *ib = &br->inv[k];
		if (!cli_write_all(fd, ib, offsetof(struct inv_best, steps)) ||
		    !cli_write_all(fd, ib->steps, ib->len * sizeof(ib->steps[0])))
			return false;
	}
	return true;
}

static bool recv_block(int fd, struct block_res *br)
{
	if (!read_all(fd, br, offsetof(struct block_res, inv)))
		return false;
	for (unsigned k = 0; k < INV_NR; k++) {
		struct inv_best *ib = &br->inv[k];
		if (!read_all(fd, ib, offsetof(struct inv_best, steps)) || ib->len > MAX_REPRO ||
		    !read_all(fd, ib->steps, ib->len * sizeof(ib->steps[0])))
			return false;
	}
	return true;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-')
		return false;
	*v = x;
	return true;
}

/* The report of a campaign (one run, or merged shards): reproducers into
 * o->out, the text on stdout.  The number of violated invariants, or
 * UINT_MAX when a reproducer could not be written. */
/* a reproducer file's text into a JSON string value */
static void json_file(const char *key, const char *path)
{
	json_key(stdout, key);
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	if (f) {
		FILE *m = open_memstream(&text, &len);
		if (m) {
			char buf[4096];
			size_t n;
			while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
				fwrite(buf, 1, n, m);
			fclose(m);
		}
		fclose(f);
	}
	if (text)
		json_strn(stdout, text, len);
	else
		fputs("null", stdout);
	free(text);
}

/* --format json: an "invariant" object per checked invariant, then the
 * "summary" (docs/json.md) */
static unsigned report_json(const struct opts *o, struct inv_best *tot, uint64_t runs, uint64_t steps,
			    char *explain, size_t explen)
{
	unsigned nviol = 0, nchecked = 0;
	char path[4096];
	for (unsigned k = 0; k < INV_NR; k++) {
		if (!(o->plan.mask & (1u << k)))
			continue;
		nchecked++;
		nviol += tot[k].count != 0;
		json_begin(stdout, "invariant");
		json_kv_str(stdout, "name", inv_name(k));
		json_kv_str(stdout, "status", tot[k].count ? "violated" : "held");
		json_kv_u64(stdout, "violations", tot[k].count);
		if (tot[k].count && tot[k].len) {
			struct gen_machine m;
			gen_machine(tot[k].seed, &m);
			snprintf(path, sizeof(path), "%s/%s-%s.trace", o->out, o->plan.sem->name, inv_name(k));
			if (check_write_repro(path, &o->plan, &m, tot[k].seed, tot[k].steps, tot[k].len, k,
					      explain, explen)) {
				fprintf(stderr, "vmsim check: cannot write %s: %s\n", path, strerror(errno));
				return UINT_MAX;
			}
			json_kv_str(stdout, "reproducer", path);
			json_kv_u64(stdout, "events", tot[k].len);
			json_kv_u64(stdout, "run", tot[k].seed - o->seed);
			json_kv_u64(stdout, "seed", tot[k].seed);
			json_kv_str(stdout, "explain", explain);
			json_file("trace", path);
		} else if (tot[k].count) {
			json_key(stdout, "reproducer");
			fputs("null", stdout);
		}
		json_end(stdout);
	}
	json_begin(stdout, "summary");
	json_kv_str(stdout, "kernel", o->plan.sem->name);
	json_kv_str(stdout, "arch", o->plan.arch);
	json_kv_u64(stdout, "first_seed", o->seed);
	json_kv_u64(stdout, "runs", runs);
	json_kv_u64(stdout, "steps_per_run", o->plan.steps);
	json_kv_u64(stdout, "steps", steps);
	json_kv_u64(stdout, "checked", nchecked);
	json_kv_u64(stdout, "violated", nviol);
	json_end(stdout);
	return nviol;
}

static unsigned report(const struct opts *o_, struct inv_best *tot, uint64_t runs, uint64_t steps)
{
	const struct opts o = *o_;
	static char explain[4096];
	if (o.json)
		return report_json(&o, tot, runs, steps, explain, sizeof(explain));
	printf("vmsim check: kernel %s, arch %s, seeds %" PRIu64 "..%" PRIu64 ", %u steps per run\n",
	       o.plan.sem->name, o.plan.arch, o.seed, o.seed + (runs ? runs - 1 : 0), o.plan.steps);
	unsigned nviol = 0, nchecked = 0;
	char path[4096];
	for (unsigned k = 0; k < INV_NR; k++) {
		if (!(o.plan.mask & (1u << k)))
			continue;
		nchecked++;
		if (!tot[k].count)
			continue;
		nviol++;
		if (!tot[k].len)
			continue;
		struct gen_machine m;
		gen_machine(tot[k].seed, &m);
		snprintf(path, sizeof(path), "%s/%s-%s.trace", o.out, o.plan.sem->name, inv_name(k));
		if (check_write_repro(path, &o.plan, &m, tot[k].seed, tot[k].steps, tot[k].len, k, explain,
				      sizeof(explain))) {
			fprintf(stderr, "vmsim check: cannot write %s: %s\n", path, strerror(errno));
			return UINT_MAX;
		}
		printf("\n== %s: reproducer %s (run %" PRIu64 ", seed %" PRIu64 ")\n", inv_name(k), path,
		       tot[k].seed - o.seed, tot[k].seed);
		FILE *f = fopen(path, "r");
		if (f) {
			char line[1024];
			while (fgets(line, sizeof(line), f))
				fputs(line, stdout);
			fclose(f);
		}
		printf("%s\n", explain);
	}
	printf("\n");
	for (unsigned k = 0; k < INV_NR; k++) {
		if (!(o.plan.mask & (1u << k)))
			continue;
		if (!tot[k].count)
			printf("invariant %s: held\n", inv_name(k));
		else if (tot[k].len)
			printf("invariant %s: violated %lu times; shortest reproducer %s/%s-%s.trace (%u events)\n",
			       inv_name(k), tot[k].count, o.out, o.plan.sem->name, inv_name(k), tot[k].len);
		else
			printf("invariant %s: violated %lu times; no reproducer (longer than %u events)\n",
			       inv_name(k), tot[k].count, MAX_REPRO);
	}
	printf("summary: kernel %s: %" PRIu64 " runs, %" PRIu64 " steps, %u of %u invariants violated\n",
	       o.plan.sem->name, runs, steps, nviol, nchecked);
	return nviol;
}

/* report() into o->output (-o) or standard output */
static unsigned report_to(const struct opts *o, const char *cmd, char *const *inputs, int ninputs,
			  struct inv_best *tot, uint64_t runs, uint64_t steps)
{
	struct cli_output out;
	if (cli_output_begin(cmd, o->output, inputs, ninputs, &out))
		return UINT_MAX;
	unsigned n = report(o, tot, runs, steps);
	return cli_output_end(cmd, &out, 0) ? UINT_MAX : n;
}

#define SHARD_MAGIC "vmsim-check-shard 1"

/* A shard: the campaign's parameters and its per-invariant result, as text
 * (steps as the hex bytes of struct gstep, checked by size on reading). */
static unsigned write_shard(const struct opts *o, struct inv_best *tot, uint64_t runs,
			    uint64_t steps)
{
	struct outfile of; /* whole or absent */
	char err[4200];
	FILE *f = outfile_fopen(&of, o->shard, "w", err, sizeof(err));
	if (!f) {
		fprintf(stderr, "vmsim check: %s\n", err);
		return UINT_MAX;
	}
	fprintf(f, "%s\nkernel %s\narch %s\nsteps %u\nmask %#x\nseed %" PRIu64 "\nruns %" PRIu64
		"\ntotal-steps %" PRIu64 "\ngstep-size %zu\n", SHARD_MAGIC, o->plan.sem->name,
		o->plan.arch, o->plan.steps, o->plan.mask, o->seed, runs, steps, sizeof(struct gstep));
	unsigned nviol = 0;
	for (unsigned k = 0; k < INV_NR; k++) {
		const struct inv_best *b = &tot[k];
		nviol += b->count != 0;
		fprintf(f, "inv %s %lu %u %u %u %" PRIu64 "\n", inv_name(k), b->count, b->shrunk, b->maxlen,
			b->len, b->seed);
		for (unsigned i = 0; i < b->len; i++) {
			const unsigned char *c = (const unsigned char *)&b->steps[i];
			fputs("step ", f);
			for (size_t j = 0; j < sizeof(struct gstep); j++)
				fprintf(f, "%02x", c[j]);
			fputc('\n', f);
		}
	}
	fprintf(f, "end\n");
	if (outfile_fclose(&of, f, true, err, sizeof(err))) {
		fprintf(stderr, "vmsim check: writing %s\n", err);
		return UINT_MAX;
	}
	return nviol;
}

struct shard {
	char kernel[32], arch[32];
	unsigned steps;
	uint32_t mask;
	uint64_t seed, runs, total_steps;
	struct inv_best inv[INV_NR];
};

/* A step of a reproducer as check_gen.c makes them: a known call, at
 * most six arguments, flags of 0 or 1, one of its two paths, a pid the
 * kernel could give (PID_MAX_LIMIT, 2^22) */
static bool gstep_ok(const struct gstep *g)
{
	return g->sys > 0 && g->sys < SYS_NR && g->nargs <= 6 && g->has_val <= 1 && g->path <= 1 && g->pid >= 0 &&
	       g->pid <= (1 << 22);
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int read_shard(const char *path, struct shard *sh)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "vmsim check-merge: %s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(sh, 0, sizeof(*sh));
	char line[4096];
	unsigned long lineno = 0;
	int k = -1;
	unsigned nstep = 0;
	size_t gsize = 0;
	bool magic = false, end = false;
	const char *why = NULL;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (end) {
			why = "text after the shard's end";
			break;
		}
		line[strcspn(line, "\n")] = 0;
		char name[64];
		unsigned long count;
		unsigned shrunk, maxlen, len;
		uint64_t seed;
		if (lineno == 1) {
			magic = !strcmp(line, SHARD_MAGIC);
			if (!magic)
				break;
		} else if (sscanf(line, "kernel %31s", sh->kernel) == 1 || sscanf(line, "arch %31s", sh->arch) == 1 ||
			   sscanf(line, "steps %u", &sh->steps) == 1 || sscanf(line, "mask %x", &sh->mask) == 1 ||
			   sscanf(line, "seed %" SCNu64, &sh->seed) == 1 ||
			   sscanf(line, "runs %" SCNu64, &sh->runs) == 1 ||
			   sscanf(line, "total-steps %" SCNu64, &sh->total_steps) == 1 ||
			   sscanf(line, "gstep-size %zu", &gsize) == 1) {
			continue;
		} else if (sscanf(line, "inv %63s %lu %u %u %u %" SCNu64, name, &count, &shrunk, &maxlen, &len,
				  &seed) == 6) {
			if (k >= 0 && nstep != sh->inv[k].len) {
				why = "a reproducer with fewer steps than its length";
				break;
			}
			k = inv_find(name);
			if (k < 0 || len > MAX_REPRO)
				break;
			/* count: runs that violated it; the reproducer's seed one
			 * of the shard's runs */
			if (count > sh->runs || (len && (seed < sh->seed || seed - sh->seed >= sh->runs))) {
				why = "an invariant's count or seed outside the shard's runs";
				break;
			}
			sh->inv[k] = (struct inv_best){ count, len, shrunk, maxlen, seed - sh->seed, seed, { { 0 } } };
			nstep = 0;
		} else if (!strncmp(line, "step ", 5) && k >= 0 && nstep < sh->inv[k].len &&
			   gsize == sizeof(struct gstep) && strlen(line + 5) == 2 * gsize) {
			unsigned char *c = (unsigned char *)&sh->inv[k].steps[nstep];
			bool hex = true;
			for (size_t j = 0; j < gsize && hex; j++) {
				int hi = hexval(line[5 + 2 * j]), lo = hexval(line[6 + 2 * j]);
				hex = hi >= 0 && lo >= 0;
				if (hex)
					c[j] = (unsigned char)(hi << 4 | lo);
			}
			if (!hex || !gstep_ok(&sh->inv[k].steps[nstep])) {
				why = "a reproducer step that no run of vmsim check makes";
				break;
			}
			nstep++;
		} else if (!strcmp(line, "end")) {
			if (k >= 0 && nstep != sh->inv[k].len) {
				why = "a reproducer with fewer steps than its length";
				break;
			}
			end = true;
		} else {
			break;
		}
	}
	fclose(f);
	if (!magic || !end || why) {
		fprintf(stderr, "vmsim check-merge: %s:%lu:1: error: %s\n", path, lineno,
			!magic ? "not a shard of vmsim check (expected '" SHARD_MAGIC "')"
			: why  ? why
			       : "a malformed or truncated shard (from another build of vmsim?)");
		return -1;
	}
	return 0;
}

static int cmp_shard_seed(const void *a, const void *b)
{
	const struct shard *x = a, *y = b;
	return x->seed < y->seed ? -1 : x->seed > y->seed;
}

static const char check_merge_usage[] =
	"usage: vmsim check-merge [--out DIR] [-o FILE] [--format text|json] SHARD...\n\n"
	"Merges the shards `vmsim check --shard FILE` wrote for consecutive seed\n"
	"ranges of one campaign and reports as one run over the whole range would:\n"
	"the same text (or JSON), the same reproducers in DIR (default check-out).\n"
	"\n"
	"  --out DIR             where the reproducers go (default check-out)\n"
	"  -o, --output FILE     the report into FILE (default: standard output)\n"
	"  --format text|json    the report's form (docs/json.md)\n"
	"Exit: 0 every invariant held, 1 a violation, 2 bad input.\n";

int cmd_check_merge(int argc, char **argv)
{
	struct opts o;
	memset(&o, 0, sizeof(o));
	o.out = "check-out";
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'O' }, { "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },      { NULL, 0, NULL, 0 },
	};
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		if (c == 'O') {
			o.out = optarg;
		} else if (c == 'o') {
			o.output = optarg;
		} else if (c == 'f') {
			if (json_format_arg("check-merge", "--format", optarg, &o.json))
				return 2;
		} else if (c == 'h') {
			fputs(check_merge_usage, stdout);
			return 0;
		} else {
			return session_opt_error("check-merge", c, argv, check_merge_usage);
		}
	}
	int first = optind;
	size_t n = (size_t)(argc - first);
	if (!n) {
		return session_usage_error("check-merge", check_merge_usage, "no shard given");
	}
	if (exh_is_shard(argv[first]))
		return exh_merge(argv + first, (int)n, o.out, o.output, o.json);
	struct shard *sh = vm_calloc(n, sizeof(*sh));
	if (!sh)
		return 2;
	int rc = 2;
	/* one file given twice would count its runs twice */
	for (size_t i = 0; i < n; i++) {
		struct stat si, sj;
		if (stat(argv[first + (int)i], &si))
			continue; /* read_shard() says why */
		for (size_t j = 0; j < i; j++)
			if (!stat(argv[first + (int)j], &sj) && si.st_dev == sj.st_dev && si.st_ino == sj.st_ino) {
				fprintf(stderr, "vmsim check-merge: %s: given twice (also as %s)\n",
					argv[first + (int)i], argv[first + (int)j]);
				goto out;
			}
	}
	for (size_t i = 0; i < n; i++)
		if (read_shard(argv[first + (int)i], &sh[i]))
			goto out;
	qsort(sh, n, sizeof(*sh), cmp_shard_seed);
	static struct inv_best tot[INV_NR];
	memset(tot, 0, sizeof(tot));
	uint64_t runs = 0, steps = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(sh[i].kernel, sh[0].kernel) || strcmp(sh[i].arch, sh[0].arch) ||
		    sh[i].steps != sh[0].steps || sh[i].mask != sh[0].mask) {
			fprintf(stderr, "vmsim check-merge: the shards are of different campaigns "
					"(kernel, arch, steps or invariants differ)\n");
			goto out;
		}
		if (i && sh[i].seed != sh[i - 1].seed + sh[i - 1].runs) {
			fprintf(stderr, "vmsim check-merge: seeds %" PRIu64 "..%" PRIu64 " are missing or "
					"overlap\n", sh[i - 1].seed + sh[i - 1].runs, sh[i].seed);
			goto out;
		}
		/* shrinking follows blocks of 64 runs from the campaign's first seed */
		if (i + 1 < n && sh[i].runs % CHECK_BLOCK) {
			fprintf(stderr, "vmsim check-merge: a shard of %" PRIu64 " runs before the last: "
					"shards must have multiples of %u runs to give one run's result\n",
				sh[i].runs, CHECK_BLOCK);
			goto out;
		}
		struct block_res br;
		memset(&br, 0, sizeof(br));
		memcpy(br.inv, sh[i].inv, sizeof(br.inv));
		merge(tot, &br);
		runs += sh[i].runs;
		steps += sh[i].total_steps;
	}
	o.seed = sh[0].seed;
	o.plan.sem = semantics_find(sh[0].kernel);
	o.plan.arch = sh[0].arch;
	o.plan.steps = sh[0].steps;
	o.plan.mask = sh[0].mask;
	o.plan.w = &gen_weights_default;
	if (!o.plan.sem || (mkdir(o.out, 0777) && errno != EEXIST)) {
		fprintf(stderr, "vmsim check-merge: unknown kernel '%s' or cannot create %s\n", sh[0].kernel,
			o.out);
		goto out;
	}
	unsigned nviol = report_to(&o, "check-merge", argv + first, (int)n, tot, runs, steps);
	rc = nviol == UINT_MAX ? 2 : nviol ? 1 : 0;
out:
	free(sh);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--exhaustive"))
			return cmd_check_exhaustive(argc, argv);
	struct opts o;
	memset(&o, 0, sizeof(o));
	o.seed = 1;
	o.runs = 1000;
	o.jobs = 1;
	o.out = "check-out";
	o.plan.arch = "x86_64";
	o.plan.steps = 100;
	o.plan.w = &gen_weights_default;
	const char *kernel = NULL;
	uint32_t mask = 0;
	enum { O_KERNEL = 256, O_ARCH, O_SEED, O_STEPS, O_RUNS, O_TIME, O_JOBS, O_OUT, O_INV,
	       O_STATS, O_SHARD, O_FORMAT };
	static const struct option longopts[] = {
		{ "kernel", required_argument, NULL, O_KERNEL }, { "arch", required_argument, NULL, O_ARCH },
		{ "seed", required_argument, NULL, O_SEED },     { "steps", required_argument, NULL, O_STEPS },
		{ "runs", required_argument, NULL, O_RUNS },     { "time", required_argument, NULL, O_TIME },
		{ "jobs", required_argument, NULL, O_JOBS },     { "out", required_argument, NULL, O_OUT },
		{ "invariant", required_argument, NULL, O_INV }, { "stats", no_argument, NULL, O_STATS },
		{ "shard", required_argument, NULL, O_SHARD },   { "format", required_argument, NULL, O_FORMAT },
		{ "quiet", no_argument, NULL, 'q' },             { "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":qho:", longopts, NULL)) != -1) {
		const char *val = optarg;
		uint64_t v = 0;
		bool num = val && parse_u64(val, &v);
		switch (c) {
		case 'h':
			fputs(check_usage, stdout);
			return 0;
		case 'o':
			o.output = val;
			break;
		case 'q':
			o.quiet = true;
			break;
		case O_STATS:
			o.stats = true;
			break;
		case O_SHARD:
			o.shard = val;
			break;
		case O_FORMAT:
			if (json_format_arg("check", "--format", val, &o.json))
				return 2;
			break;
		case O_KERNEL:
			kernel = val;
			break;
		case O_ARCH:
			o.plan.arch = val;
			break;
		case O_OUT:
			o.out = val;
			break;
		case O_INV: {
			int id = inv_find(val);
			if (id < 0) {
				session_usage_error("check", check_usage, "unknown invariant '%s'", val);
				return 2;
			}
			mask |= 1u << id;
			break;
		}
		case O_TIME: {
			char *end;
			o.time_budget = strtod(val, &end);
			if (*end || !(o.time_budget > 0)) {
				fprintf(stderr, "vmsim check: bad --time '%s'\n", val);
				return 2;
			}
			break;
		}
		case O_SEED: case O_STEPS: case O_RUNS: case O_JOBS:
			if (!num) {
				fprintf(stderr, "vmsim check: %s needs a number, not '%s'\n", argv[optind - 1], val);
				return 2;
			}
			if (c == O_SEED) {
				o.seed = v;
			} else if (c == O_STEPS) {
				if (!v || v > 100000000) {
					fprintf(stderr, "vmsim check: --steps must be 1..100000000\n");
					return 2;
				}
				o.plan.steps = (unsigned)v;
			} else if (c == O_RUNS) {
				if (!v) {
					fprintf(stderr, "vmsim check: --runs must be at least 1\n");
					return 2;
				}
				o.runs = v;
			} else {
				if (!v || v > 256) {
					fprintf(stderr, "vmsim check: --jobs must be 1..256\n");
					return 2;
				}
				o.jobs = (unsigned)v;
			}
			break;
		case ':':
			session_opt_error("check", c, argv, check_usage);
			return 2;
		default:
			session_usage_error("check", check_usage, "unknown option '%s'", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		session_usage_error("check", check_usage, "unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (!kernel) {
		session_usage_error("check", check_usage, "--kernel is required");
		return 2;
	}
	o.plan.sem = semantics_find_checked(kernel);
	if (!o.plan.sem)
		return 2;
	if (!flagtab_arch_family(o.plan.arch)) {
		fprintf(stderr, "vmsim check: unknown arch '%s'\n", o.plan.arch);
		return 2;
	}
	if (!flagtab_get(o.plan.arch, o.plan.sem->flag_kernel, FK_MMAP)) {
		fprintf(stderr, "vmsim check: no flag tables for arch '%s' with kernel '%s'\n", o.plan.arch,
			o.plan.sem->flag_kernel);
		return 2;
	}
	o.plan.mask = mask ? mask : INV_ALL;
	if (mkdir(o.out, 0777) && errno != EEXIST) {
		fprintf(stderr, "vmsim check: cannot create %s: %s\n", o.out, strerror(errno));
		return 2;
	}

	o.t0 = now_s();
	uint64_t nblocks = (o.runs + CHECK_BLOCK - 1) / CHECK_BLOCK;
	static struct inv_best tot[INV_NR];
	memset(tot, 0, sizeof(tot));
	uint64_t runs = 0, steps = 0;
	int failed = 0;
	struct block_res *br = vm_malloc(sizeof(*br));
	struct gstep *buf = NULL;
	size_t cap = 0;
	if (!br) {
		fprintf(stderr, "vmsim check: out of memory\n");
		return 2;
	}
	fflush(stdout);
	/* a progress line on a terminal (stderr; nothing when it is not one) */
	bool progress = isatty(2) && !o.quiet;
#define PROGRESS()                                                                           \
	do {                                                                                 \
		if (progress)                                                                \
			fprintf(stderr, "\rvmsim check: %llu of %llu runs, %llu steps, %.0f s ",  \
				(unsigned long long)runs, (unsigned long long)o.runs,         \
				(unsigned long long)steps, now_s() - o.t0);                   \
	} while (0)
	if (o.jobs <= 1 || nblocks <= 1) {
		for (uint64_t b = 0; b < nblocks && !failed; b++) {
			run_block(&o, (uint32_t)b, br, &buf, &cap);
			failed = br->err;
			runs += br->runs;
			steps += br->steps;
			merge(tot, br);
			PROGRESS();
		}
	} else {
		unsigned nj = o.jobs < nblocks ? o.jobs : (unsigned)nblocks;
		int fds[256];
		pid_t pids[256];
		for (unsigned j = 0; j < nj; j++) {
			int pfd[2];
			if (pipe(pfd)) {
				perror("vmsim check: pipe");
				return 2;
			}
			pid_t pid = fork();
			if (pid < 0) {
				perror("vmsim check: fork");
				return 2;
			}
			if (!pid) {
				close(pfd[0]);
				for (unsigned k = 0; k < j; k++)
					close(fds[k]);
				int rc = 0;
				for (uint64_t b = j; b < nblocks; b += nj) {
					run_block(&o, (uint32_t)b, br, &buf, &cap);
					if (!send_block(pfd[1], br) || br->err) {
						rc = 1;
						break;
					}
				}
				close(pfd[1]);
				_exit(rc);
			}
			close(pfd[1]);
			fds[j] = pfd[0];
			pids[j] = pid;
		}
		/* blocks arrive from worker b % nj in order: read them in block order */
		for (uint64_t b = 0; b < nblocks && !failed; b++) {
			if (!recv_block(fds[b % nj], br) || br->block != b || br->err) {
				failed = 1;
				break;
			}
			runs += br->runs;
			steps += br->steps;
			merge(tot, br);
			PROGRESS();
		}
		for (unsigned j = 0; j < nj; j++) {
			close(fds[j]);
			int st;
			waitpid(pids[j], &st, 0);
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				failed = 1;
		}
	}
	if (progress)
		fprintf(stderr, "\r\033[K"); /* the progress line goes */
#undef PROGRESS
	double dt = now_s() - o.t0;
	free(buf);
	free(br);
	if (failed) {
		fprintf(stderr, "vmsim check: a worker failed\n");
		return 2;
	}

	unsigned nviol;
	if (o.shard)
		nviol = write_shard(&o, tot, runs, steps);
	else
		nviol = report_to(&o, "check", NULL, 0, tot, runs, steps);
	if (nviol == UINT_MAX)
		return 2;
	if (o.stats)
		for (unsigned k = 0; k < INV_NR; k++)
			if (tot[k].shrunk)
				fprintf(stderr, "vmsim check: %s: %u violations shrunk, the longest to %u events\n",
					inv_name(k), tot[k].shrunk, tot[k].maxlen);
	if (o.stats)
		fprintf(stderr, "vmsim check: %" PRIu64 " steps in %.2f s: %.0f steps/s (%u job%s)\n", steps, dt,
			dt > 0 ? steps / dt : 0.0, o.jobs, o.jobs == 1 ? "" : "s");
	return nviol ? 1 : 0;
}
