/*
 * rec_memcg.c - `vmsim record --memcg`: the recorded program alone in a
 * fresh memory cgroup, joined before its exec, and what the cgroup says.
 *
 * The controller is the machine's: cgroup v2's when /sys/fs/cgroup has the
 * memory controller, else v1's at /sys/fs/cgroup/memory.  A limit
 * (--memcg-max BYTES) is written before the exec, when the cgroup holds
 * nothing; the trace's first line says it (memcg_max() under v2,
 * memcg_limit() under v1: docs/trace-format.md).  The kernel memory the
 * program's tasks come to hold (page tables, VMAs, ...) counts against the
 * same limit and not in the model: the last lines say how much it was, and
 * a replay that diverges where the limit bound may owe it to that.
 */
#include "record.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_text(const char *path, const char *text, char *why, size_t len)
{
	FILE *f = fopen(path, "we");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		int e = errno;
		snprintf(why, len, "%s: %s", path, strerror(e));
		return -1;
	}
	return 0;
}

/* the number a cgroup file starts with, or -1 */
static long read_long(const char *dir, const char *file)
{
	char path[PATH_MAX + 64];
	long v = -1;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* KEY's value in a "key value" file (memory.stat, memory.events), or -1 */
static long read_key(const char *dir, const char *file, const char *key)
{
	char path[PATH_MAX + 64], name[128];
	long x, v = -1;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	while (v < 0 && fscanf(f, "%127s %ld", name, &x) == 2)
		if (!strcmp(name, key))
			v = x;
	fclose(f);
	return v;
}

static int controller(void)
{
	if (!access("/sys/fs/cgroup/memory/tasks", F_OK))
		return 1;
	FILE *f = fopen("/sys/fs/cgroup/cgroup.controllers", "re");
	char w[64];
	int v = 0;
	if (!f)
		return 0;
	while (fscanf(f, "%63s", w) == 1)
		if (!strcmp(w, "memory"))
			v = 2;
	fclose(f);
	return v;
}

int rec_memcg_open(struct rec_memcg *m, pid_t child, long max_bytes, char *why, size_t len)
{
	char path[PATH_MAX + 64], text[32];
	memset(m, 0, sizeof(*m));
	m->max = max_bytes;
	m->version = controller();
	if (!m->version) {
		snprintf(why, len, "no memory controller (cgroup v2 at /sys/fs/cgroup with memory, or v1 at "
				   "/sys/fs/cgroup/memory)");
		return -1;
	}
	if (m->version == 2 &&
	    write_text("/sys/fs/cgroup/cgroup.subtree_control", "+memory", why, len))
		return -1;
	snprintf(m->dir, sizeof(m->dir), "%s/vmsim-record-%d",
		 m->version == 2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", (int)getpid());
	if (mkdir(m->dir, 0755)) {
		snprintf(why, len, "%s: %s (as root)", m->dir, strerror(errno));
		return -1;
	}
	m->made = true;
	if (max_bytes >= 0) {
		/* before the program runs: the cgroup holds nothing yet */
		snprintf(path, sizeof(path), "%s/%s", m->dir, m->version == 2 ? "memory.max" : "memory.limit_in_bytes");
		snprintf(text, sizeof(text), "%ld", max_bytes);
		if (write_text(path, text, why, len))
			return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", m->dir, m->version == 2 ? "cgroup.procs" : "tasks");
	snprintf(text, sizeof(text), "%d", (int)child);
	return write_text(path, text, why, len);
}

void rec_memcg_header(const struct rec_memcg *m, FILE *out)
{
	fprintf(out, "# memcg: the program ran alone in a fresh memory cgroup (v%d), joined before its exec;\n"
		     "# memcg: the kernel memory its tasks held (page tables, VMAs, ...) counted against its\n"
		     "# memcg: limit too, which the model does not count (the last lines say how much)\n",
		m->version);
}

void rec_memcg_first_line(const struct rec_memcg *m, FILE *out, pid_t pid)
{
	if (m->max >= 0)
		fprintf(out, "%d  %s(%ld) = 0\n", (int)pid, m->version == 2 ? "memcg_max" : "memcg_limit",
			m->max / 4096 * 4096);
}

void rec_memcg_close(struct rec_memcg *m, FILE *out, pid_t pid)
{
	if (!m->made)
		return;
	if (out && m->version == 2) {
		long mx = read_key(m->dir, "memory.events", "max");
		long oom = read_key(m->dir, "memory.events", "oom");
		long kill = read_key(m->dir, "memory.events", "oom_kill");
		long peak = read_long(m->dir, "memory.peak");
		if (peak >= 0)
			fprintf(out, "# memcg: memory.peak %ld bytes (pages and kernel memory)\n", peak);
		if (mx >= 0)
			fprintf(out, "%d  expect(memcg_events_max) = %ld\n", (int)pid, mx);
		if (oom >= 0)
			fprintf(out, "%d  expect(memcg_events_oom) = %ld\n", (int)pid, oom);
		if (kill >= 0)
			fprintf(out, "%d  expect(memcg_events_oom_kill) = %ld\n", (int)pid, kill);
	} else if (out) {
		long kpeak = read_long(m->dir, "memory.kmem.max_usage_in_bytes");
		if (kpeak >= 0)
			fprintf(out, "# memcg: its kernel memory peaked at %ld bytes "
				     "(memory.kmem.max_usage_in_bytes)\n", kpeak);
	}
	/* empty once every task of it has exited */
	rmdir(m->dir);
	m->made = false;
}
