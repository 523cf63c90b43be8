/*
 * trace_walk.c - an explain-style tool on libvmsim: step through a trace,
 * print each event that disagrees with the kernel's recorded answer, the
 * VMAs and the first page after every call that changes locking, the
 * unevictable counters at the end, and what a second kernel semantics
 * would have done.
 *
 *   cc trace_walk.c $(pkg-config --cflags --libs vmsim)
 *   ./a.out TRACE [KERNEL_B]
 *
 * Everything it uses is in vmsim.h; see vmsim(3).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <vmsim.h>

static void print_vmas(struct vmsim *m, int pid)
{
	struct vmsim_vma v[64];
	long n = vmsim_vmas(m, pid, v, 64);
	for (long i = 0; i < n && i < 64; i++)
		printf("    vma [%#" PRIx64 ", %#" PRIx64 ") %-24s rss %" PRIu64 " kB locked %" PRIu64
		       " kB %s\n", v[i].start, v[i].end, v[i].vmflags, v[i].rss >> 10, v[i].locked >> 10,
		       v[i].path);
}

static void difference(void *ctx, const struct vmsim_difference *d)
{
	unsigned *n = ctx;
	if ((*n)++ < 8)
		printf("  line %lu %s: %s | %s\n", d->line, d->what, d->a, d->b);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s TRACE [KERNEL_B]\n", argv[0]);
		return 2;
	}
	char err[512];
	struct vmsim_trace *t = vmsim_trace_open(argv[1], NULL, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	struct vmsim *m = vmsim_trace_machine(t);
	struct vmsim_event ev;
	unsigned long events = 0, disagree = 0;
	int k;
	while ((k = vmsim_trace_next(t, &ev, err, sizeof(err))) > 0) {
		events++;
		if (!ev.result.agrees) {
			disagree++;
			printf("line %lu: %s\n%s", ev.line, ev.text, ev.result.text);
		}
		/* the call's name, after the "PID " a multi-process trace writes */
		const char *call = ev.text + strspn(ev.text, "0123456789 ");
		if (!strncmp(call, "mlock", 5) || !strncmp(call, "munlock", 7)) {
			const char *p = strchr(call, '(');
			uint64_t addr = 0;
			printf("line %lu: %s (the model: %" PRId64 ")\n", ev.line, ev.text, ev.result.value);
			print_vmas(m, ev.pid);
			struct vmsim_page pg;
			if (p && sscanf(p + 1, "%" SCNx64, &addr) == 1 && vmsim_page(m, ev.pid, addr, &pg) == 0)
				printf("    page %#" PRIx64 ": present %d mlocked %d unevictable %d lru %d\n", addr,
				       pg.present, pg.mlocked, pg.unevictable, pg.lru);
		}
	}
	if (k < 0) {
		fprintf(stderr, "%s\n", err);
		vmsim_trace_close(t);
		return 2;
	}
	for (size_t i = 0; vmsim_counter_name(i); i++)
		if (!strncmp(vmsim_counter_name(i), "unevictable_pgs_", 16))
			printf("%s %" PRId64 "\n", vmsim_counter_name(i), vmsim_counter(m, vmsim_counter_name(i)));
	printf("%lu events, %lu disagree\n", events, disagree);
	vmsim_trace_close(t);
	if (argc > 2) {
		unsigned n = 0;
		int rc = vmsim_diff(argv[1], "6.18", argv[2], true, difference, &n, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		printf("6.18 and %s: %s (%u differences)\n", argv[2], rc ? "differ" : "agree", n);
	}
	return disagree ? 1 : 0;
}
