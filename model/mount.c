/*
 * mount.c - paths: the working directory they resolve against, and which
 * file system they are on - the mount table of each mount namespace, and
 * the life of a super block.
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
 * A relative path resolves against the working directory (chdir,
 * fchdir; shared by CLONE_FS, kept by execve) or an openat() dirfd, once
 * the trace has told it (`# cwd:`, a chdir); until then it stays as
 * written, and is on the disk file system.  "." and ".." are taken out
 * as text (a symlink on the way is not followed).  Namespace 0 is the one
 * the trace began in; it outlives the trace.
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
	enum fs_kind kind = mt->m[i].kind;
	free(mt->m[i].path);
	memmove(&mt->m[i], &mt->m[i + 1], (mt->n - i - 1) * sizeof(*mt->m));
	mt->n--;
	if (kind != FS_DISK) /* a disk file system's files outlive its mount */
		sb_kill(s, sb);
}

/* a file system type's kind: any but ramfs and tmpfs is a disk's */
static enum fs_kind fs_kind_of(const char *fstype, size_t len)
{
	return (len == 5 && !memcmp(fstype, "ramfs", 5)) ? FS_RAMFS
	       : (len == 5 && !memcmp(fstype, "tmpfs", 5)) ? FS_TMPFS : FS_DISK;
}

int vmsys_mount(struct vmsys *s, const char *path, size_t len, const char *fstype)
{
	return mount_add(s, 0, path, mount_path_len(path, len), fs_kind_of(fstype, strlen(fstype)), 0);
}

#define MS_REMOUNT_G 32u
#define MS_BIND_G 4096u
#define MS_MOVE_G 8192u
#define MS_PROPAGATION_G (0x10000u | 0x20000u | 0x40000u | 0x80000u) /* UNBINDABLE PRIVATE SLAVE SHARED */

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
	enum fs_kind kind = fs_kind_of(fstype, flen);
	uint32_t sb = 0;
	if (flags & MS_BIND_G) { /* the source's file system, the same super block */
		if (!(source = path_resolve(s, t, AT_FDCWD_G, source, slen, &slen)))
			return -KERR_ENOMEM;
		kind = mount_lookup(s, t->mnt_ns, source, mount_path_len(source, slen), &sb);
	}
	if (!(target = path_resolve(s, t, AT_FDCWD_G, target, tlen, &tlen)))
		return -KERR_ENOMEM;
	return mount_add(s, t->mnt_ns, target, mount_path_len(target, tlen), kind, sb) ? -KERR_ENOMEM : 0;
}

/* fs/namespace.c:ksys_umount() -> do_umount() @ v4.0 .. v6.18, once it has
 * succeeded: the top mount on target goes (MNT_DETACH: the same, as
 * nothing of the model can see the difference but busy files, which keep
 * their super block alive anyway through their references) */
