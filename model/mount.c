/*
 * mount.c - which file system a path is on: the mount table of each mount
 * namespace, and the life of a super block.
 *
 * Three kinds matter to memory (enum fs_kind): a disk file system, the
 * default for every path (readahead, writeback, blocks: file.c); tmpfs
 * (shmem: swap-backed pages, /dev/shm and /run/shm unless a mount says
 * otherwise); and ramfs (fs/ramfs/inode.c:ramfs_get_inode() @ v4.0 ..
 * v6.18: mapping_set_unevictable(), no backing device, no writeback).
 * A file takes the kind of the deepest mount over its path when the model
 * first sees it, and keeps it, as an inode keeps its super block.
 *
 * A namespace starts as a copy of another (unshare(CLONE_NEWNS),
 * clone(CLONE_NEWNS): kernel/nsproxy.c -> fs/namespace.c:copy_mnt_ns()),
 * whose mounts share their super blocks with the originals.  A super block
 * dies with its last mount - umount, or the exit of the last task of its
 * namespace (put_mnt_ns()) - and a ramfs or tmpfs one takes its files'
 * names with it (fs/super.c:kill_litter_super() -> d_genocide()): each
 * file's pages go once nothing else holds it (an open fd, a mapping).
 *
 * Paths are compared as written: a relative path is on the disk file
 * system (the model does not follow the working directory).  Namespace 0
 * is the one the trace began in; it outlives the trace.
 */
#include "alloc.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* the mount point as compared: no trailing '/', "" for the root */
static size_t mount_path_len(const char *path, size_t len)
{
	while (len && path[len - 1] == '/')
		len--;
	return len;
}

static bool path_under(const char *path, size_t len, const struct mount *m)
{
	return len >= m->len && !memcmp(path, m->path, m->len) && (len == m->len || path[m->len] == '/');
}

static bool default_tmpfs(const char *path, size_t len)
{
	return (len >= 9 && !memcmp(path, "/dev/shm/", 9)) || (len >= 9 && !memcmp(path, "/run/shm/", 9));
}

enum fs_kind mount_lookup(const struct vmsys *s, uint32_t ns, const char *path, size_t len,
			  uint32_t *sb)
{
	const struct mount *best = NULL;
	if (len && path[0] == '/')
		for (unsigned i = 0; i < s->mounts.n; i++) {
			const struct mount *m = &s->mounts.m[i];
			/* the later of two mounts on one point is on top */
			if (m->ns == ns && path_under(path, len, m) && (!best || m->len >= best->len))
				best = m;
		}
	*sb = best ? best->sb : 0;
	if (best)
		return best->kind;
	return default_tmpfs(path, len) ? FS_TMPFS : FS_DISK;
}

static int mount_add(struct vmsys *s, uint32_t ns, const char *path, size_t len, enum fs_kind kind,
		     uint32_t sb)
{
	struct mount_table *mt = &s->mounts;
	if (mt->n == mt->cap) {
		unsigned nc = mt->cap ? mt->cap * 2 : 8;
		struct mount *m = vm_realloc(mt->m, nc * sizeof(*m));
		if (!m)
			return -1;
		mt->m = m;
		mt->cap = nc;
	}
	char *p = vm_malloc(len + 1);
	if (!p)
		return -1;
	memcpy(p, path, len);
	p[len] = 0;
	mt->m[mt->n++] = (struct mount){ p, len, kind, ns, sb ? sb : ++mt->next_sb };
	return 0;
}

/* fs/super.c:kill_litter_super() @ v4.0 .. v6.18 for ramfs and tmpfs:
 * the names of the files of super block sb go (d_genocide()) */
static void sb_kill(struct vmsys *s, uint32_t sb)
{
	if (!sb || s->dying)
		return;
	for (unsigned i = 0; i < s->mounts.n; i++)
		if (s->mounts.m[i].sb == sb)
			return; /* still mounted elsewhere */
again:
	for (struct file *f = s->files; f; f = f->next_file)
		if (f->sb == sb && !f->unlinked) {
			file_set_unlinked(s, f);
			file_put(s, f); /* the name's reference: f may go, so look again */
			goto again;
		}
}

static void mount_del(struct vmsys *s, unsigned i)
{
	struct mount_table *mt = &s->mounts;
	uint32_t sb = mt->m[i].sb;
	free(mt->m[i].path);
	memmove(&mt->m[i], &mt->m[i + 1], (mt->n - i - 1) * sizeof(*mt->m));
	mt->n--;
	sb_kill(s, sb);
}

int vmsys_mount(struct vmsys *s, const char *path, size_t len, const char *fstype)
{
	enum fs_kind kind = !strcmp(fstype, "ramfs") ? FS_RAMFS : !strcmp(fstype, "tmpfs") ? FS_TMPFS : FS_DISK;
	return mount_add(s, 0, path, mount_path_len(path, len), kind, 0);
}

#define MS_REMOUNT_G 32u
#define MS_BIND_G 4096u
#define MS_MOVE_G 8192u
#define MS_PROPAGATION_G (0x10000u | 0x20000u | 0x40000u | 0x80000u) /* UNBINDABLE PRIVATE SLAVE SHARED */
#define MNT_DETACH_G 2u

