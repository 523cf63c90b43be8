/*
 * picture.c - the terminal pictures of a model (teach.h, section "picture").
 */
#include "teach.h"

#include <inttypes.h>
#include <string.h>

#include "semantics.h"
#include "vmflags.h"

#define PAGE 4096ULL
#define MAX_CELLS 32

enum lock_state picture_lock_state(const struct vmsys *s, uint64_t flags)
{
	const struct semantics *sem = vmsys_semantics(s);
	if (sem->onfault_bit && (flags & sem->onfault_bit))
		return LOCK_ONFAULT;
	return (flags & VM_LOCKED) ? LOCK_LOCKED : LOCK_NONE;
}

/* the cells of one VMA: filled where a page of the cell is present */
static unsigned vma_cells(struct vmsys *s, struct task *t, const struct vm_vma_info *vi, char *out)
{
	uint64_t pages = (vi->end - vi->start) / PAGE;
	unsigned n = pages < MAX_CELLS ? (unsigned)pages : MAX_CELLS;
	if (!n)
		n = 1;
	static const char full[] = { '#', 'L', 'F' }, empty[] = { '-', 'l', 'f' };
	enum lock_state ls = picture_lock_state(s, vi->flags);
	for (unsigned i = 0; i < n; i++)
		out[i] = empty[ls];
	uint64_t a = vi->start;
	while (a < vi->end && vmsys_next_page(s, t, &a, vi->end)) {
		struct vm_page_info pi;
		if (vmsys_page(s, t, a, &pi) && pi.present) {
			uint64_t cell = (a - vi->start) / PAGE * n / pages;
			out[cell] = full[ls];
		}
		a += PAGE;
	}
	return n;
}

void picture_ruler(FILE *f, struct vmsys *s, struct task *t, unsigned width)
{
	if (!t || !task_alive(t)) {
		fprintf(f, "  (no live process)\n");
		return;
	}
	struct vm_status st;
	vmsys_status(s, t, &st);
	uint64_t nvma = vmsys_map_count(s, t);
	char who[32];
	if (task_pid(t) > 0)
		snprintf(who, sizeof(who), "pid %d", task_pid(t));
	else
		snprintf(who, sizeof(who), "the first process");
	fprintf(f, "  %s: %" PRIu64 " vma%s, locked_vm %" PRIu64 " page%s\n", who, nvma,
		nvma == 1 ? "" : "s", st.locked_vm, st.locked_vm == 1 ? "" : "s");
	if (!nvma)
		return;
	char line[512];
	unsigned col = 0;
	uint64_t prev_end = 0, line_start = 0;
	struct vm_vma_info vi;
	const struct vma *v = NULL;
	if (width < 40)
		width = 40;
	if (width > sizeof(line) - 40)
		width = sizeof(line) - 40;
	while ((v = vmsys_vma_next(s, t, v, &vi))) {
		char cells[MAX_CELLS];
		unsigned n = vma_cells(s, t, &vi, cells);
		bool adjacent = prev_end == vi.start;
		unsigned need = n + (col ? (adjacent ? 1 : 3) : 1);
		if (col && col + need + 1 > width - 32) {
			line[col++] = ']';
			line[col] = 0;
			fprintf(f, "  %#14" PRIx64 " %s %#" PRIx64 "\n", line_start, line, prev_end);
			col = 0;
		}
		if (!col) {
			line_start = vi.start;
			line[col++] = '[';
		} else if (adjacent) {
			line[col++] = '|';
		} else {
			memcpy(line + col, "] ~ [", 5);
			col += 5;
		}
		memcpy(line + col, cells, n);
		col += n;
		prev_end = vi.end;
	}
	line[col++] = ']';
	line[col] = 0;
	fprintf(f, "  %#14" PRIx64 " %s %#" PRIx64 "\n", line_start, line, prev_end);
	fprintf(f, "  key: # - page present/absent, L l VM_LOCKED, F f lock on fault, ~ gap\n");
}

void picture_lists(FILE *f, struct vmsys *s, unsigned width)
{
	static const char *const names[] = {
		"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
	};
	uint64_t size[5], max = 0;
	for (int l = 0; l < 5; l++) {
		size[l] = vmsys_lru_size(s, l);
		if (size[l] > max)
			max = size[l];
	}
	unsigned bar = width > 40 ? width - 32 : 8;
	if (bar > 48)
		bar = 48;
	for (int l = 0; l < 5; l++) {
		unsigned n = max ? (unsigned)((size[l] * bar + max - 1) / max) : 0;
		char b[64];
		memset(b, l == 4 ? 'U' : '#', n);
		memset(b + n, ' ', bar - n);
		b[bar] = 0;
		fprintf(f, "  %-14s %s %" PRIu64 "\n", names[l], b, size[l]);
	}
	unsigned la, lam, ml, mlm;
	vmsys_batches(s, &la, &lam, &ml, &mlm);
	fprintf(f, "  %-14s lru_add %u of %u, mlock %u of %u (queued, not yet moved)\n", "batches",
		la, lam, ml, mlm);
}

void picture_wrap(FILE *f, const char *text, unsigned width, unsigned indent)
{
	if (width < 20)
		width = 20;
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		size_t lead = strspn(line, " ");
		unsigned col = 0;
		const char *p = line, *end = line + len;
		bool first = true;
		while (p < end) {
			unsigned room = width - col;
			size_t rest = (size_t)(end - p);
			if (rest <= room) {
				fwrite(p, 1, rest, f);
				break;
			}
			/* break at the last space that fits (past the leading ones) */
			const char *cut = NULL;
			for (const char *q = p + room; q > p + (first ? lead : 0); q--)
				if (*q == ' ') {
					cut = q;
					break;
				}
			if (!cut)
				cut = p + room; /* one word longer than the line: cut it */
			const char *w = cut;
			while (w > p && w[-1] == ' ')
				w--; /* no space left at the end of a line */
			fwrite(p, 1, (size_t)(w - p), f);
			fputc('\n', f);
			p = cut;
			while (p < end && *p == ' ')
				p++;
			/* continuation lines: under the text, past the leading spaces */
			col = (unsigned)lead + indent;
			if (col > width / 2)
				col = width / 2;
			fprintf(f, "%*s", (int)col, "");
			first = false;
		}
		fputc('\n', f);
		line = *end ? end + 1 : end;
	}
}
