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
 * whose mounts share their super blocks with the originals.  Here the
 * copy shares the original's list of mounts itself (struct mount): what
 * either mounts goes on top of the shared tail, and a umount copies the
 * mounts above the one it takes, so a copy costs nothing and a chain of
 * namespaces holds each mount once.  A super block
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

/* A mount, a node of its namespace's list.  A namespace's copy
 * (copy_mnt_ns()) shares the whole list, and a mount added to either goes
 * on top of the shared tail, so a copy costs nothing and a chain of
 * namespaces holds each mount once, as long as the kernel's copies live:
 * refs counts the heads and the newer nodes that point at it. */
struct mount {
	struct mount *next; /* the mount below it (older) */
	uint32_t refs;
	uint32_t sb;
	enum fs_kind kind;
	size_t len;
	char path[]; /* as compared: no trailing '/', "" for the root */
};

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

/* ---- the index of a namespace's mount points ----------------------------
 *
 * The kernel finds the mount on a dentry by a hash (fs/namespace.c:
 * __lookup_mnt() @ v4.0 .. v6.18), one lookup per component of a path
 * walk.  So does the model: each namespace indexes its mount points by
 * path, each point with the mounts on it, newest last (the one on top).
 * A lookup hashes the path's prefixes as it reads it and keeps the
 * deepest point it finds: it costs the path's length, not the mounts'
 * number.  A namespace's first IDX_AFTER lookups walk its list instead
 * (a chain of namespaces that each look up a path or two costs a walk
 * each, as the kernel's copy of each costs one); the next one builds the
 * index (a copy of a namespace shares the list, not the index), which each
 * mount and umount then keep up to date.  All of them are let go, to be
 * built again, when they hold more than IDX_BUDGET points.
 */
#define IDX_AFTER 16
#define IDX_BUDGET (1u << 20)

struct mnt_point {
	struct mnt_point *chain;
	uint64_t hash;
	uint32_t n, cap;
	uint64_t *on;   /* the mounts on it, oldest first (mount_word()) */
	size_t len;
	char path[];
};

/* a mount as its point keeps it; never 0, as super blocks count from 1 */
static uint64_t mount_word(uint32_t sb, enum fs_kind kind) { return (uint64_t)sb << 8 | (uint64_t)kind; }

struct mnt_index {
	struct mnt_point **b;
	size_t nb, n;
};

/* FNV-1a, a byte a step, so that a lookup has the hash of each prefix of
 * its path as it reads it (file.c's path_hash() takes eight bytes a step
 * and seeds with the length: a prefix's would be hashed again) */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
static uint64_t fnv_step(uint64_t h, char c) { return (h ^ (unsigned char)c) * FNV_PRIME; }

static uint64_t point_hash(const char *path, size_t len)
{
	uint64_t h = FNV_OFFSET;
	for (size_t i = 0; i < len; i++)
		h = fnv_step(h, path[i]);
	return h;
}

static bool point_is(const struct mnt_point *p, const char *path, size_t len, uint64_t h)
{
	return p->hash == h && p->len == len && !memcmp(p->path, path, len);
}

/* the slot that holds the point of path, or the NULL at its chain's end */
static struct mnt_point **idx_slot(const struct mnt_index *x, const char *path, size_t len, uint64_t h)
{
	struct mnt_point **pp = &x->b[h & (x->nb - 1)];
	while (*pp && !point_is(*pp, path, len, h))
		pp = &(*pp)->chain;
	return pp;
}

static struct mnt_point *idx_find(const struct mnt_index *x, const char *path, size_t len, uint64_t h)
{
	return *idx_slot(x, path, len, h);
}

static void idx_free(struct vmsys *s, struct mnt_index *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nb; i++)
		for (struct mnt_point *p = x->b[i], *n; p; p = n) {
			n = p->chain;
			free(p->on);
			free(p);
		}
	s->mounts.idx_points -= x->n;
	free(x->b);
	free(x);
}

static int idx_grow(struct mnt_index *x)
{
	size_t nb = x->nb * 2;
	struct mnt_point **b = vm_calloc(nb, sizeof(*b));
	if (!b)
		return -1;
	for (size_t i = 0; i < x->nb; i++)
		for (struct mnt_point *p = x->b[i], *n; p; p = n) {
			n = p->chain;
			p->chain = b[p->hash & (nb - 1)];
			b[p->hash & (nb - 1)] = p;
		}
	free(x->b);
	x->b = b;
	x->nb = nb;
	return 0;
}

