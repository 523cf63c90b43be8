/*
 * file.c - files, their page cache, and the per-process fd table.
 *
 * A file is created by open/openat and named by its path; files under
 * /dev/shm (and shared anonymous mappings) are shmem: swap-backed pages
 * on the anon LRU lists, no writeback, a missing page is allocated zeroed
 * (a minor fault).  Other files are disk files: a missing page is read in
 * (a major fault) and lands on the file LRU.  The page cache holds one
 * reference per page.
 */
#include "alloc.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FD_MAX 65536

void file_get(struct file *f)
{
	f->refs++;
}

/* mm/shmem.c:shmem_undo_range() -> shmem_free_swap() @ v4.4, v6.1: the
 * swap entries of [first, last] are freed with the pages */
static void shmem_free_swap(struct vmsys *s, struct file *f, uint64_t first, uint64_t last)
{
	uint64_t idx = first;
	while (idx <= last && radix_next(&f->swapped, &idx, last)) {
		swap_free_slot(s, (uint32_t)(radix_get(&f->swapped, idx) - 1));
		radix_clear(&f->swapped, idx);
		idx++;
	}
}

static void file_drop_cache(struct vmsys *s, struct file *f, uint64_t from)
{
	uint64_t idx = from;
	while (radix_next(&f->cache, &idx, RADIX_KEY_MAX)) {
		file_remove_page(s, f, idx);
		idx++;
	}
	shmem_free_swap(s, f, from, RADIX_KEY_MAX);
}

void file_put(struct vmsys *s, struct file *f)
{
	if (--f->refs)
		return;
	if ((f->secretmem || f->ramfs) && f->unevictable)
		s->nr_unevictable_mappings--;
	if (f->ramfs)
		s->nr_ramfs_files--;
	if (f->ring)
		io_ring_release(s, f);
	if (f->huge)
		hugetlb_file_release(s, f);
	if (!s->dying) /* vmsys_free() frees the frames all at once */
		file_drop_cache(s, f, 0);
	radix_destroy(&f->cache);
	radix_destroy(&f->shadows);
	radix_destroy(&f->swapped);
	file_blocks_destroy(f);
	if (!f->unlinked)
		file_set_unlinked(s, f);
	radix_clear(&s->file_ids, f->id);
	if (f->prev_file)
		f->prev_file->next_file = f->next_file;
	else
		s->files = f->next_file;
	if (f->next_file)
		f->next_file->prev_file = f->prev_file;
	free(f->path);
	free(f);
}

/* ---- the path index --------------------------------------------------- */

#define FPATH_GONE ((struct file *)(uintptr_t)1)

/* A path's hash, eight bytes a step (a byte a step was 2% of the replay
 * of a plain strace log: every openat and stat looks a path up); the
 * last step takes the tail zero-padded.  Multiply by the golden ratio
 * and fold the high bits down, which the table's mask keeps. */
static uint64_t path_hash(const char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ len, w;
	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, p, len);
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 32;
}

static bool path_is(const struct file *f, const char *path, size_t len)
{
	return f->path_len == len && !memcmp(f->path, path, len);
}

/* the table twice as large (or as large, rid of its gone slots) */
static int fpath_rehash(struct vmsys *s)
{
	size_t cap = s->fpath_used * 4 >= s->fpath_cap ? (s->fpath_cap ? s->fpath_cap * 2 : 64) : s->fpath_cap;
	struct file **n = vm_calloc(cap, sizeof(*n));
	if (!n)
		return -1;
	for (size_t i = 0; i < s->fpath_cap; i++) {
		struct file *f = s->fpath[i];
		if (!f || f == FPATH_GONE)
			continue;
		size_t j = path_hash(f->path, strlen(f->path)) & (cap - 1);
		while (n[j])
			j = (j + 1) & (cap - 1);
		n[j] = f;
	}
	free(s->fpath);
	s->fpath = n;
	s->fpath_cap = cap;
	s->fpath_fill = s->fpath_used;
	return 0;
}

static int fpath_add(struct vmsys *s, struct file *f)
{
	if ((s->fpath_fill + 1) * 2 > s->fpath_cap && fpath_rehash(s))
		return -1;
	size_t j = path_hash(f->path, strlen(f->path)) & (s->fpath_cap - 1);
	while (s->fpath[j] && s->fpath[j] != FPATH_GONE)
		j = (j + 1) & (s->fpath_cap - 1);
	if (!s->fpath[j])
		s->fpath_fill++;
	s->fpath[j] = f;
	s->fpath_used++;
	return 0;
}

struct file *file_by_path(struct vmsys *s, const char *path, size_t len, bool special)
{
	if (!s->fpath_used)
		return NULL;
	for (size_t j = path_hash(path, len) & (s->fpath_cap - 1); s->fpath[j]; j = (j + 1) & (s->fpath_cap - 1)) {
		struct file *f = s->fpath[j];
		if (f != FPATH_GONE && (!special || f->special) && path_is(f, path, len))
			return f;
	}
	return NULL;
}

void file_set_unlinked(struct vmsys *s, struct file *f)
{
	f->unlinked = true;
	if (!s->fpath_used)
		return;
	for (size_t j = path_hash(f->path, strlen(f->path)) & (s->fpath_cap - 1); s->fpath[j];
	     j = (j + 1) & (s->fpath_cap - 1))
		if (s->fpath[j] == f) {
			s->fpath[j] = FPATH_GONE;
			s->fpath_used--;
			return;
		}
}

/* /proc, /sys and device files have no page cache of their own */
static bool path_is_pseudo(const char *path, size_t len)
{
	return (len >= 6 && !memcmp(path, "/proc/", 6)) || (len >= 5 && !memcmp(path, "/sys/", 5)) ||
	       (len >= 5 && !memcmp(path, "/dev/", 5) && memcmp(path, "/dev/shm/", len < 9 ? len : 9));
}

