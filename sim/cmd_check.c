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
#include <inttypes.h>
#include <stddef.h>
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
#include "check_gen.h"
#include "check_inv.h"
#include "check_shrink.h"
#include "cmds.h"
#include "flagtab.h"
#include "session.h"

#define CHECK_BLOCK 64u
#define MAX_REPRO 4096u
#define SHRINK_GOAL 8u   /* the promise: reproducers of at most 8 events */
#define SHRINK_TRIES 4u  /* violations of one invariant shrunk per block at most */

static const char check_usage[] =
	"usage: vmsim check --kernel NAME [--arch NAME] [--seed N] [--steps N] [--runs N]\n"
	"                   [--time SEC] [--jobs N] [--out DIR] [--invariant NAME]... [--stats]\n"
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
	bool stats;
	double t0;
};

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
	for (uint64_t r = first; r < last; r++) {
		if (o->time_budget > 0 && now_s() - o->t0 >= o->time_budget)
			break;
		uint64_t seed = o->seed + r;
		char err[256];
		if (check_run(&o->plan, seed, &ro, buf, cap, err, sizeof(err))) {
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
			memcpy(w, *buf, n * sizeof(*w));
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
		if (!tot[k].len || ib->len < tot[k].len || (ib->len == tot[k].len && ib->run < tot[k].run)) {
			tot[k].len = ib->len;
			tot[k].run = ib->run;
			tot[k].seed = ib->seed;
			memcpy(tot[k].steps, ib->steps, ib->len * sizeof(ib->steps[0]));
		}
	}
}

static bool write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		c += w;
		n -= (size_t)w;
	}
	return true;
}

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
	if (!write_all(fd, br, offsetof(struct block_res, inv)))
		return false;
	for (unsigned k = 0; k < INV_NR; k++) {
		const struct inv_best *ib = &br->inv[k];
		if (!write_all(fd, ib, offsetof(struct inv_best, steps)) ||
		    !write_all(fd, ib->steps, ib->len * sizeof(ib->steps[0])))
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

int cmd_check(int argc, char **argv)
{
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
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(check_usage, stdout);
			return 0;
		}
		if (!strcmp(a, "--stats")) {
			o.stats = true;
			continue;
		}
		static const char *const withval[] = { "--kernel", "--arch", "--seed", "--steps", "--runs",
						       "--time", "--jobs", "--out", "--invariant", NULL };
		const char *name = NULL;
		for (int k = 0; withval[k]; k++) {
			size_t l = strlen(withval[k]);
			if (!strcmp(a, withval[k])) {
				if (i + 1 >= argc) {
					fprintf(stderr, "vmsim check: %s needs a value\n", a);
					return 2;
				}
				name = withval[k];
				val = argv[++i];
			} else if (!strncmp(a, withval[k], l) && a[l] == '=') {
				name = withval[k];
				val = a + l + 1;
			}
			if (name)
				break;
		}
		if (!name) {
			fprintf(stderr, "vmsim check: unknown option '%s'\n%s", a, check_usage);
			return 2;
		}
		uint64_t v = 0;
		bool num = parse_u64(val, &v);
		if (!strcmp(name, "--kernel")) {
			kernel = val;
		} else if (!strcmp(name, "--arch")) {
			o.plan.arch = val;
		} else if (!strcmp(name, "--out")) {
			o.out = val;
		} else if (!strcmp(name, "--invariant")) {
			int id = inv_find(val);
			if (id < 0) {
				fprintf(stderr, "vmsim check: unknown invariant '%s'\n%s", val, check_usage);
				return 2;
			}
			mask |= 1u << id;
		} else if (!strcmp(name, "--time")) {
			char *end;
			o.time_budget = strtod(val, &end);
			if (*end || o.time_budget <= 0) {
				fprintf(stderr, "vmsim check: bad --time '%s'\n", val);
				return 2;
			}
		} else if (!num) {
			fprintf(stderr, "vmsim check: %s needs a number, not '%s'\n", name, val);
			return 2;
		} else if (!strcmp(name, "--seed")) {
			o.seed = v;
		} else if (!strcmp(name, "--steps")) {
			if (!v || v > 100000000) {
				fprintf(stderr, "vmsim check: --steps must be 1..100000000\n");
				return 2;
			}
			o.plan.steps = (unsigned)v;
		} else if (!strcmp(name, "--runs")) {
			if (!v) {
				fprintf(stderr, "vmsim check: --runs must be at least 1\n");
				return 2;
			}
			o.runs = v;
		} else if (!strcmp(name, "--jobs")) {
			if (!v || v > 256) {
				fprintf(stderr, "vmsim check: --jobs must be 1..256\n");
				return 2;
			}
			o.jobs = (unsigned)v;
		}
	}
	if (!kernel) {
		fprintf(stderr, "vmsim check: --kernel is required\n%s", check_usage);
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
	bool progress = isatty(2);
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

	printf("vmsim check: kernel %s, arch %s, seeds %" PRIu64 "..%" PRIu64 ", %u steps per run\n",
	       o.plan.sem->name, o.plan.arch, o.seed, o.seed + (runs ? runs - 1 : 0), o.plan.steps);
	unsigned nviol = 0, nchecked = 0;
	static char explain[4096];
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
			return 2;
		}
		printf("\n== %s: reproducer %s (run %" PRIu64 ", seed %" PRIu64 ")\n", inv_name(k), path,
		       tot[k].run, tot[k].seed);
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