/* fs/namespace.c:do_mount() @ v4.0 .. v6.18, once it has succeeded: a new
 * mount (do_new_mount()) of fstype, or a bind mount of source's file
 * system (do_loopback(): the same super block); a remount, a move or a
 * change of propagation leaves the kind of every path as it was (a move
 * is not modelled). */
int64_t vm_mount(struct vmsys *s, struct task *t, const char *target, size_t tlen, const char *fstype,
		 size_t flen, const char *source, size_t slen, uint64_t flags)
{
	s->nevents = 0;
	if ((flags & 0xffff0000u) == 0xc0ed0000u) /* MS_MGC_VAL: do_mount() drops it */
		flags &= 0xffffu;
	if (flags & (MS_REMOUNT_G | MS_MOVE_G | MS_PROPAGATION_G))
		return 0;
	tlen = mount_path_len(target, tlen);
	if (flags & MS_BIND_G) {
		uint32_t sb;
		enum fs_kind kind = mount_lookup(s, t->mnt_ns, source, mount_path_len(source, slen), &sb);
		if (!sb && kind == FS_DISK)
			return mount_add(s, t->mnt_ns, target, tlen, FS_DISK, 0) ? -KERR_ENOMEM : 0;
		return mount_add(s, t->mnt_ns, target, tlen, kind, sb) ? -KERR_ENOMEM : 0;
	}
	enum fs_kind kind = (flen == 5 && !memcmp(fstype, "ramfs", 5)) ? FS_RAMFS
			    : (flen == 5 && !memcmp(fstype, "tmpfs", 5)) ? FS_TMPFS : FS_DISK;
	return mount_add(s, t->mnt_ns, target, tlen, kind, 0) ? -KERR_ENOMEM : 0;
}

/* fs/namespace.c:ksys_umount() -> do_umount() @ v4.0 .. v6.18, once it has
 * succeeded: the top mount on target goes (MNT_DETACH: the same, as
 * nothing of the model can see the difference but busy files, which keep
 * their super block alive anyway through their references) */
int64_t vm_umount(struct vmsys *s, struct task *t, const char *target, size_t tlen, uint64_t flags)
{
	(void)flags;
	s->nevents = 0;
	tlen = mount_path_len(target, tlen);
	for (unsigned i = s->mounts.n; i-- > 0;) {
		const struct mount *m = &s->mounts.m[i];
		if (m->ns == t->mnt_ns && m->len == tlen && !memcmp(m->path, target, tlen)) {
			mount_del(s, i);
			return 0;
		}
	}
	return 0; /* a mount the model never saw (before the trace, elsewhere) */
}

static void ns_get(struct vmsys *s, uint32_t ns)
{
	s->mounts.ns_users[ns]++;
}

void mount_ns_put(struct vmsys *s, uint32_t ns)
{
	if (--s->mounts.ns_users[ns] || ns == 0)
		return;
	/* fs/namespace.c:put_mnt_ns() -> umount_tree(): every mount of it */
	for (unsigned i = s->mounts.n; i-- > 0;)
		if (s->mounts.m[i].ns == ns)
			mount_del(s, i);
}

/* the namespace a new task starts in (task_new(), fork): ns, counted */
int mount_ns_enter(struct vmsys *s, struct task *t, uint32_t ns, bool first)
{
	if (!s->mounts.ns_users && !(s->mounts.ns_users = vm_calloc(1, sizeof(uint32_t))))
		return -1;
	if (!first)
		mount_ns_put(s, t->mnt_ns);
	t->mnt_ns = ns;
	ns_get(s, ns);
	return 0;
}

/* kernel/fork.c:ksys_unshare(CLONE_NEWNS) and copy_process() with
 * CLONE_NEWNS, once they have succeeded: t moves to a new namespace that
 * starts with a copy of every mount of its old one (copy_mnt_ns()) */
int64_t vm_unshare_mnt_ns(struct vmsys *s, struct task *t)
{
	s->nevents = 0;
	struct mount_table *mt = &s->mounts;
	uint32_t *u = vm_realloc(mt->ns_users, (mt->nr_ns + 2) * sizeof(*u));
	if (!u)
		return -KERR_ENOMEM;
	mt->ns_users = u;
	uint32_t ns = ++mt->nr_ns;
	u[ns] = 0;
	unsigned n = mt->n;
	for (unsigned i = 0; i < n; i++)
		if (mt->m[i].ns == t->mnt_ns) {
			struct mount m = mt->m[i];
			if (mount_add(s, ns, m.path, m.len, m.kind, m.sb))
				return -KERR_ENOMEM;
		}
	mount_ns_enter(s, t, ns, false);
	return 0;
}

void mount_table_free(struct vmsys *s)
{
	for (unsigned i = 0; i < s->mounts.n; i++)
		free(s->mounts.m[i].path);
	free(s->mounts.m);
	free(s->mounts.ns_users);
	memset(&s->mounts, 0, sizeof(s->mounts));
}