struct file *file_new(struct vmsys *s, const char *path, size_t len, bool shmem)
{
	struct file *f = vm_calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = vm_malloc(len + 1);
	if (!f->path) {
		free(f);
		return NULL;
	}
	if (len)
		memcpy(f->path, path, len);
	f->path[len] = 0;
	f->path_len = (uint32_t)strlen(f->path);
	f->id = ++s->next_file_id;
	f->shmem = shmem;
	f->no_cache = path_is_pseudo(path, len);
	f->ino = ++s->next_ino;
	radix_init(&f->cache);
	radix_init(&f->shadows);
	radix_init(&f->swapped);
	file_blocks_init(f);
	f->refs = 1; /* the name */
	if (radix_set(&s->file_ids, f->id, (uint64_t)(uintptr_t)f) || fpath_add(s, f)) {
		radix_clear(&s->file_ids, f->id);
		radix_destroy(&f->cache);
		radix_destroy(&f->shadows);
		radix_destroy(&f->swapped);
		file_blocks_destroy(f);
		free(f->path);
		free(f);
		return NULL;
	}
	f->next_file = s->files;
	if (s->files)
		s->files->prev_file = f;
	s->files = f;
	return f;
}

struct file *file_create_in(struct vmsys *s, uint32_t ns, const char *path, size_t len)
{
	uint32_t sb;
	enum fs_kind kind = mount_lookup(s, ns, path, len, &sb);
	/* /sys/fs/cgroup is a tmpfs, but what is under it is cgroupfs */
	struct file *f = file_new(s, path, len, kind == FS_TMPFS && !path_is_pseudo(path, len));
	if (!f)
		return NULL;
	f->sb = sb;
	if (kind == FS_RAMFS && !f->no_cache) {
		/* fs/ramfs/inode.c:ramfs_get_inode(): mapping_set_unevictable() */
		f->ramfs = true;
		f->unevictable = true;
		s->nr_unevictable_mappings++;
		s->nr_ramfs_files++;
	}
	return f;
}

bool page_dirty_accounted(struct vmsys *s, const struct page *p)
{
	if (p->flags & (PG_SWAPBACKED | PG_ANON)) /* an anon folio has no mapping to account in */
		return false;
	if (!s->nr_ramfs_files)
		return true;
	const struct file *f = file_of_page(s, p);
	return !f || file_dirty_accounted(f);
}

struct file *shmem_zero_setup(struct vmsys *s, uint64_t size)
{
	static const char name[] = "/dev/zero (deleted)";
	struct file *f = file_new(s, name, sizeof(name) - 1, true);
	if (!f)
		return NULL;
	f->size = size;
	f->size_known = true;
	f->no_cache = false; /* shmem pages of its own, despite the /dev name */
	file_set_unlinked(s, f);
	f->refs = 0; /* only its mappings hold it */
	return f;
}

bool mapping_unevictable_page(struct vmsys *s, const struct page *p)
{
	const struct file *f = file_of_page(s, p);
	return f && f->unevictable;
}

size_t shm_file_name(char name[SHM_FILE_NAME_MAX], uint64_t key)
{
	return (size_t)snprintf(name, SHM_FILE_NAME_MAX, "/SYSV%08x (deleted)", (unsigned)(key & 0xffffffffU));
}

struct file *shm_file_create(struct vmsys *s, uint64_t key, uint64_t size)
{
	/* ipc/shm.c:newseg(): shmem_kernel_file_setup("SYSV%08x"); maps shows
	 * it deleted (its inode is on the internal shm mount only) */
	char name[SHM_FILE_NAME_MAX];
	struct file *f = file_new(s, name, shm_file_name(name, key), true);
	if (!f)
		return NULL;
	f->size = size;
	f->size_known = true;
	file_set_unlinked(s, f); /* its one reference (refs = 1) is the segment's */
	return f;
}

struct file *file_of_page(struct vmsys *s, const struct page *p)
{
	return (struct file *)(uintptr_t)radix_get(&s->file_ids, p->owner);
}

pfn_t file_find_page(struct vmsys *s, struct file *f, uint64_t index)
{
	(void)s;
	return (pfn_t)radix_get(&f->cache, index);
}

/* A new uptodate page at index of f's page cache (filemap_add_folio /
 * shmem_alloc_and_add_folio): the cache's reference, the counters. */
static pfn_t cache_insert(struct vmsys *s, struct file *f, uint64_t index, bool charge)
{
	pfn_t pfn = alloc_page_for(s, charge);
	if (!pfn)
		return PFN_NONE;
	struct page *p = spage(s, pfn);
	p->flags |= PG_UPTODATE;
	if (file_swapbacked(f))
		p->flags |= PG_SWAPBACKED;
	p->owner = f->id;
	page_set_index(p, index);
	p->refcount = 1;
	if (radix_set(&f->cache, index, pfn)) {
		p->refcount = 0;
		page_uncharge(s, p);
		physmem_free(&s->pm, pfn);
		return PFN_NONE;
	}
	count_vm(s, NR_FILE_PAGES, 1);
	if (file_swapbacked(f))
		count_vm(s, NR_SHMEM, 1);
	return pfn;
}

bool shmem_index_swapped(struct file *f, uint64_t index)
{
	return f->shmem && radix_get(&f->swapped, index);
}

/* shmem_partial_swap_usage(): the pages of [first, end) out on swap */
uint64_t shmem_swapped_pages(struct file *f, uint64_t first, uint64_t end)
{
	uint64_t n = 0, idx = first;
	while (end > first && idx < end && radix_next(&f->swapped, &idx, end - 1)) {
		n++;
		idx++;
	}
	return n;
}

/*
 * mm/shmem.c:shmem_writepage() @ v4.4, v6.1 (shmem_writeout() @ v6.18),
 * from reclaim's pageout(): a slot is taken (none, or no swap at all:
 * redirty, the page is activated), the page leaves the page cache for the
 * swap cache and the mapping keeps the swap entry in its place
 * (shmem_delete_from_page_cache()).  As for anonymous pages, the write is
 * taken as done and the page freed at once (docs/model.md: no swap cache),
 * its shadow left in the slot (__remove_mapping() of a swap-cache folio,
 * 6.x).  A page fallocate left not uptodate is zeroed and written too.
 */