/* a mount of sb, kind on path goes on top of its point */
static int idx_push(struct vmsys *s, struct mnt_index *x, const char *path, size_t len, uint32_t sb,
		    enum fs_kind kind)
{
	uint64_t h = point_hash(path, len);
	struct mnt_point *p = idx_find(x, path, len, h);
	if (!p) {
		if (x->n + 1 > x->nb && idx_grow(x))
			return -1;
		if (!(p = vm_malloc(sizeof(*p) + len + 1)))
			return -1;
		*p = (struct mnt_point){ x->b[h & (x->nb - 1)], h, 0, 0, NULL, len };
		memcpy(p->path, path, len);
		p->path[len] = 0;
		x->b[h & (x->nb - 1)] = p;
		x->n++;
		s->mounts.idx_points++;
	}
	if (p->n == p->cap) {
		uint32_t nc = p->cap ? p->cap * 2 : 1;
		uint64_t *on = nc > p->cap ? vm_realloc(p->on, (size_t)nc * sizeof(*on)) : NULL;
		if (!on)
			return -1;
		p->on = on;
		p->cap = nc;
	}
	p->on[p->n++] = mount_word(sb, kind);
	return 0;
}

/* the mount on top of path goes (umount) */
static void idx_pop(struct vmsys *s, struct mnt_index *x, const char *path, size_t len)
{
	struct mnt_point **pp = idx_slot(x, path, len, point_hash(path, len));
	struct mnt_point *p = *pp;
	if (!p || --p->n)
		return;
	*pp = p->chain;
	free(p->on);
	free(p);
	x->n--;
	s->mounts.idx_points--;
}

/* the index of namespace ns, built from its list (NULL: out of memory) */
static struct mnt_index *idx_of(struct vmsys *s, uint32_t ns)
{
	struct mnt_ns *n = &s->mounts.ns[ns];
	if (n->idx)
		return n->idx;
	size_t len = 0;
	for (const struct mount *m = n->head; m; m = m->next)
		len++;
	if (s->mounts.idx_points + len > IDX_BUDGET)
		for (uint32_t i = 0; i < s->mounts.nr_ns; i++) {
			idx_free(s, s->mounts.ns[i].idx);
			s->mounts.ns[i].idx = NULL;
		}
	struct mnt_index *x = vm_calloc(1, sizeof(*x));
	const struct mount **all = vm_malloc((len ? len : 1) * sizeof(*all));
	if (x)
		x->nb = 16;
	if (!x || !all || !(x->b = vm_calloc(x->nb, sizeof(*x->b)))) {
		free(x);
		free(all);
		return NULL;
	}
	size_t i = 0;
	for (const struct mount *m = n->head; m; m = m->next)
		all[i++] = m;
	while (i--) /* oldest first: the newest ends on top */
		if (idx_push(s, x, all[i]->path, all[i]->len, all[i]->sb, all[i]->kind)) {
			idx_free(s, x);
			free(all);
			return NULL;
		}
	free(all);
	return n->idx = x;
}

/* The list of mounts, newest first, when no index can be had: the deepest
 * mount over the path, the newest of those on one point */
static const struct mount *lookup_list(const struct mount *head, const char *path, size_t len)
{
	const struct mount *best = NULL;
	for (const struct mount *m = head; m; m = m->next)
		if (path_under(path, len, m) && (!best || m->len > best->len))
			best = m;
	return best;
}

enum fs_kind mount_lookup(struct vmsys *s, uint32_t ns, const char *path, size_t len,
			  uint32_t *sb)
{
	*sb = 0;
	if (len && path[0] == '/' && ns < s->mounts.nr_ns && s->mounts.ns[ns].head) {
		struct mnt_ns *n = &s->mounts.ns[ns];
		struct mnt_index *x = n->idx || ++n->scans <= IDX_AFTER ? n->idx : idx_of(s, ns);
		uint64_t top = 0; /* the mount_word() of the mount on top, 0: none */
		if (x) {
			/* each prefix that ends before a '/', and the whole path */
			uint64_t h = FNV_OFFSET;
			for (size_t i = 0; i <= len; i++) {
				if (i == len || path[i] == '/') {
					const struct mnt_point *p = idx_find(x, path, i, h);
					if (p)
						top = p->on[p->n - 1];
				}
				if (i < len)
					h = fnv_step(h, path[i]);
			}
		} else {
			const struct mount *m = lookup_list(n->head, path, len);
			if (m)
				top = mount_word(m->sb, m->kind);
		}
		if (top) {
			*sb = (uint32_t)(top >> 8);
			return (enum fs_kind)(top & 0xff);
		}
	}
	return default_tmpfs(path, len) ? FS_TMPFS : FS_DISK;
}