int64_t vm_umount(struct vmsys *s, struct task *t, const char *target, size_t tlen, uint64_t flags)
{
	(void)flags;
	s->nevents = 0;
	if (!(target = path_resolve(s, t, AT_FDCWD_G, target, tlen, &tlen)))
		return -KERR_ENOMEM;
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

/* ---- the working directory ------------------------------------------- */

/* dst (cap bytes) = base + "/" + rel with "." and ".." components taken out;
 * base absolute and normalised.  The length, or 0 when it does not fit. */
static size_t path_join(char *dst, size_t cap, const char *base, size_t blen, const char *rel, size_t rlen)
{
	if (blen + rlen + 2 > cap)
		return 0;
	size_t n = blen;
	memcpy(dst, base, blen);
	if (n == 1) /* "/" */
		n = 0;
	for (size_t i = 0; i < rlen;) {
		size_t j = i;
		while (j < rlen && rel[j] != '/')
			j++;
		size_t cl = j - i;
		if (cl == 2 && rel[i] == '.' && rel[i + 1] == '.') {
			while (n && dst[n - 1] != '/')
				n--;
			if (n)
				n--; /* the '/' before it; "/.." is "/" */
		} else if (cl && !(cl == 1 && rel[i] == '.')) {
			dst[n++] = '/';
			memcpy(dst + n, rel + i, cl);
			n += cl;
		}
		i = j + 1;
	}
	if (!n)
		dst[n++] = '/';
	dst[n] = 0;
	return n;
}

static int set_cwd(struct task *t, const char *path, size_t len)
{
	char *p = vm_malloc(len + 1);
	if (!p)
		return -1;
	memcpy(p, path, len);
	p[len] = 0;
	if (!t->fs) {
		if (!(t->fs = vm_calloc(1, sizeof(*t->fs)))) {
			free(p);
			return -1;
		}
		t->fs->refs = 1;
	}
	free(t->fs->path); /* shared with CLONE_FS: every sharer moves */
	t->fs->path = p;
	return 0;
}

const char *path_resolve(struct vmsys *s, struct task *t, int64_t dirfd, const char *path, size_t len,
			 size_t *outlen)
{
	*outlen = len;
	if (!len || path[0] == '/')
		return path;
	const char *base = NULL;
	if (dirfd == AT_FDCWD_G) {
		base = t && t->fs ? t->fs->path : NULL;
	} else {
		const struct file *d = t ? file_lookup_fd(t, dirfd, NULL) : NULL;
		base = d && d->path[0] == '/' && !d->unlinked ? d->path : NULL;
	}
	if (!base)
		return path;
	size_t blen = strlen(base), need = blen + len + 2;
	if (need > s->path_cap) {
		char *b = vm_realloc(s->path_buf, need);
		if (!b)
			return NULL;
		s->path_buf = b;
		s->path_cap = need;
	}
	*outlen = path_join(s->path_buf, s->path_cap, base, blen, path, len);
	return s->path_buf;
}

int64_t vm_chdir(struct vmsys *s, struct task *t, const char *path, size_t len)
{
	s->nevents = 0;
	size_t n;
	const char *p = path_resolve(s, t, AT_FDCWD_G, path, len, &n);
	if (!p)
		return -KERR_ENOMEM;
	if (!n || p[0] != '/')
		return 0; /* relative to a directory the model does not know */
	return set_cwd(t, p, n) ? -KERR_ENOMEM : 0;
}

int64_t vm_fchdir(struct vmsys *s, struct task *t, int64_t fd)
{
	s->nevents = 0;
	const struct file *d = file_lookup_fd(t, fd, NULL);
	if (!d || d->path[0] != '/' || d->unlinked)
		return 0;
	return set_cwd(t, d->path, strlen(d->path)) ? -KERR_ENOMEM : 0;
}

int vmsys_cwd(struct vmsys *s, const char *path, size_t len)
{
	struct task *t = vmsys_task(s, 0, true);
	if (!t)
		return -1;
	char *buf = vm_malloc(len + 3);
	if (!buf)
		return -1;
	size_t n = path_join(buf, len + 3, "/", 1, path, len);
	int r = set_cwd(t, buf, n);
	free(buf);
	return r;
}

int fs_cwd_fork(struct task *c, const struct task *parent, bool share)
{
	if (!parent->fs || !parent->fs->path)
		return 0;
	if (share) {
		c->fs = parent->fs;
		c->fs->refs++;
		return 0;
	}
	return set_cwd(c, parent->fs->path, strlen(parent->fs->path));
}

void fs_cwd_put(struct task *t)
{
	if (t->fs && !--t->fs->refs) {
		free(t->fs->path);
		free(t->fs);
	}
	t->fs = NULL;
}

/* kernel/fork.c:ksys_unshare(): CLONE_NEWNS implies CLONE_FS */
int64_t vm_unshare(struct vmsys *s, struct task *t, uint64_t flags)
{
	s->nevents = 0;
	if ((flags & (CLONE_FS_G | CLONE_NEWNS_G)) && t->fs && t->fs->refs > 1) {
		char *p = t->fs->path;
		t->fs->refs--;
		t->fs = NULL;
		if (set_cwd(t, p, strlen(p)))
			return -KERR_ENOMEM;
	}
	if (flags & CLONE_NEWNS_G)
		return vm_unshare_mnt_ns(s, t);
	return 0;
}

void mount_table_free(struct vmsys *s)
{
	free(s->path_buf);
	s->path_buf = NULL;
	s->path_cap = 0;
	for (unsigned i = 0; i < s->mounts.n; i++)
		free(s->mounts.m[i].path);
	free(s->mounts.m);
	free(s->mounts.ns_users);
	memset(&s->mounts, 0, sizeof(s->mounts));
}