bool shmem_swap_out(struct vmsys *s, struct file *f, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	uint64_t index = page_index(p);
	uint32_t slot;
	if (!swap_alloc(s, &slot))
		return false;
	if (radix_set(&f->swapped, index, (uint64_t)slot + 1)) {
		swap_free_slot(s, slot); /* no room for the entry: the page stays */
		return false;
	}
	workingset_evict_anon(s, slot, p);
	radix_clear(&f->cache, index);
	count_vm(s, NR_FILE_PAGES, -1);
	count_vm(s, NR_SHMEM, -1);
	p->flags &= ~PG_DIRTY;
	p->owner = 0;
	p->refcount--; /* the cache's reference */
	return true;
}

/*
 * mm/shmem.c:shmem_swapin_folio() @ v6.1 (shmem_getpage_gfp() @ v4.4): a
 * swapped-out shmem page is read back - a major fault when a fault asked
 * (VM_FAULT_MAJOR, PGMAJFAULT) - through the swap cache
 * (read_swap_cache_async(): the shadow judged, the LRU add), then moved to
 * the page cache, marked dirty, and its slot freed.
 */
static pfn_t shmem_swap_in(struct vmsys *s, struct file *f, uint64_t index, bool *major)
{
	uint32_t slot = (uint32_t)(radix_get(&f->swapped, index) - 1);
	pfn_t pfn = cache_insert(s, f, index, true);
	if (!pfn)
		return PFN_NONE;
	if (major)
		*major = true;
	workingset_refault_anon(s, slot, pfn);
	radix_clear(&f->swapped, index);
	swap_free_slot(s, slot);
	count_vm(s, PSWPIN, 1);
	spage(s, pfn)->flags |= PG_DIRTY; /* folio_mark_dirty() */
	folio_add_lru(s, pfn);
	return pfn;
}

/* Add a page for index to the cache: *major says whether it had to be read
 * from disk (or from swap, for shmem); a shadow there is judged
 * (workingset_refault()), and the page joins the LRU through the lru_add
 * batch (filemap_add_folio()). */
pfn_t file_add_page_for(struct vmsys *s, struct file *f, uint64_t index, bool *major, bool for_write)
{
	if (shmem_index_swapped(f, index))
		return shmem_swap_in(s, f, index, major);
	pfn_t pfn = cache_insert(s, f, index, true);
	if (!pfn)
		return PFN_NONE;
	if (major)
		*major = !f->shmem;
	/* ramfs reads no device: simple_read_folio() zeroes the page */
	if (!f->shmem && !f->ramfs)
		count_vm(s, PGPGIN, 4);
	workingset_refault_file(s, f, index, pfn, for_write);
	folio_add_lru(s, pfn);
	return pfn;
}

pfn_t file_add_page(struct vmsys *s, struct file *f, uint64_t index, bool *major)
{
	return file_add_page_for(s, f, index, major, false);
}

/* A page the cache held before the trace began (inherit.c): read long ago
 * (no I/O counted), already on its LRU list. */
pfn_t file_add_cached_page(struct vmsys *s, struct file *f, uint64_t index)
{
	pfn_t pfn = cache_insert(s, f, index, false); /* someone else's memcg read it */
	if (pfn)
		lru_add_page(s, pfn, page_lru(spage(s, pfn)));
	return pfn;
}

struct unmap_ctx { int dummy; };

static bool unmap_one(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *ctx)
{
	(void)ctx;
	pfn_t pfn = pte_pfn(*pte);
	pte_changed(s);
	radix_clear(&v->mm->pt, addr >> PAGE_SHIFT);
	rmap_remove(s, v, pfn);
	return true;
}

/* split of a clean file folio: unmap_folio() + no remap; order 0 after */
void file_unmap_folio(struct vmsys *s, struct file *f, uint64_t head, uint64_t nr)
{
	for (uint64_t i = head; i < head + nr; i++) {
		pfn_t q = file_find_page(s, f, i);
		if (!q)
			continue;
		struct page *p = spage(s, q);
		if (p->mapcount) {
			p->refcount++;
			rmap_walk(s, q, unmap_one, NULL);
			p->refcount--;
		}
		p->folio_order = 0;
	}
}

/*
 * mm/memory.c:unmap_mapping_range(): zap every PTE, in every VMA mapping f,
 * of the file pages [first, last].  Truncation passes even_cows
 * (truncate_pagecache()) and also zaps the private COW copies; hole
 * punching and MADV_REMOVE (truncate_pagecache_range()) leave them.
 */
void unmap_mapping_range(struct vmsys *s, struct file *f, uint64_t first, uint64_t last,
			 bool even_cows)
{
	for (struct vma *v = f->i_mmap; v;) {
		struct vma *next = v->file_next;
		uint64_t vfirst = v->pgoff, vlast = v->pgoff + vma_pages(v) - 1;
		uint64_t a = first > vfirst ? first : vfirst;
		uint64_t b = last < vlast ? last : vlast;
		if (a <= b)
			zap_range_filtered(s, v->mm, v, v->start + ((a - v->pgoff) << PAGE_SHIFT),
					   v->start + ((b - v->pgoff + 1) << PAGE_SHIFT), !even_cows);
		v = next;
	}
}

/* Truncate one page: unmap it everywhere, drop it from the cache
 * (mm/truncate.c:truncate_inode_folio()). */
void file_remove_page(struct vmsys *s, struct file *f, uint64_t index)
{
	pfn_t pfn = (pfn_t)radix_get(&f->cache, index);
	if (!pfn)
		return;
	struct page *p = spage(s, pfn);
	p->refcount++; /* hold it while unmapping */
	if (p->mapcount)
		rmap_walk(s, pfn, unmap_one, NULL);
	radix_clear(&f->cache, index);
	count_vm(s, NR_FILE_PAGES, -1);
	if (file_swapbacked(f))
		count_vm(s, NR_SHMEM, -1);
	if (p->flags & PG_DIRTY) {
		p->flags &= ~PG_DIRTY;
		/* filemap_unaccount_folio(): cleaned only where it was counted */
		if (file_dirty_accounted(f))
			count_vm(s, NR_DIRTY, -1);
	}
	p->owner = 0;
	put_page(s, pfn); /* the cache's reference */
	put_page(s, pfn); /* ours */
}

/* ------------------------------------------------------------ fd table */