/* fs/super.c:kill_litter_super() @ v4.0 .. v6.18 for ramfs and tmpfs:
 * the names of the files of super block sb go (d_genocide()) */
static void sb_kill(struct vmsys *s, uint32_t sb)
{
	if (!sb || s->dying)
		return;
again:
	for (struct file *f = s->files; f; f = f->next_file)
		if (f->sb == sb && !f->unlinked) {
			file_set_unlinked(s, f);
			file_put(s, f); /* the name's reference: f may go, so look again */
			goto again;
		}
}

/* a reference to the list from m down goes: the mounts no list holds any
 * more go, and a super block with them its last mount */
static void mount_put(struct vmsys *s, struct mount *m)
{
	while (m && !--m->refs) {
		struct mount *next = m->next;
		uint32_t sb = m->sb;
		enum fs_kind kind = m->kind;
		free(m);
		/* a disk file system's files outlive its mount */
		if (!--s->mounts.sb_mounts[sb] && kind != FS_DISK)
			sb_kill(s, sb);
		m = next;
	}
}

/* a new mount of sb (0: a new super block) on top of next, which it takes
 * a reference to */
static struct mount *mount_new(struct vmsys *s, const char *path, size_t len, enum fs_kind kind,
			       uint32_t sb, struct mount *next)
{
	struct mount_table *mt = &s->mounts;
	if (!sb && mt->next_sb == UINT32_MAX)
		return NULL;
	uint32_t id = sb ? sb : mt->next_sb + 1;
	if (id >= mt->cap_sb) {
		uint32_t nc = mt->cap_sb ? mt->cap_sb : 16;
		while (nc <= id)
			nc = nc > UINT32_MAX / 2 ? UINT32_MAX : nc * 2;
		uint32_t *c = vm_realloc(mt->sb_mounts, (size_t)nc * sizeof(*c));
		if (!c)
			return NULL;
		memset(c + mt->cap_sb, 0, (size_t)(nc - mt->cap_sb) * sizeof(*c));
		mt->sb_mounts = c;
		mt->cap_sb = nc;
	}
	struct mount *m = vm_malloc(sizeof(*m) + len + 1);
	if (!m)
		return NULL;
	memcpy(m->path, path, len);
	m->path[len] = 0;
	m->len = len;
	m->kind = kind;
	m->sb = id;
	m->refs = 1;
	m->next = next;
	if (next)
		next->refs++;
	if (!sb)
		mt->next_sb = id;
	mt->sb_mounts[id]++;
	return m;
}

static uint32_t ns_new(struct vmsys *s);

/* namespace 0, the trace's first, made before anything is mounted in it */
static int ns_first(struct vmsys *s)
{
	return s->mounts.nr_ns || (ns_new(s) == 0 && s->mounts.nr_ns) ? 0 : -1;
}

static int mount_add(struct vmsys *s, uint32_t ns, const char *path, size_t len, enum fs_kind kind,
		     uint32_t sb)
{
	if (ns_first(s))
		return -1;
	struct mnt_ns *n = &s->mounts.ns[ns];
	struct mount *m = mount_new(s, path, len, kind, sb, n->head);
	if (!m)
		return -1;
	mount_put(s, n->head); /* the head's reference is m's now */
	n->head = m;
	if (n->idx && idx_push(s, n->idx, m->path, m->len, m->sb, m->kind)) {
		idx_free(s, n->idx); /* built again when needed */
		n->idx = NULL;
	}
	return 0;
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
		kind = mount_lookup(s, t->mnt_ns, source, slen, &sb); /* "/" too */
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
	struct mnt_ns *n = &s->mounts.ns[t->mnt_ns];
	struct mount *m = n->head;
	size_t above = 0;
	while (m && !(m->len == tlen && !memcmp(m->path, target, tlen))) {
		m = m->next;
		above++;
	}
	if (!m)
		return 0; /* a mount the model never saw (before the trace, elsewhere) */
	/* the list without m: the mounts above it copied onto the one below
	 * it (the tail below stays shared), then the old list let go */
	struct mount *top = m->next, **copies = NULL;
	if (above && !(copies = vm_malloc(above * sizeof(*copies))))
		return -KERR_ENOMEM;
	size_t i = 0;
	for (struct mount *a = n->head; a != m; a = a->next)
		copies[i++] = a;
	if (top)
		top->refs++;
	while (i--) {
		struct mount *c = mount_new(s, copies[i]->path, copies[i]->len, copies[i]->kind, copies[i]->sb, top);
		mount_put(s, top); /* c holds it now (if c is not NULL) */
		if (!c) {
			free(copies);
			return -KERR_ENOMEM;
		}
		top = c;
	}
	free(copies);
	struct mount *old = n->head;
	n->head = top;
	mount_put(s, old);
	if (n->idx)
		idx_pop(s, n->idx, target, tlen);
	return 0;
}

