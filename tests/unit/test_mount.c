/*
 * test_mount.c - mount_lookup() (model/mount.c) finds the mount a path is
 * on by its namespace's index of mount points, kept up to date by each
 * mount and umount and built when a namespace's first lookup needs it.
 * It must answer what the mount table says: the deepest mount over the
 * path, the newest of those on one point, in the task's namespace.  A
 * reference kept here (an array of mounts per namespace, scanned whole)
 * follows random mounts, bind mounts, umounts, unshares, forks with and
 * without CLONE_NEWNS and exits, and every probe path is looked up in
 * every live namespace after each call.
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "semantics.h"
#include "vmsys.h"

#define MAXM 256
#define MAXNS 64
#define MAXT 8

static const char *const points[] = { "/", "/a", "/a/b", "/a/b/c", "/m", "/m/n", "/dev/shm", "/a/bc" };
#define NPOINTS (sizeof(points) / sizeof(points[0]))
static const char *const probes[] = { "/a/x", "/a/b/y", "/a/b/c/d/e", "/m", "/m/n/o", "/zz", "/a",
				      "/a/bc/d", "/a/b", "/dev/shm/q", "/", "/a/bcd", "/mm" };
#define NPROBES (sizeof(probes) / sizeof(probes[0]))

/* the reference: each namespace's mounts, oldest first */
struct ref_mount {
	const char *path; /* as compared: "" for "/" */
	enum fs_kind kind;
};
struct ref_ns {
	struct ref_mount m[MAXM];
	unsigned n;
};
static struct ref_ns ref[MAXNS];

static uint64_t rx;
static unsigned rnd(unsigned n)
{
	rx ^= rx << 13, rx ^= rx >> 7, rx ^= rx << 17;
	return (unsigned)(rx % n);
}

static const char *cmp_path(const char *p) { return strcmp(p, "/") ? p : ""; }

static enum fs_kind ref_lookup(const struct ref_ns *r, const char *path, bool *found)
{
	size_t len = strlen(path), best = 0;
	*found = false;
	enum fs_kind k = FS_DISK;
	for (unsigned i = 0; i < r->n; i++) { /* oldest first: a later one on a point wins */
		size_t ml = strlen(r->m[i].path);
		if (len >= ml && !memcmp(path, r->m[i].path, ml) && (len == ml || path[ml] == '/') &&
		    (!*found || ml >= best)) {
			best = ml;
			k = r->m[i].kind;
			*found = true;
		}
	}
	return k;
}