struct fdtable *fdtable_dup(struct fdtable *ft)
{
	struct fdtable *n = vm_calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->refs = 1;
	if (ft && ft->nfd) {
		n->fd = vm_calloc(ft->nfd, sizeof(*n->fd));
		if (!n->fd) {
			free(n);
			return NULL;
		}
		n->nfd = ft->nfd;
		for (unsigned i = 0; i < ft->nfd; i++) {
			n->fd[i] = ft->fd[i];
			if (n->fd[i].file)
				file_get(n->fd[i].file);
		}
	}
	return n;
}

void fdtable_put(struct vmsys *s, struct fdtable *ft)
{
	if (!ft || --ft->refs)
		return;
	for (unsigned i = 0; i < ft->nfd; i++)
		if (ft->fd[i].file)
			file_put(s, ft->fd[i].file);
	free(ft->fd);
	free(ft);
}

struct file *file_lookup_fd(struct task *t, int64_t fd, struct fd_entry **ent)
{
	if (!t->files || fd < 0 || fd >= (int64_t)t->files->nfd || !t->files->fd[fd].file)
		return NULL;
	if (ent)
		*ent = &t->files->fd[fd];
	return t->files->fd[fd].file;
}

#define O_ACCMODE_G 3u
#define O_CREAT_G 0100u
#define O_EXCL_G 0200u
#define O_TRUNC_G 01000u

int64_t vm_open(struct vmsys *s, struct task *t, const char *path, size_t pathlen,
		uint64_t oflags, int want_fd)
{
	return vm_openat(s, t, AT_FDCWD_G, path, pathlen, oflags, want_fd);
}

int64_t vm_openat(struct vmsys *s, struct task *t, int64_t dirfd, const char *path, size_t pathlen,
		  uint64_t oflags, int want_fd)
{
	if (!(path = path_resolve(s, t, dirfd, path, pathlen, &pathlen)))
		return -KERR_ENOMEM;
	struct file *f = file_by_path(s, path, pathlen, false);
	if (f && (oflags & O_CREAT_G) && (oflags & O_EXCL_G))
		return -KERR_EEXIST;
	if (!f) {
		/* a file the trace never created: take it as existing and empty
		 * until the trace tells its size (an fstat line, an inherit_file
		 * line), unless this open creates it (we cannot see the real file) */
		f = file_create_in(s, t->mnt_ns, path, pathlen);
		if (!f)
			return -KERR_ENOMEM;
		f->size_known = (oflags & O_CREAT_G) && (oflags & O_EXCL_G);
	}
	if ((oflags & O_TRUNC_G) && (oflags & O_ACCMODE_G)) {
		file_drop_cache(s, f, 0);
		file_blocks_truncate(f, 0);
		f->size = 0;
		f->size_known = true;
	}
	return fd_install(s, t, want_fd, f, ++s->next_ofd, oflags);
}

/* fs/file.c:fd_install() into slot want_fd (< 0: the lowest free one),
 * replacing what was there (dup2 semantics). */
int64_t fd_install(struct vmsys *s, struct task *t, int want_fd, struct file *f, uint32_t ofd,
		   uint64_t oflags)
{
	if (!t->files && !(t->files = fdtable_dup(NULL)))
		return -KERR_ENOMEM;
	struct fdtable *ft = t->files;
	int fd = want_fd;
	if (fd < 0 || fd >= FD_MAX) {
		for (fd = 0; fd < (int)ft->nfd && ft->fd[fd].file; fd++)
			;
	}
	if ((unsigned)fd >= ft->nfd) {
		unsigned n = ft->nfd ? ft->nfd : 16;
		while (n <= (unsigned)fd)
			n *= 2;
		struct fd_entry *nf = vm_realloc(ft->fd, n * sizeof(*nf));
		if (!nf)
			return -KERR_ENOMEM;
		memset(nf + ft->nfd, 0, (n - ft->nfd) * sizeof(*nf));
		ft->fd = nf;
		ft->nfd = n;
	}
	file_get(f); /* the descriptor's reference; the name holds its own */
	if (ft->fd[fd].file)
		file_put(s, ft->fd[fd].file);
	ft->fd[fd].file = f;
	ft->fd[fd].ofd = ofd;
	ft->fd[fd].oflags = oflags;
	ft->fd[fd].pos = 0;
	ft->fd[fd].seen = true;
	return fd;
}

/* dup/dup2/dup3/fcntl(F_DUPFD): a second descriptor of the same open file
 * description (fs/file.c:do_dup2()); newfd < 0 takes the lowest free one. */
int64_t vm_dup(struct vmsys *s, struct task *t, int64_t oldfd, int newfd)
{
	struct fd_entry *e;
	struct file *f = file_lookup_fd(t, oldfd, &e);
	if (!f)
		return -KERR_EBADF;
	if (newfd == oldfd)
		return newfd;
	uint64_t oflags = e->oflags;
	uint32_t ofd = e->ofd;
	uint64_t pos = e->pos;
	int64_t fd = fd_install(s, t, newfd, f, ofd, oflags);
	if (fd >= 0)
		t->files->fd[fd].pos = pos;
	return fd;
}

/* A descriptor made by a call the model does not otherwise follow (pipe2,
 * eventfd2, epoll_create1, socket ...): an anonymous inode nothing can map
 * here; memfd_create() makes a shmem file that can be mapped
 * (mm/memfd.c). */
/*
 * mm/secretmem.c:SYSCALL_DEFINE1(memfd_secret) @ v6.18: ENOSYS where the
 * kernel has none or has it off, EINVAL for a flag but O_CLOEXEC; a file
 * of the secretmem pseudo fs whose pages are allocated zeroed on fault
 * (secretmem_fault(): no read-around, no fault-around), not swap-backed,
 * on an unevictable mapping (secretmem_file_create()).  Its size is set
 * once (vm_ftruncate()), its mappings are shared and VM_LOCKED (vm_mmap()),
 * and mlock_fixup() leaves them alone (vma_supports_mlock()).
 */