void mount_ns_put(struct vmsys *s, uint32_t ns)
{
	struct mnt_ns *n = &s->mounts.ns[ns];
	if (--n->users || ns == 0)
		return;
	/* fs/namespace.c:put_mnt_ns() -> umount_tree(): every mount of it */
	struct mount *h = n->head;
	n->head = NULL;
	idx_free(s, n->idx);
	n->idx = NULL;
	mount_put(s, h);
}

/* a new namespace, empty, with no users: its number, or 0 when out of
 * memory (0 is the first namespace's) */
static uint32_t ns_new(struct vmsys *s)
{
	struct mount_table *mt = &s->mounts;
	if (mt->nr_ns == mt->cap_ns) {
		uint32_t nc = mt->cap_ns ? mt->cap_ns * 2 : 4;
		if (mt->cap_ns > UINT32_MAX / 2)
			return 0;
		struct mnt_ns *a = vm_realloc(mt->ns, (size_t)nc * sizeof(*a));
		if (!a)
			return 0;
		mt->ns = a;
		mt->cap_ns = nc;
	}
	mt->ns[mt->nr_ns] = (struct mnt_ns){ NULL, 0, NULL, 0 };
	return mt->nr_ns++;
}

/* the namespace a new task starts in (task_new(), fork): ns, counted */
int mount_ns_enter(struct vmsys *s, struct task *t, uint32_t ns, bool first)
{
	if (ns_first(s))
		return -1;
	uint32_t old = t->mnt_ns;
	s->mounts.ns[ns].users++;
	t->mnt_ns = ns;
	if (!first)
		mount_ns_put(s, old);
	return 0;
}

/* kernel/fork.c:ksys_unshare(CLONE_NEWNS) and copy_process() with
 * CLONE_NEWNS, once they have succeeded: t moves to a new namespace that
 * starts with a copy of every mount of its old one (copy_mnt_ns()): here
 * the old one's list itself, shared */
int64_t vm_unshare_mnt_ns(struct vmsys *s, struct task *t)
{
	s->nevents = 0;
	uint32_t ns = ns_new(s);
	if (!ns)
		return -KERR_ENOMEM;
	struct mount *h = s->mounts.ns[t->mnt_ns].head;
	s->mounts.ns[ns].head = h;
	if (h)
		h->refs++;
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

/* include/uapi/linux/limits.h: a path argument's bytes with its NUL, a
 * component's bytes */
#define PATH_MAX_G 4096
#define NAME_MAX_G 255

/* fs/namei.c:getname_flags() @ v4.0 .. v6.18 refuses a path argument of
 * PATH_MAX bytes or more, and link_path_walk() a component longer than
 * NAME_MAX: ENAMETOOLONG, before anything is looked up */
static bool name_too_long(const char *path, size_t len)
{
	if (len >= PATH_MAX_G)
		return true;
	for (size_t i = 0, c = 0; i < len; i++) {
		c = path[i] == '/' ? 0 : c + 1;
		if (c > NAME_MAX_G)
			return true;
	}
	return false;
}

int64_t vm_chdir(struct vmsys *s, struct task *t, const char *path, size_t len)
{
	s->nevents = 0;
	if (name_too_long(path, len))
		return -KERR_ENAMETOOLONG;
	size_t n;
	const char *p = path_resolve(s, t, AT_FDCWD_G, path, len, &n);
	if (!p)
		return -KERR_ENOMEM;
	if (!n || p[0] != '/')
		return 0; /* relative to a directory the model does not know */
	if (n >= PATH_MAX_G) {
		/* deeper than any path the kernel takes or prints (d_path()
		 * fails past PATH_MAX): the model lets go of the directory,
		 * and relative paths stay as written until an absolute chdir */
		if (t->fs && t->fs->path) {
			free(t->fs->path);
			t->fs->path = NULL;
		}
		return 0;
	}
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
		if (p && set_cwd(t, p, strlen(p)))
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
	for (uint32_t i = 0; i < s->mounts.nr_ns; i++) {
		struct mount *h = s->mounts.ns[i].head;
		s->mounts.ns[i].head = NULL;
		idx_free(s, s->mounts.ns[i].idx);
		s->mounts.ns[i].idx = NULL;
		mount_put(s, h);
	}
	free(s->mounts.ns);
	free(s->mounts.sb_mounts);
	memset(&s->mounts, 0, sizeof(s->mounts));
}