START_TEST(lookup_follows_the_table)
{
	static const char *const kinds[] = { "ramfs", "tmpfs", "ext4" };
	unsigned checked = 0;
	for (unsigned seed = 1; seed <= 40; seed++) {
		rx = 0x9E3779B97F4A7C15ULL * seed;
		struct vmsys_config c;
		vmsys_config_default(&c, semantics_find("6.18"));
		c.ram = 64ULL << 20;
		char err[256];
		struct vmsys *s = vmsys_new(&c, err, sizeof(err));
		ck_assert_msg(s != NULL, "%s", err);
		struct task *tasks[MAXT] = { vmsys_task(s, 1, true) };
		ck_assert_ptr_nonnull(tasks[0]);
		uint32_t ref_of_ns[MAXNS * 4]; /* the model's namespace -> the reference's */
		int next_pid = 2;
		unsigned nref = 1, ntasks = 1;
		ref[0].n = 0;
		ref_of_ns[tasks[0]->mnt_ns] = 0;
		for (unsigned step = 0; step < 300; step++) {
			unsigned ti = rnd(ntasks);
			struct task *t = tasks[ti];
			struct ref_ns *r = &ref[ref_of_ns[t->mnt_ns]];
			unsigned op = rnd(10);
			const char *p = points[rnd(NPOINTS)];
			if (op < 4 && r->n < MAXM) { /* mount */
				const char *k = kinds[rnd(3)];
				vmsys_begin_call(s, t);
				ck_assert_int_eq(vm_mount(s, t, p, strlen(p), k, strlen(k), "none", 4, 0), 0);
				r->m[r->n++] = (struct ref_mount){ cmp_path(p),
								    !strcmp(k, "ramfs")   ? FS_RAMFS
								    : !strcmp(k, "tmpfs") ? FS_TMPFS : FS_DISK };
			} else if (op == 4 && r->n < MAXM) { /* bind: the source's kind */
				const char *src = probes[rnd(NPROBES)];
				bool f;
				enum fs_kind k = ref_lookup(r, cmp_path(src), &f);
				if (!f)
					continue; /* a default kind: the reference does not keep it */
				vmsys_begin_call(s, t);
				ck_assert_int_eq(vm_mount(s, t, p, strlen(p), "", 0, src, strlen(src), 4096), 0);
				r->m[r->n++] = (struct ref_mount){ cmp_path(p), k };
			} else if (op < 7) { /* umount: the newest mount on the point */
				vmsys_begin_call(s, t);
				ck_assert_int_eq(vm_umount(s, t, p, strlen(p), 0), 0);
				for (unsigned i = r->n; i-- > 0;)
					if (!strcmp(r->m[i].path, cmp_path(p))) {
						memmove(&r->m[i], &r->m[i + 1], (r->n - i - 1) * sizeof(r->m[0]));
						r->n--;
						break;
					}
			} else if (op == 7 && nref < MAXNS) { /* unshare(CLONE_NEWNS) */
				vmsys_begin_call(s, t);
				ck_assert_int_eq(vm_unshare(s, t, CLONE_NEWNS_G), 0);
				ck_assert_uint_lt(t->mnt_ns, MAXNS * 4);
				ref[nref] = *r;
				ref_of_ns[t->mnt_ns] = nref++;
			} else if (op == 8 && ntasks < MAXT && nref < MAXNS) { /* fork, a new namespace or not */
				bool newns = rnd(2);
				vmsys_begin_call(s, t);
				int pid = next_pid++;
				ck_assert_int_eq(vm_fork(s, t, newns ? CLONE_NEWNS_G : 0, pid), pid);
				struct task *k = vmsys_task(s, pid, false);
				ck_assert_ptr_nonnull(k);
				ck_assert_uint_lt(k->mnt_ns, MAXNS * 4);
				if (newns) {
					ref[nref] = *r;
					ref_of_ns[k->mnt_ns] = nref++;
				}
				tasks[ntasks++] = k;
			} else if (op == 9 && ntasks > 1) { /* an exit: its namespace may go */
				vmsys_begin_call(s, t);
				vm_exit(s, t);
				tasks[ti] = tasks[--ntasks];
			}
			for (unsigned i = 0; i < ntasks; i++)
				for (unsigned q = 0; q < NPROBES; q++) {
					bool f;
					const struct ref_ns *rr = &ref[ref_of_ns[tasks[i]->mnt_ns]];
					enum fs_kind want = ref_lookup(rr, probes[q], &f);
					if (!f) /* the defaults: /dev/shm is tmpfs */
						want = !strncmp(probes[q], "/dev/shm/", 9) ? FS_TMPFS : FS_DISK;
					uint32_t sb;
					enum fs_kind got = mount_lookup(s, tasks[i]->mnt_ns, probes[q], strlen(probes[q]), &sb);
					ck_assert_msg(got == want && (sb != 0) == f,
						      "seed %u step %u: %s in namespace %u: kind %d sb %u, the table says %d (%s)",
						      seed, step, probes[q], tasks[i]->mnt_ns, got, sb, want,
						      f ? "mounted" : "no mount");
					checked++;
				}
		}
		vmsys_free(s);
	}
	ck_assert_uint_gt(checked, 100000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mount");
	TCase *tc = tcase_create("index");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, lookup_follows_the_table);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