int64_t vm_memfd_secret(struct vmsys *s, struct task *t, uint64_t flags, int fd)
{
	s->nevents = 0;
	if (!s->sem->has_memfd_secret)
		return -KERR_ENOSYS;
	if (flags & ~(uint64_t)02000000) /* O_CLOEXEC (generic numbering) */
		return -KERR_EINVAL;
	static const char name[] = "/secretmem (deleted)";
	struct file *f = file_new(s, name, sizeof(name) - 1, true);
	if (!f)
		return -KERR_ENOMEM;
	file_set_unlinked(s, f);
	f->size_known = true;
	f->secretmem = true;
	f->unevictable = true; /* mapping_set_unevictable() */
	s->nr_unevictable_mappings++;
	int64_t r = fd_install(s, t, fd, f, ++s->next_ofd, 2 /* O_RDWR */);
	file_put(s, f); /* only the descriptor names it */
	return r;
}

int64_t vm_fd_new(struct vmsys *s, struct task *t, int fd, const char *name, size_t namelen,
		  bool memfd)
{
	char buf[300];
	int n = memfd ? snprintf(buf, sizeof(buf), "/memfd:%.*s (deleted)", (int)namelen, name)
		      : snprintf(buf, sizeof(buf), "anon_inode:[%.*s]", (int)namelen, name);
	if (n < 0)
		return -KERR_EINVAL;
	struct file *f = file_new(s, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1, memfd);
	if (!f)
		return -KERR_ENOMEM;
	file_set_unlinked(s, f);
	f->size_known = true;
	f->anon_inode = !memfd;
	int64_t r = fd_install(s, t, fd, f, ++s->next_ofd, 2 /* O_RDWR */);
	file_put(s, f); /* only the descriptor names it */
	return r;
}

bool vm_fd_seen(struct task *t, int64_t fd)
{
	return t->files && fd >= 0 && fd < (int64_t)t->files->nfd && t->files->fd[fd].seen;
}

int64_t vm_close(struct vmsys *s, struct task *t, int64_t fd)
{
	struct fd_entry *e;
	struct file *f = file_lookup_fd(t, fd, &e);
	if (!f)
		return -KERR_EBADF;
	e->file = NULL;
	file_put(s, f);
	return 0;
}

int64_t vm_unlink(struct vmsys *s, struct task *t, const char *path, size_t pathlen)
{
	if (!(path = path_resolve(s, t, AT_FDCWD_G, path, pathlen, &pathlen)))
		return -KERR_ENOMEM;
	struct file *g = file_by_path(s, path, pathlen, false);
	if (!g)
		return -KERR_ENOENT;
	file_set_unlinked(s, g);
	/* /proc shows an unlinked file as "PATH (deleted)" (d_path()) */
	size_t pl = strlen(g->path);
	char *np = vm_realloc(g->path, pl + sizeof(" (deleted)"));
	if (np) {
		memcpy(np + pl, " (deleted)", sizeof(" (deleted)"));
		g->path = np;
		g->path_len = (uint32_t)(pl + sizeof(" (deleted)") - 1);
	}
	file_put(s, g); /* the name's reference */
	return 0;
}


/* mm/truncate.c:truncate_inode_partial_folio() + try_folio_split_or_unmap()
 * @ 6.18.y: a large non-shmem folio that holds byte-index idx and is not
 * wholly inside [first, end) is unmapped from every VMA (split or not:
 * remap_page() does not remap file folios; on split failure try_to_unmap()
 * with TTU_IGNORE_MLOCK); a dirty one cannot be split (ext4 dirty buffers:
 * filemap_release_folio() fails) and stays whole in the cache - returns
 * true then, with [*kfirst, *kend) the folio's index range to keep. */
static bool partial_folio(struct vmsys *s, struct file *f, uint64_t idx, uint64_t first,
			  uint64_t end, uint64_t *kfirst, uint64_t *kend)
{
	pfn_t pfn = file_find_page(s, f, idx);
	if (!pfn || !spage(s, pfn)->folio_order)
		return false;
	uint64_t nr = 1ULL << spage(s, pfn)->folio_order, head = idx & ~(nr - 1);
	if (head >= first && head + nr <= end)
		return false; /* wholly truncated */
	if (f->shmem || !s->sem->pagecache_large_folios) {
		file_split_folio(s, f, head == idx ? idx + 1 : idx);
		return false;
	}
	bool dirty = false, clean_blocks = s->sem->partial_punch_cleans_blocks;
	for (uint64_t i = head; i < head + nr; i++) {
		pfn_t q = file_find_page(s, f, i);
		if (!q)
			continue;
		struct page *p = spage(s, q);
		if (clean_blocks && i >= first && i < end)
			p->flags |= PG_NOBUFS; /* folio_invalidate() of the hole's part */
		if ((p->flags & PG_DIRTY) && !(clean_blocks && (p->flags & PG_NOBUFS)))
			dirty = true;
		if (p->mapcount) {
			p->refcount++;
			rmap_walk(s, q, unmap_one, NULL);
			p->refcount--;
		}
	}
	if (dirty) {
		*kfirst = head;
		*kend = head + nr;
		return true;
	}
	for (uint64_t i = head; i < head + nr; i++) {
		pfn_t q = file_find_page(s, f, i);
		if (q)
			spage(s, q)->folio_order = 0;
	}
	return false;
}


/* ext4 zeroes the tail of an unaligned EOF block through the page cache;
 * an uncached block leaves a cached folio that is not uptodate.  Growing
 * i_size (write beyond EOF, truncate up, fallocate) past the old unaligned
 * EOF does it since 6.13 (c7fc0366c656); truncating down to an unaligned
 * size does it for the new EOF block in every version (ext4_truncate() ->
 * ext4_block_truncate_page(), the same in v4.0 and v6.1; hole or data). */
static void eof_block_zero(struct vmsys *s, struct file *f, uint64_t eof, bool shrink)
{
	if (f->shmem || f->ramfs || !(eof & (PAGE_SIZE - 1)) || (!shrink && !s->sem->eof_block_not_uptodate))
		return;
	if (file_find_page(s, f, eof >> PAGE_SHIFT))
		return;
	pfn_t pfn = file_add_page(s, f, eof >> PAGE_SHIFT, NULL);
	if (pfn)
		spage(s, pfn)->flags &= ~PG_UPTODATE;
}

/* mm/shmem.c:shmem_undo_range() @ v6.18 (the same set_page_dirty() in
 * v4.0, v4.4 and v6.1): the folios at the first and the last byte of
 * [lstart, lend] are marked dirty; one only partly inside the range stays
 * in the cache (truncate_inode_partial_folio()), dirty, so it survives
 * reclaim without swap (checked on 6.18.44 by a hand test; docs/fidelity.md). */
static void shmem_dirty_partial(struct vmsys *s, struct file *f, uint64_t lstart, uint64_t lend)
{
	if (!f->shmem)
		return;
	uint64_t ends[2] = { lstart >> PAGE_SHIFT, lend >> PAGE_SHIFT };
	for (int i = 0; i < 2; i++) {
		uint64_t first = ends[i] << PAGE_SHIFT, last = first + PAGE_SIZE - 1;
		if (first >= lstart && last <= lend)
			continue;
		/* shmem_get_partial_folio() @ v6.1: a partial page out on swap
		 * is read back (shmem_get_folio(SGP_READ)) to be zeroed */
		pfn_t pfn = file_find_page(s, f, ends[i]);
		if (!pfn && shmem_index_swapped(f, ends[i]))
			pfn = file_add_page(s, f, ends[i], NULL);
		if (pfn)
			spage(s, pfn)->flags |= PG_DIRTY; /* folio_mark_dirty() */
	}
}

/* truncate_setsize() + truncate_pagecache(): pages wholly beyond the new
 * size go; the partial last page stays (its tail is zeroed). */
static void file_set_size(struct vmsys *s, struct file *f, uint64_t size)
{
	if (size < f->size) {
		uint64_t first = (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
		shmem_dirty_partial(s, f, size, UINT64_MAX);
		unmap_mapping_range(s, f, first, RADIX_KEY_MAX, true);
		uint64_t kf = 0, ke = 0;
		if (partial_folio(s, f, size >> PAGE_SHIFT, first, RADIX_KEY_MAX, &kf, &ke) && ke > first)
			first = ke;
		file_drop_cache(s, f, first);
		/* truncate_inode_pages_range(): the shadows go too */
		workingset_forget_file(s, f, (size + PAGE_SIZE - 1) >> PAGE_SHIFT, RADIX_KEY_MAX);
		eof_block_zero(s, f, size, true);
		file_blocks_truncate(f, size);
	} else if (size > f->size) {
		eof_block_zero(s, f, f->size, false);
	}
	f->size = size;
	f->size_known = true;
}

/* fs/sync.c:do_fsync() -> file_write_and_wait_range(): every dirty page
 * is written back and clean when the call returns */
int64_t vm_fsync(struct vmsys *s, struct task *t, int64_t fd)
{
	struct file *f = file_lookup_fd(t, fd, NULL);
	if (!f)
		return -KERR_EBADF;
	uint64_t idx = 0;
	while (radix_next(&f->cache, &idx, RADIX_KEY_MAX)) {
		struct page *p = spage(s, (pfn_t)radix_get(&f->cache, idx));
		/* ramfs: noop_fsync() - its pages stay dirty */
		if ((p->flags & PG_DIRTY) && file_dirty_accounted(f)) {
			p->flags &= ~PG_DIRTY;
			count_vm(s, NR_DIRTY, -1);
		}
		idx++;
	}
	return 0;
}

/* mm/fadvise.c:generic_fadvise() POSIX_FADV_DONTNEED @ v6.18: after
 * lru_add_drain(), mapping_try_invalidate() drops the pages of the range
 * that are clean, unmapped and not mlocked (mm/truncate.c:
 * mapping_evict_folio()); the partial pages at both ends stay */
int64_t vm_fadvise(struct vmsys *s, struct task *t, int64_t fd, uint64_t off, uint64_t len,
		   uint64_t advice)
{
	struct file *f = file_lookup_fd(t, fd, NULL);
	if (!f)
		return -KERR_EBADF;
	if (advice != 4 || f->shmem)
		return 0; /* shmem: fadvise is a no-op on tmpfs */
	if (f->ramfs && s->sem->fadvise_skips_noop_bdi)
		return 0;
	lru_add_drain(s);
	uint64_t end = len ? off + len - 1 : UINT64_MAX - 1;
	uint64_t first = (off + PAGE_SIZE - 1) >> PAGE_SHIFT, last = (end + 1) >> PAGE_SHIFT;
	if (end == UINT64_MAX - 1)
		last = RADIX_KEY_MAX;
	else if (last)
		last--; /* the page holding end only if end is its last byte */
	else
		return 0;
	for (uint64_t idx = first; idx <= last && radix_next(&f->cache, &idx, last); idx++) {
		struct page *p = spage(s, (pfn_t)radix_get(&f->cache, idx));
		if ((p->flags & (PG_DIRTY | PG_MLOCKED)) || p->mapcount)
			continue;
		file_remove_page(s, f, idx);
	}
	workingset_forget_file(s, f, first, last); /* invalidate_exceptional_entry() */
	return 0;
}

int64_t vm_ftruncate(struct vmsys *s, struct task *t, int64_t fd, uint64_t len)
{
	struct fd_entry *e;
	struct file *f = file_lookup_fd(t, fd, &e);
	if (!f)
		return -KERR_EBADF;
	if ((int64_t)len < 0)
		return -KERR_EINVAL;
	if (!(e->oflags & O_ACCMODE_G))
		return -KERR_EINVAL;
	if (f->secretmem && f->size)
		return -KERR_EINVAL; /* mm/secretmem.c:secretmem_setattr(): the size is set once */
	file_set_size(s, f, len);
	return 0;
}

#define FALLOC_KEEP_SIZE 1u
#define FALLOC_PUNCH_HOLE 2u
#define FALLOC_ZERO_RANGE 0x10u

/* FALLOC_FL_PUNCH_HOLE, from fallocate() or MADV_REMOVE (madvise_remove()
 * -> vfs_fallocate() @ v6.18): truncate_pagecache_range() on the hole */
int file_punch_hole(struct vmsys *s, struct file *f, uint64_t off, uint64_t len)
{
	/* whole pages in the hole are removed (truncate_pagecache_range) */
	uint64_t first = (off + PAGE_SIZE - 1) >> PAGE_SHIFT;
	uint64_t end = (off + len) >> PAGE_SHIFT;
	shmem_dirty_partial(s, f, off, off + len - 1);
	if (end > first)
		unmap_mapping_range(s, f, first, end - 1, false);
	uint64_t kf = 0, ke = 0, lo = first, hi = end;
	if (partial_folio(s, f, off >> PAGE_SHIFT, first, end, &kf, &ke)) {
		if (ke > lo)
			lo = ke;
		if (ke > end) /* same folio */
			hi = lo;
	}
	if (((off + len - 1) >> PAGE_SHIFT) < kf || ((off + len - 1) >> PAGE_SHIFT) >= ke || !ke) {
		uint64_t kf2 = 0, ke2 = 0;
		if (partial_folio(s, f, (off + len - 1) >> PAGE_SHIFT, first, end, &kf2, &ke2) && kf2 < hi)
			hi = kf2;
	}
	for (uint64_t i = lo; i < hi; i++)
		file_remove_page(s, f, i);
	if (end > first) { /* truncate_inode_pages_range(): the hole's shadows */
		workingset_forget_file(s, f, first, end - 1);
		shmem_free_swap(s, f, first, end - 1);
	}
	/* ext4_punch_hole(): the whole pages' blocks go */
	return end > first ? file_blocks_freed(f, first, end - 1) : 0;
}

/* mm/shmem.c:shmem_fallocate() @ v6.18 (the same in v4.0, v4.4, v6.1):
 * shmem_get_folio(SGP_FALLOC) for every page of the range, beyond i_size
 * too.  A new folio stays not uptodate (a failed fallocate can tell its
 * own folios apart and undo them); every folio, new or cached, is marked
 * dirty, so reclaim without swap keeps it.  A second fallocate() over a
 * folio the first left not uptodate zeroes it and makes it uptodate.
 * Checked on 6.18.44 by a hand test (docs/fidelity.md). */
static int shmem_falloc_range(struct vmsys *s, struct file *f, uint64_t off, uint64_t len)
{
	uint64_t end = (off + len + PAGE_SIZE - 1) >> PAGE_SHIFT;
	for (uint64_t idx = off >> PAGE_SHIFT; idx < end; idx++) {
		pfn_t pfn = file_find_page(s, f, idx);
		if (!pfn) {
			bool swapped = shmem_index_swapped(f, idx); /* read back, uptodate */
			pfn = file_add_page(s, f, idx, NULL);
			if (!pfn)
				return -1;
			if (!swapped)
				spage(s, pfn)->flags &= ~PG_UPTODATE;
		} else {
			/* shmem_get_folio_gfp(SGP_FALLOC): a folio an earlier
			 * fallocate left not uptodate is zeroed now, uptodate */
			spage(s, pfn)->flags |= PG_UPTODATE;
		}
		spage(s, pfn)->flags |= PG_DIRTY; /* folio_mark_dirty() */
	}
	return 0;
}

int64_t vm_fallocate(struct vmsys *s, struct task *t, int64_t fd, uint64_t mode,
		     uint64_t off, uint64_t len)
{
	struct fd_entry *e;
	struct file *f = file_lookup_fd(t, fd, &e);
	if (!f)
		return -KERR_EBADF;
	if ((int64_t)off < 0 || (int64_t)len <= 0)
		return -KERR_EINVAL;
	if ((mode & FALLOC_PUNCH_HOLE) && !(mode & FALLOC_KEEP_SIZE))
		return -KERR_EOPNOTSUPP;
	if (!(e->oflags & O_ACCMODE_G))
		return -KERR_EBADF; /* fs/open.c:vfs_fallocate(): not open for writing */
	if (mode & FALLOC_PUNCH_HOLE)
		return file_punch_hole(s, f, off, len) ? -KERR_ENOMEM : 0;
	/* ext4_zero_range(): the whole pages become unwritten extents, read
	 * as zeros without I/O (fileblocks.c) */
	if ((mode & FALLOC_ZERO_RANGE) && (off + len) >> PAGE_SHIFT > (off + PAGE_SIZE - 1) >> PAGE_SHIFT &&
	    file_blocks_freed(f, (off + PAGE_SIZE - 1) >> PAGE_SHIFT, ((off + len) >> PAGE_SHIFT) - 1))
		return -KERR_ENOMEM;
	if (f->shmem && shmem_falloc_range(s, f, off, len))
		return -KERR_ENOMEM;
	if (!(mode & FALLOC_KEEP_SIZE) && off + len > f->size) {
		eof_block_zero(s, f, f->size, false);
		f->size = off + len;
	}
	return 0;
}

#define MAX_PAGECACHE_ORDER 9

/*
 * generic_perform_write() + __filemap_get_folio(FGP_WRITEBEGIN |
 * fgf_set_order(len)) @ v6.18 on a file with large folios: each missing
 * stretch gets a folio of order floor(log2(bytes left)) - PAGE_SHIFT, made
 * smaller until it is aligned to its index and overlaps no cached page.
 */
static int write_large_folios(struct vmsys *s, struct file *f, uint64_t pos, uint64_t n)
{
	uint64_t end = pos + n;
	while (pos < end) {
		uint64_t idx = pos >> PAGE_SHIFT;
		if (file_find_page(s, f, idx)) {
			pos = (idx + 1) << PAGE_SHIFT;
			continue;
		}
		uint64_t chunk = PAGE_SIZE << MAX_PAGECACHE_ORDER;
		uint64_t bytes = chunk - (pos & (chunk - 1));
		if (bytes > end - pos)
			bytes = end - pos;
		unsigned order = 0;
		while ((2ULL << order) * PAGE_SIZE <= bytes && order < MAX_PAGECACHE_ORDER)
			order++;
		while (order && (idx & ((1ULL << order) - 1)))
			order--;
		for (;;) {
			bool clash = false;
			for (uint64_t i = 0; i < (1ULL << order) && !clash; i++)
				clash = file_find_page(s, f, idx + i) != PFN_NONE;
			if (!clash || !order)
				break;
			order--;
		}
		for (uint64_t i = 0; i < (1ULL << order); i++) {
			pfn_t pfn = file_add_page_for(s, f, idx + i, NULL, true);
			if (!pfn)
				return -1;
			spage(s, pfn)->folio_order = (uint8_t)order;
		}
		pos = (idx + (1ULL << order)) << PAGE_SHIFT;
	}
	return 0;
}

/* Split a large folio that straddles the boundary between pages idx-1 and
 * idx into single pages (truncating part of a folio:
 * truncate_inode_partial_folio() splits it).  A folio that merely starts
 * or ends at the boundary is left alone. */
void file_split_folio(struct vmsys *s, struct file *f, uint64_t idx)
{
	pfn_t pfn = file_find_page(s, f, idx);
	if (!pfn || !spage(s, pfn)->folio_order)
		return;
	uint64_t nr = 1ULL << spage(s, pfn)->folio_order, head = idx & ~(nr - 1);
	if (head == idx)
		return;
	for (uint64_t i = head; i < head + nr; i++) {
		pfn_t q = file_find_page(s, f, i);
		if (q)
			spage(s, q)->folio_order = 0;
	}
}

void vm_exec_reads(struct vmsys *s, struct task *t, const char *path, size_t pathlen)
{
	struct file *f = file_by_path(s, path, pathlen, false);
	if (f && t->nexec_reads < sizeof(t->exec_reads) / sizeof(t->exec_reads[0])) {
		f->refs++; /* another process may unlink it before the execve */
		t->exec_reads[t->nexec_reads++] = f;
	}
	t->exec_reads_fresh = true;
}

void file_exec_reads_forget(struct vmsys *s, struct task *t)
{
	while (t->nexec_reads)
		file_put(s, t->exec_reads[--t->nexec_reads]);
}

/* fs/exec.c:prepare_binprm() @ v6.18 (v4.0: the same read, 128 bytes):
 * kernel_read() of the header at 0 through the struct file open_exec()
 * made, whose readahead state is fresh (file_ra_state_init()); the ELF
 * interpreter's header, fs/binfmt_elf.c:elf_read(), likewise.  On a file
 * the cache does not hold it reads the initial window and marks its
 * async part PG_readahead (mm/readahead.c:page_cache_sync_ra()). */
bool file_exec_read(struct vmsys *s, struct file *f)
{
	if (f->shmem || f->no_cache || !f->size_known || !f->size)
		return true;
	struct file_ra ra = { 0 };
	if (!filemap_read_ra(s, f, &ra, 0, 0))
		return false;
	pfn_t pfn = file_find_page(s, f, 0);
	if (!pfn && !(pfn = file_add_page_for(s, f, 0, NULL, false)))
		return false;
	spage(s, pfn)->flags |= PG_UPTODATE;
	mark_page_accessed(s, pfn);
	return true;
}

/* read()/write() through the page cache: every page touched is brought in
 * and marked accessed; writes dirty disk-file pages and extend the size. */
int64_t vm_file_io(struct vmsys *s, struct task *t, int64_t fd, bool write,
		   int64_t off, uint64_t count, int64_t done)
{
	struct fd_entry *e;
	struct file *f = file_lookup_fd(t, fd, &e);
	if (!f)
		return -KERR_EBADF;
	uint64_t pos = off < 0 ? e->pos : (uint64_t)off;
	uint64_t n = done >= 0 ? (uint64_t)done : count;
	if (f->no_cache) {
		if (off < 0)
			e->pos = pos + n;
		return (int64_t)n;
	}
	if (!write) {
		if (done < 0)
			n = pos >= f->size ? 0 : (f->size - pos < count ? f->size - pos : count);
	} else if (pos + n > f->size) {
		if (pos > f->size)
			eof_block_zero(s, f, f->size, false);
		f->size = pos + n;
	}
	if (n && write && !f->shmem && !f->ramfs && s->sem->pagecache_large_folios &&
	    write_large_folios(s, f, pos, n))
		return -KERR_ENOMEM;
	struct file_ra *ra = file_ra_of(s, e->ofd);
	if (!ra)
		return -KERR_ENOMEM;
	/* ramfs: ra_pages 0 (noop_backing_dev_info), and force_page_cache_ra()
	 * reads nothing with io_pages 0 either: each missing page is made by
	 * filemap_create_folio() below (mm/filemap.c:filemap_get_pages() @ v6.1) */
	if (n && !write && !f->shmem && !f->ramfs && pos < f->size &&
	    !filemap_read_ra(s, f, ra, pos >> PAGE_SHIFT, (pos + n - 1) >> PAGE_SHIFT))
		return -KERR_ENOMEM;
	if (n && !write && !f->shmem)
		ra->prev_pos = pos + n;
	if (n) {
		for (uint64_t idx = pos >> PAGE_SHIFT; idx <= (pos + n - 1) >> PAGE_SHIFT; idx++) {
			pfn_t pfn = file_find_page(s, f, idx);
			if (!pfn && !write && f->shmem && !shmem_index_swapped(f, idx))
				continue; /* shmem_file_read_iter(): a hole reads as
					   * ZERO_PAGE, nothing is added (hand test M) */
			if (!pfn && !(pfn = file_add_page_for(s, f, idx, NULL, write)))
				return -KERR_ENOMEM;
			struct page *p = spage(s, pfn);
			/* written or read: uptodate; but shmem_file_read_iter()
			 * reads a not-uptodate (fallocated) shmem folio as a hole
			 * (shmem_get_folio(SGP_READ) @ v6.18) */
			if (write || !f->shmem)
				p->flags |= PG_UPTODATE;
			if (write && !f->shmem)
				p->flags &= ~PG_NOBUFS; /* the block is dirtied again */
			if (write && file_dirty_accounted(f) && !(p->flags & PG_DIRTY))
				count_vm(s, NR_DIRTY, 1);
			if (write && file_blocks_written(f, idx, idx))
				return -KERR_ENOMEM;
			if (write) /* simple_write_end(): set_page_dirty() on ramfs too */
				p->flags |= PG_DIRTY;
			mark_page_accessed(s, pfn);
		}
	}
	if (off < 0)
		e->pos = pos + n;
	return (int64_t)n;
}
