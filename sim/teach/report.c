/*
 * report.c - the rows of a report and the HTML page (teach.h, section "report").
 *
 * The address space is drawn on a compressed axis: every address where a
 * VMA of any row starts or ends is a boundary, and the stretch between
 * two boundaries gets a width that grows with the log of its size (a gap
 * that no row ever maps gets the least), so a 4 KiB VMA next to a 1 GiB
 * one stays visible.  Each row is one event; each VMA a bar coloured by
 * its lock state, its opacity the share of resident pages.
 */
#include "teach.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define PAGE 4096ULL
#define W 960.0          /* width of a drawing */
#define LABEL 0.0

static char *dup_text(const char *s)
{
	return vm_strdup(s ? s : "");
}

bool report_keep(struct report *r, bool diverged)
{
	r->seen++;
	r->events++;
	if (diverged)
		return true;
	return (r->seen - 1) % r->stride == 0;
}

static void side_free(struct report_side *s)
{
	free(s->result);
	free(s->explain);
	free(s->steps);
	free(s->vma);
	memset(s, 0, sizeof(*s));
}

static void row_free(struct report_row *row)
{
	free(row->event);
	side_free(&row->side[0]);
	side_free(&row->side[1]);
}

/* keep every other row (divergences and the last always): the stride
 * doubles, so the rows stay evenly spread over the trace */
static void halve(struct report *r)
{
	size_t k = 0;
	for (size_t i = 0; i < r->n; i++) {
		bool keep = (i % 2 == 0) || i + 1 == r->n || r->row[i].side[0].diverged ||
			    r->row[i].side[1].diverged;
		if (keep)
			r->row[k++] = r->row[i];
		else
			row_free(&r->row[i]);
	}
	/* the stride doubles only when rows went: rows that must stay (every
	 * divergence) may fill the table alone, and doubling on each add then
	 * wrapped the stride to 0 (a division by zero in report_keep(),
	 * issue 60) */
	if (k < r->n && r->stride <= ULONG_MAX / 2)
		r->stride *= 2;
	r->n = k;
}

struct report_row *report_add(struct report *r)
{
	if (r->n >= 2 * REPORT_ROWS_MAX)
		halve(r);
	struct report_row *n = vm_grow(r->row, &r->cap, r->n + 1, sizeof(*n));
	if (!n)
		return NULL;
	r->row = n;
	struct report_row *row = &r->row[r->n++];
	memset(row, 0, sizeof(*row));
	return row;
}

/* the index of a VMA's name in r->names (added when new; 0 anonymous or
 * out of memory) */
static uint16_t name_of(struct report *r, const char *path)
{
	if (!path || !*path)
		return 0;
	const char *base = path[0] == '[' ? path : strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	for (size_t i = 1; i < r->nnames; i++)
		if (!strcmp(r->names[i], base))
			return (uint16_t)i;
	if (r->nnames >= 0xffff)
		return 0;
	if (!r->nnames) {
		char **n = vm_grow(r->names, &r->capnames, 1, sizeof(*n));
		if (!n || !(n[0] = vm_strdup("anon")))
			return 0;
		r->names = n;
		r->nnames = 1;
	}
	char **n = vm_grow(r->names, &r->capnames, r->nnames + 1, sizeof(*n));
	if (!n)
		return 0;
	r->names = n;
	if (!(r->names[r->nnames] = vm_strdup(base)))
		return 0;
	return (uint16_t)r->nnames++;
}

/* An explanation longer than REPORT_EXPLAIN_MAX bytes (a fault whose
 * read-around and reclaim move thousands of pages) keeps its first lines
 * and says how many more `vmsim explain` tells: a report's size stays
 * bounded by its rows, whatever an event did. */
static void cut_explain(char *text, size_t len)
{
	if (!text || len <= REPORT_EXPLAIN_MAX)
		return;
	size_t at = REPORT_EXPLAIN_MAX;
	while (at && text[at - 1] != '\n')
		at--;
	unsigned long more = 0;
	for (size_t i = at; i < len; i++)
		more += text[i] == '\n';
	/* the note is shorter than the lines it replaces: at least one
	 * line of over 200 bytes, or more than one, went */
	int n = snprintf(text + at, len + 1 - at,
			 "... and %lu more lines: `vmsim explain --from N --to N` of this event's line N tells them all\n",
			 more);
	if (n < 0 || (size_t)n > len - at)
		text[at] = 0;
}

bool report_fill(struct report *r, struct report_side *side, struct vmsys *s, struct task *t,
		 const struct explain_steps *st, const char *result, bool diverged)
{
	side->result = dup_text(result);
	side->diverged = diverged;
	/* the explanation, one step a line */
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return false;
	explain_print(m, st, vmsys_semantics(s), "");
	fclose(m);
	cut_explain(text, len);
	side->explain = text;
	text = NULL;
	len = 0;
	m = open_memstream(&text, &len);
	if (!m)
		return false;
	for (size_t i = 0; i < st->n; i++)
		fprintf(m, "%s\n", st->s[i].text);
	fclose(m);
	side->steps = text;
	for (int l = 0; l < 5; l++)
		side->lru[l] = vmsys_lru_size(s, l);
	side->limit = UINT64_MAX;
	if (!t || !task_alive(t))
		return side->result && side->explain && side->steps;
	struct vm_status vs;
	vmsys_status(s, t, &vs);
	side->locked_vm = vs.locked_vm;
	uint64_t cur, max;
	bool cap;
	vmsys_task_limits(t, &cur, &max, &cap);
	side->limit = (cap || cur == UINT64_MAX) ? UINT64_MAX : cur / PAGE;
	uint64_t n = vmsys_map_count(s, t);
	/* more VMAs than a row keeps: groups of per neighbours, in order */
	uint64_t per = n > REPORT_VMAS_MAX ? (n + REPORT_VMAS_MAX - 1) / REPORT_VMAS_MAX : 1;
	uint64_t slots = (n + per - 1) / per;
	side->vma = vm_calloc(slots ? slots : 1, sizeof(*side->vma));
	if (!side->vma)
		return false;
	struct vm_vma_info vi;
	const struct vma *v = NULL;
	uint64_t seen = 0;
	while ((v = vmsys_vma_next(s, t, v, NULL)) && seen < n) {
		vmsys_vma_glance(s, v, &vi); /* bounds, name, flags, rss: no smaps walk */
		uint8_t lock = (uint8_t)picture_lock_state(s, vi.flags);
		if (seen++ % per == 0) {
			struct report_vma *o = &side->vma[side->nvma++];
			o->start = vi.start;
			o->name = name_of(r, vi.path);
			o->lock = lock;
		}
		struct report_vma *o = &side->vma[side->nvma - 1];
		o->end = vi.end;
		o->resident += vi.rss / PAGE;
		o->count++;
		if (lock == LOCK_LOCKED || (lock == LOCK_ONFAULT && o->lock == LOCK_NONE))
			o->lock = lock;
		if (o->count > 1 && o->name != name_of(r, vi.path))
			o->name = 0; /* a group of several: no one name */
	}
	return side->result && side->explain && side->steps;
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->n; i++)
		row_free(&r->row[i]);
	free(r->row);
	r->row = NULL;
	r->n = r->cap = 0;
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	r->names = NULL;
	r->nnames = r->capnames = 0;
}

/* ---- HTML ----------------------------------------------------------------- */

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* a trace's control bytes (a path with ESC in it) are no
			 * HTML, and must not reach a terminal the page is shown
			 * on: \ooo, as show maps writes them */
			if (((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n') || *s == 0x7f)
				fprintf(f, "\\%03o", (unsigned char)*s);
			else
				fputc(*s, f);
		}
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* the compressed address axis */
struct axis {
	uint64_t *b;     /* boundaries, sorted, unique */
	double *x;       /* their positions */
	bool *mapped;    /* [b[i], b[i+1]) is mapped in some row */
	size_t n;
};

static bool axis_build(struct axis *ax, const struct report *r)
{
	size_t cap = 0;
	for (size_t i = 0; i < r->n; i++)
		for (unsigned k = 0; k < r->nkernels; k++)
			cap += 2 * r->row[i].side[k].nvma;
	ax->b = vm_malloc((cap ? cap : 1) * sizeof(*ax->b));
	ax->x = NULL;
	ax->n = 0;
	if (!ax->b)
		return false;
	for (size_t i = 0; i < r->n; i++)
		for (unsigned k = 0; k < r->nkernels; k++)
			for (unsigned j = 0; j < r->row[i].side[k].nvma; j++) {
				ax->b[ax->n++] = r->row[i].side[k].vma[j].start;
				ax->b[ax->n++] = r->row[i].side[k].vma[j].end;
			}
	qsort(ax->b, ax->n, sizeof(*ax->b), cmp_u64);
	size_t u = 0;
	for (size_t i = 0; i < ax->n; i++)
		if (!u || ax->b[u - 1] != ax->b[i])
			ax->b[u++] = ax->b[i];
	ax->n = u;
	if (!u)
		return true;
	/* which stretches are ever mapped */
	bool *mapped = vm_calloc(u, sizeof(*mapped));
	ax->x = vm_malloc(u * sizeof(*ax->x));
	if (!mapped || !ax->x) {
		free(mapped);
		return false;
	}
	for (size_t i = 0; i < r->n; i++)
		for (unsigned k = 0; k < r->nkernels; k++)
			for (unsigned j = 0; j < r->row[i].side[k].nvma; j++) {
				const struct report_vma *v = &r->row[i].side[k].vma[j];
				uint64_t *p = bsearch(&v->start, ax->b, u, sizeof(*ax->b), cmp_u64);
				for (size_t q = (size_t)(p - ax->b); q + 1 < u && ax->b[q] < v->end; q++)
					mapped[q] = true;
			}
	double total = 0;
	for (size_t i = 0; i + 1 < u; i++) {
		double pages = (double)(ax->b[i + 1] - ax->b[i]) / PAGE;
		total += mapped[i] ? 2.0 + log2(1.0 + pages) : 1.0;
	}
	double at = 0;
	for (size_t i = 0; i < u; i++) {
		ax->x[i] = total > 0 ? at * (W - 2) / total + 1 : 1;
		if (i + 1 < u) {
			double pages = (double)(ax->b[i + 1] - ax->b[i]) / PAGE;
			at += mapped[i] ? 2.0 + log2(1.0 + pages) : 1.0;
		}
	}
	ax->mapped = mapped;
	return true;
}

static double axis_x(const struct axis *ax, uint64_t a)
{
	uint64_t *p = bsearch(&a, ax->b, ax->n, sizeof(*ax->b), cmp_u64);
	return p ? ax->x[p - ax->b] : 0;
}

static const char *const lock_class[] = { "unlocked", "locked", "onfault" };
static const char *const lock_label[] = { "unlocked", "VM_LOCKED", "lock on fault" };
static const char *const list_names[] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

/* the rows' height: 600 px shared by the rows, each 2 to 24 px (a short
 * trace is drawn readably; a long one was sampled to REPORT_ROWS_MAX) */
static double row_h(const struct report *r)
{
	double h = r->n ? 600.0 / (double)r->n : 24;
	return h > 24 ? 24 : h < 1 ? 1 : h;
}

#define LM 190.0 /* left margin: the time axis (line, call) */
#define TB 96.0  /* top band: the VMA names */
#define BB 70.0  /* bottom band: the addresses */

/* the call's name of an event text ("101 mlock(0x..." -> "mlock") */
static void call_name(const char *ev, char *buf, size_t len)
{
	const char *p = ev ? ev : "";
	while (*p == ' ' || (*p >= '0' && *p <= '9'))
		p++;
	size_t n = strcspn(p, "( ");
	snprintf(buf, len, "%.*s", (int)(n < 40 ? n : 40), p);
}

/* a labelled stretch of the axis: neighbouring mapped pieces of one name */
struct region {
	size_t from, to;        /* axis boundaries */
	uint16_t name;
	bool group;             /* named by a group of VMAs of several names */
};

static void label_regions(FILE *f, const struct report *r, const struct axis *ax, unsigned k,
			  double top, double bottom)
{
	/* each piece of the axis gets the name of the last row's VMA over it */
	size_t np = ax->n ? ax->n - 1 : 0, unnamed = 0;
	int32_t *piece = vm_malloc((np ? np : 1) * sizeof(*piece));
	struct region *rg = vm_calloc(np ? np : 1, sizeof(*rg));
	if (!piece || !rg) {
		free(piece);
		free(rg);
		return;
	}
	for (size_t i = 0; i < np; i++) {
		piece[i] = ax->mapped[i] ? -1 : -2; /* -1: mapped, not named yet */
		unnamed += ax->mapped[i];
	}
	for (size_t i = r->n; i-- > 0 && unnamed;) {
		const struct report_side *s = &r->row[i].side[k];
		for (unsigned j = 0; j < s->nvma; j++) {
			const struct report_vma *v = &s->vma[j];
			uint64_t *p = bsearch(&v->start, ax->b, ax->n, sizeof(*ax->b), cmp_u64);
			for (size_t q = p ? (size_t)(p - ax->b) : np; q < np && ax->b[q] < v->end; q++)
				if (piece[q] == -1) {
					piece[q] = v->count > 1 && !v->name ? 0x10000 : v->name;
					unnamed--;
				}
		}
	}
	size_t nr = 0;
	for (size_t i = 0; i < np; i++) {
		if (piece[i] < 0)
			continue;
		if (nr && rg[nr - 1].to == i && (int32_t)(rg[nr - 1].name | (rg[nr - 1].group ? 0x10000 : 0)) == piece[i])
			rg[nr - 1].to = i + 1;
		else
			rg[nr++] = (struct region){ i, i + 1, (uint16_t)(piece[i] & 0xffff), piece[i] > 0xffff };
	}
	free(piece);
	/* at most 48 labels: the widest regions; the others keep their tooltip */
	double minw = 0;
	if (nr > 48) {
		double *w = vm_malloc(nr * sizeof(*w));
		if (w) {
			for (size_t q = 0; q < nr; q++)
				w[q] = ax->x[rg[q].to] - ax->x[rg[q].from];
			for (size_t a = 0; a < 48; a++) { /* the 48th widest, by selection */
				size_t best = a;
				for (size_t b = a + 1; b < nr; b++)
					if (w[b] > w[best])
						best = b;
				double t = w[a];
				w[a] = w[best];
				w[best] = t;
			}
			minw = w[47];
			free(w);
		}
	}
	double last_x = -100;
	for (size_t q = 0; q < nr; q++) {
		double x0 = LM + ax->x[rg[q].from], x1 = LM + ax->x[rg[q].to];
		double xc = (x0 + x1) / 2;
		if (x1 - x0 < minw || xc - last_x < 11)
			continue; /* too narrow, or it would overwrite its neighbour's label */
		last_x = xc;
		fprintf(f, "<text class=\"vmlabel\" transform=\"translate(%.1f %.1f) rotate(-50)\">", xc, top - 4);
		if (rg[q].group)
			fputs("VMAs of several names", f);
		else
			esc(f, r->nnames && rg[q].name < r->nnames ? r->names[rg[q].name] : "anon");
		fprintf(f, "</text><text class=\"addr\" transform=\"translate(%.1f %.1f) rotate(50)\">%#" PRIx64
			   "</text>\n", x0 + 2, bottom + 4, ax->b[rg[q].from]);
	}
	free(rg);
}

static int eighths(uint64_t resident, uint64_t pages)
{
	return pages ? (int)(resident * 8 / pages) : 0;
}

static void space_svg(FILE *f, const struct report *r, const struct axis *ax, unsigned k)
{
	double h = row_h(r);
	double rows = h * (double)r->n;
	double width = LM + W, height = TB + rows + BB;
	fprintf(f, "<figure class=\"space\" data-kernel=\"%s\">\n<figcaption>address space under %s: a "
		   "row per event (time goes down; line and call on the left), a bar per VMA on an axis "
		   "of addresses that gives each mapping room by the log of its size and shrinks the gaps "
		   "(names above, start addresses below); colour: lock state, darkness: the share of its "
		   "pages resident</figcaption>\n", r->kernel[k], r->kernel[k]);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "viewBox=\"0 0 %.0f %.0f\">\n", width, height, width, height);
	fprintf(f, "<rect class=\"frame\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.1f\"/>\n", LM,
		TB, W, rows);
	fprintf(f, "<text class=\"axis\" x=\"4\" y=\"%.0f\">line  call</text>\n", TB - 6);
	/* the time axis: a label every row that has room for one */
	unsigned every = h >= 11 ? 1 : (unsigned)ceil(11.0 / h);
	for (size_t i = 0; i < r->n; i += every) {
		char call[48];
		call_name(r->row[i].event, call, sizeof(call));
		fprintf(f, "<text class=\"tick\" data-line=\"%lu\" x=\"4\" y=\"%.1f\">%lu  ",
			r->row[i].line, TB + h * (double)i + (h < 11 ? 9 : h / 2 + 4), r->row[i].line);
		esc(f, call);
		fputs("</text>\n", f);
	}
	if (ax->n)
		label_regions(f, r, ax, k, TB, TB + rows);
	for (size_t i = 0; i < r->n; i++) {
		const struct report_row *row = &r->row[i];
		const struct report_side *s = &row->side[k];
		double y = TB + h * (double)i;
		fprintf(f, "<g class=\"row\" data-line=\"%lu\">", row->line);
		/* a VMA narrower than a pixel joins its neighbours of the same
		 * lock state into one bar (8,000 VMAs in 960 px): the output's
		 * size is bounded by the width, not by the VMAs */
		for (unsigned j = 0; j < s->nvma;) {
			const struct report_vma *v = &s->vma[j];
			double x0 = axis_x(ax, v->start), x1 = axis_x(ax, v->end);
			uint64_t pages = (v->end - v->start) / PAGE, resident = v->resident, count = v->count;
			uint64_t end = v->end;
			unsigned j2 = j + 1;
			/* and in a dense row (more VMAs than a row can show apart),
			 * neighbours that look alike (lock state, residency in
			 * eighths) are one bar too */
			bool dense = s->nvma > 64;
			while (j2 < s->nvma && s->vma[j2].lock == v->lock &&
			       axis_x(ax, s->vma[j2].start) - x1 < 0.5 &&
			       (x1 - x0 < 1.0 || (dense && eighths(resident, pages) ==
							  eighths(s->vma[j2].resident,
								  (s->vma[j2].end - s->vma[j2].start) / PAGE)))) {
				x1 = axis_x(ax, s->vma[j2].end);
				pages += (s->vma[j2].end - s->vma[j2].start) / PAGE;
				resident += s->vma[j2].resident;
				count += s->vma[j2].count;
				end = s->vma[j2].end;
				j2++;
			}
			double op = 0.35 + 0.65 * (pages ? (double)resident / (double)pages : 0);
			fprintf(f, "<rect class=\"vma %s\" data-line=\"%lu\" x=\"%.2f\" y=\"%.2f\" "
				   "width=\"%.2f\" height=\"%.2f\" fill-opacity=\"%.2f\"><title>line %lu: "
				   "[%#" PRIx64 ", %#" PRIx64 ") ", lock_class[v->lock], row->line, LM + x0, y,
				x1 - x0 > 0.5 ? x1 - x0 : 0.5, h > 1.5 ? h - 0.5 : h, op, row->line, v->start, end);
			if (count > 1)
				fprintf(f, "%" PRIu64 " VMAs, ", count);
			else
				esc(f, r->nnames && v->name < r->nnames ? r->names[v->name] : "anon"), fputs(", ", f);
			fprintf(f, "%" PRIu64 " pages, %" PRIu64 " resident, %s</title></rect>", pages, resident,
				lock_label[v->lock]);
			j = j2;
		}
		fputs("</g>\n", f);
	}
	/* the legend: lock state and residency */
	double ly = TB + rows + BB - 14;
	fprintf(f, "<g class=\"legend\"><rect class=\"vma unlocked\" x=\"%.0f\" y=\"%.0f\" width=\"12\" "
		   "height=\"10\"/><text x=\"%.0f\" y=\"%.0f\">unlocked</text><rect class=\"vma locked\" "
		   "x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"10\"/><text x=\"%.0f\" y=\"%.0f\">VM_LOCKED</text>"
		   "<rect class=\"vma onfault\" x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"10\"/><text x=\"%.0f\" "
		   "y=\"%.0f\">lock on fault</text><rect class=\"vma unlocked\" fill-opacity=\"0.35\" x=\"%.0f\" "
		   "y=\"%.0f\" width=\"12\" height=\"10\"/><text x=\"%.0f\" y=\"%.0f\">no page resident</text>"
		   "<rect class=\"vma unlocked\" x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"10\"/><text x=\"%.0f\" "
		   "y=\"%.0f\">all resident</text></g>\n",
		4.0, ly, 20.0, ly + 9, 4.0, ly - 14, 20.0, ly - 5, 4.0, ly - 28, 20.0, ly - 19, 100.0, ly, 116.0,
		ly + 9, 100.0, ly - 14, 116.0, ly - 5);
	fputs("</svg>\n</figure>\n", f);
}

/* one polyline of a series of row values */
static void polyline(FILE *f, const struct report *r, unsigned k, const char *name, double height,
		     double max, uint64_t (*get)(const struct report_side *s, const void *arg),
		     const void *arg)
{
	fprintf(f, "<polyline class=\"series %s\" data-series=\"%s\" data-kernel=\"%s\" points=\"",
		name, name, r->kernel[k]);
	for (size_t i = 0; i < r->n; i++) {
		double x = r->n > 1 ? (W - 2) * (double)i / (double)(r->n - 1) + 1 : 1;
		double v = (double)get(&r->row[i].side[k], arg);
		double y = height - 1 - (max > 0 ? v * (height - 2) / max : 0);
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", x, y);
	}
	fputs("\"/>\n", f);
}

static uint64_t get_lru(const struct report_side *s, const void *arg)
{
	return s->lru[*(const int *)arg];
}

static uint64_t get_locked(const struct report_side *s, const void *arg)
{
	(void)arg;
	return s->locked_vm;
}

static void lists_svg(FILE *f, const struct report *r, unsigned k)
{
	double height = 160, max = 1;
	for (size_t i = 0; i < r->n; i++)
		for (int l = 0; l < 5; l++)
			if ((double)r->row[i].side[k].lru[l] > max)
				max = (double)r->row[i].side[k].lru[l];
	fprintf(f, "<figure class=\"lists\" data-kernel=\"%s\">\n<figcaption>LRU list sizes under %s "
		   "(pages, 0 to %.0f; per-CPU batches not included)</figcaption>\n", r->kernel[k],
		r->kernel[k], max);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "viewBox=\"0 0 %.0f %.0f\">\n<rect class=\"frame\" x=\"0\" y=\"0\" width=\"%.0f\" "
		   "height=\"%.0f\"/>\n", W, height, W, height, W, height);
	for (int l = 0; l < 5; l++)
		polyline(f, r, k, list_names[l], height, max, get_lru, &l);
	fputs("</svg>\n<p class=\"legend\">", f);
	for (int l = 0; l < 5; l++)
		fprintf(f, "<span class=\"key %s\">%s</span> ", list_names[l], list_names[l]);
	fputs("</p>\n</figure>\n", f);
}

static void locked_svg(FILE *f, const struct report *r, unsigned k)
{
	double height = 120, max = 1;
	uint64_t limit = UINT64_MAX;
	for (size_t i = 0; i < r->n; i++) {
		const struct report_side *s = &r->row[i].side[k];
		if ((double)s->locked_vm > max)
			max = (double)s->locked_vm;
		if (s->limit != UINT64_MAX && (limit == UINT64_MAX || s->limit > limit))
			limit = s->limit;
	}
	bool draw_limit = limit != UINT64_MAX && (double)limit <= 4 * max + 16;
	if (draw_limit && (double)limit > max)
		max = (double)limit;
	fprintf(f, "<figure class=\"locked\" data-kernel=\"%s\">\n<figcaption>locked_vm of the event's "
		   "process under %s (pages, 0 to %.0f); dashed: RLIMIT_MEMLOCK", r->kernel[k],
		r->kernel[k], max);
	if (limit == UINT64_MAX)
		fputs(" (unlimited or CAP_IPC_LOCK: not drawn)", f);
	else if (!draw_limit)
		fprintf(f, " (%" PRIu64 " pages, far above: not drawn)", limit);
	else
		fprintf(f, " = %" PRIu64 " pages", limit);
	fprintf(f, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		   "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n<rect class=\"frame\" x=\"0\" y=\"0\" "
		   "width=\"%.0f\" height=\"%.0f\"/>\n", W, height, W, height, W, height);
	if (draw_limit) {
		double y = height - 1 - (double)limit * (height - 2) / max;
		fprintf(f, "<line class=\"limit\" data-series=\"rlimit\" x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" "
			   "y2=\"%.1f\"/>\n", y, W, y);
	}
	polyline(f, r, k, "locked_vm", height, max, get_locked, NULL);
	fputs("</svg>\n</figure>\n", f);
}

static const char style[] =
	"body{font:14px/1.4 sans-serif;margin:16px;color:#222;max-width:1400px}"
	"h1{font-size:20px}h2{font-size:16px;margin-top:24px}"
	".meta{color:#555}figure{margin:8px 0}figcaption{font-size:12px;color:#444}"
	"svg{border:1px solid #ccc;background:#fafafa;display:block}"
	".pair{display:flex;gap:12px}.pair figure{flex:1 1 0;min-width:0}"
	".pair svg{width:100%;height:auto}"
	"rect.vma.unlocked{fill:#4a7bd0}rect.vma.locked{fill:#d0453a}rect.vma.onfault{fill:#e8a33a}"
	"rect.frame{fill:none;stroke:#ddd}polyline.series{fill:none;stroke-width:1.5}"
	"text{font:11px sans-serif;fill:#333}text.tick{font:10px monospace}text.addr{font:9px monospace;"
	"fill:#555}text.vmlabel{font:11px sans-serif}text.axis{font:bold 10px sans-serif}"
	".inactive_anon{stroke:#4a7bd0;color:#4a7bd0}.active_anon{stroke:#1c3f8a;color:#1c3f8a}"
	".inactive_file{stroke:#5bb55b;color:#3d8f3d}.active_file{stroke:#1f6b1f;color:#1f6b1f}"
	".unevictable{stroke:#d0453a;color:#d0453a}.locked_vm{stroke:#d0453a}"
	"line.limit{stroke:#222;stroke-dasharray:6 4}"
	".key{font-weight:bold;margin-right:8px}.swatch{display:inline-block;width:12px;height:12px;"
	"margin:0 4px 0 10px;vertical-align:middle}.swatch.unlocked{background:#4a7bd0}"
	".swatch.locked{background:#d0453a}.swatch.onfault{background:#e8a33a}"
	"table{border-collapse:collapse;font:12px monospace}td,th{border-bottom:1px solid #eee;"
	"padding:2px 6px;text-align:left;vertical-align:top}tr.ev{cursor:pointer}tr.ev:hover{"
	"background:#eef}tr.diverged td.res{color:#b00;font-weight:bold}tr.sel{background:#ffd}"
	"#why{position:sticky;top:0;background:#fff;border:1px solid #ccc;padding:8px;"
	"white-space:pre-wrap;font:12px monospace;max-height:40vh;overflow:auto}";

static const char script[] =
	"(function(){\n"
	"var why=document.getElementById('why');\n"
	"function show(line){\n"
	"  var t='';\n"
	"  document.querySelectorAll('pre.x[data-line=\"'+line+'\"]').forEach(function(p){"
	"t+=p.getAttribute('data-kernel')+' - line '+line+'\\n'+p.textContent+'\\n';});\n"
	"  why.textContent=t||('line '+line+': nothing the model reports');\n"
	"  document.querySelectorAll('tr.sel').forEach(function(r){r.classList.remove('sel');});\n"
	"  var r=document.getElementById('ev-'+line); if(r) r.classList.add('sel');\n"
	"}\n"
	"document.addEventListener('click',function(e){\n"
	"  var el=e.target.closest('[data-line]'); if(el) show(el.getAttribute('data-line'));\n"
	"});\n"
	"var h=location.hash.match(/^#line-(\\d+)$/); if(h) show(h[1]);\n"
	"document.documentElement.setAttribute('data-ready','1');\n"
	"})();\n";

void report_write(FILE *f, const struct report *r)
{
	struct axis ax = { 0 };
	bool ok = axis_build(&ax, r);
	if (ok && ax.n && !ax.mapped)
		ok = false;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>vmsim report: ",
	      f);
	esc(f, r->trace);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>vmsim report: ", style);
	esc(f, r->trace);
	fputs("</h1>\n<p class=\"meta\">kernel", f);
	fputs(r->nkernels > 1 ? "s " : " ", f);
	for (unsigned k = 0; k < r->nkernels; k++)
		fprintf(f, "%s<b>%s</b>", k ? " and " : "", r->kernel[k]);
	fprintf(f, "; %lu events", r->events);
	if (r->stride > 1)
		fprintf(f, ", %zu of them drawn (one in %lu, and every divergence)", r->n, r->stride);
	fputs(". Click a bar or a row to read what the model did at that event.</p>\n", f);
	fputs("<p class=\"legend\"><span class=\"swatch unlocked\"></span>unlocked"
	      "<span class=\"swatch locked\"></span>VM_LOCKED"
	      "<span class=\"swatch onfault\"></span>lock on fault"
	      " &#8212; the more of a VMA's pages are resident, the darker its bar.</p>\n", f);
	fputs("<pre id=\"why\">click an event</pre>\n", f);
	fputs("<h2 id=\"space\">Address space</h2>\n<div class=\"pair\">\n", f);
	if (ok)
		for (unsigned k = 0; k < r->nkernels; k++)
			space_svg(f, r, &ax, k);
	else
		fputs("<p>(out of memory drawing the address space)</p>\n", f);
	fputs("</div>\n<h2 id=\"lists\">LRU lists</h2>\n<div class=\"pair\">\n", f);
	for (unsigned k = 0; k < r->nkernels; k++)
		lists_svg(f, r, k);
	fputs("</div>\n<h2 id=\"locked\">locked_vm and RLIMIT_MEMLOCK</h2>\n<div class=\"pair\">\n", f);
	for (unsigned k = 0; k < r->nkernels; k++)
		locked_svg(f, r, k);
	fputs("</div>\n", f);
	if (r->nkernels > 1) {
		fputs("<h2 id=\"diff\">Where the two kernels differ</h2>\n<table class=\"diff\">\n<tr><th>line"
		      "</th><th>differs in</th><th>event</th>", f);
		for (unsigned k = 0; k < 2; k++)
			fprintf(f, "<th>%s</th>", r->kernel[k]);
		fputs("</tr>\n", f);
		size_t nd = 0;
		for (size_t i = 0; i < r->n; i++) {
			const struct report_row *row = &r->row[i];
			const struct report_side *a = &row->side[0], *b = &row->side[1];
			bool res = strcmp(a->result, b->result) != 0;
			bool steps = strcmp(a->steps, b->steps) != 0;
			bool lck = a->locked_vm != b->locked_vm;
			bool vmas = a->nvma != b->nvma;
			if (!res && !steps && !lck && !vmas)
				continue;
			nd++;
			fprintf(f, "<tr class=\"ev\" data-line=\"%lu\"><td>%lu</td><td>%s%s%s%s</td><td>",
				row->line, row->line, res ? "result " : "", vmas ? "VMAs " : "",
				lck ? "locked_vm " : "", steps ? "steps" : "");
			esc(f, row->event);
			for (unsigned k = 0; k < 2; k++) {
				fprintf(f, "</td><td>= ");
				esc(f, row->side[k].result);
				fprintf(f, ", %u vmas, locked_vm %" PRIu64, row->side[k].nvma,
					row->side[k].locked_vm);
			}
			fputs("</td></tr>\n", f);
		}
		if (!nd)
			fputs("<tr><td colspan=\"5\">no difference in results, steps, VMAs or locked_vm"
			      "</td></tr>\n", f);
		fputs("</table>\n", f);
	}
	fputs("<h2 id=\"calls\">Events</h2>\n<table class=\"calls\">\n<tr><th>line</th><th>pid</th>"
	      "<th>event</th>", f);
	for (unsigned k = 0; k < r->nkernels; k++)
		fprintf(f, "<th>%s</th>", r->kernel[k]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < r->n; i++) {
		const struct report_row *row = &r->row[i];
		bool div = row->side[0].diverged || (r->nkernels > 1 && row->side[1].diverged);
		fprintf(f, "<tr class=\"ev%s\" id=\"ev-%lu\" data-line=\"%lu\"><td>%lu</td><td>%d</td><td>",
			div ? " diverged" : "", row->line, row->line, row->line, row->pid);
		esc(f, row->event);
		for (unsigned k = 0; k < r->nkernels; k++) {
			fputs("</td><td class=\"res\">", f);
			esc(f, row->side[k].result);
			if (row->side[k].diverged)
				fputs(" (the trace says otherwise)", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<div hidden>\n", f);
	for (size_t i = 0; i < r->n; i++)
		for (unsigned k = 0; k < r->nkernels; k++) {
			fprintf(f, "<pre class=\"x\" data-line=\"%lu\" data-kernel=\"%s\">", r->row[i].line,
				r->kernel[k]);
			esc(f, r->row[i].side[k].explain);
			fputs("</pre>\n", f);
		}
	fprintf(f, "</div>\n<script>\n%s</script>\n</body>\n</html>\n", script);
	free(ax.b);
	free(ax.x);
	free(ax.mapped);
}

/* ---- JSON ----------------------------------------------------------------- */

/* the text of one step a line, as an array of the lines */
static void json_lines(FILE *f, const char *key, const char *text)
{
	json_key(f, key);
	fputc('[', f);
	for (const char *p = text ? text : ""; *p;) {
		size_t n = strcspn(p, "\n");
		fputs(p == text ? "" : ", ", f);
		json_strn(f, p, n);
		p += n + (p[n] == '\n');
	}
	fputc(']', f);
}

void report_write_json(FILE *f, const struct report *r)
{
	static const char *const lists[5] = { "inactive_anon", "active_anon", "inactive_file",
					      "active_file", "unevictable" };
	static const char *const locks[] = { [LOCK_NONE] = "unlocked", [LOCK_LOCKED] = "locked",
					     [LOCK_ONFAULT] = "onfault" };
	json_begin(f, "report");
	json_kv_str(f, "file", r->trace);
	json_key(f, "kernels");
	fputc('[', f);
	for (unsigned k = 0; k < r->nkernels; k++) {
		fputs(k ? ", " : "", f);
		json_str(f, r->kernel[k]);
	}
	fputc(']', f);
	json_kv_u64(f, "events", r->events);
	json_kv_u64(f, "rows", r->n);
	json_kv_u64(f, "stride", r->stride);
	json_end(f);
	for (size_t i = 0; i < r->n; i++) {
		const struct report_row *row = &r->row[i];
		json_begin(f, "row");
		json_kv_u64(f, "line", row->line);
		json_kv_i64(f, "pid", row->pid);
		json_kv_str(f, "event", row->event);
		json_key(f, "sides");
		fputc('[', f);
		for (unsigned k = 0; k < r->nkernels; k++) {
			const struct report_side *s = &row->side[k];
			fputs(k ? ", {" : "{", f);
			json_str(f, "kernel");
			fputs(": ", f);
			json_str(f, r->kernel[k]);
			json_kv_str(f, "result", s->result);
			json_kv_bool(f, "diverged", s->diverged);
			json_kv_u64(f, "locked_vm_pages", s->locked_vm);
			json_key(f, "rlimit_memlock_pages");
			if (s->limit == UINT64_MAX)
				fputs("null", f);
			else
				fprintf(f, "%" PRIu64, s->limit);
			json_key(f, "lru_pages");
			fputc('{', f);
			for (int l = 0; l < 5; l++)
				fprintf(f, "%s\"%s\": %" PRIu64, l ? ", " : "", lists[l], s->lru[l]);
			fputc('}', f);
			json_key(f, "vmas");
			fputc('[', f);
			for (unsigned v = 0; v < s->nvma; v++)
				fprintf(f, "%s{\"start\": %" PRIu64 ", \"end\": %" PRIu64
					", \"resident_pages\": %" PRIu64 ", \"lock\": \"%s\"}",
					v ? ", " : "", s->vma[v].start, s->vma[v].end, s->vma[v].resident,
					s->vma[v].lock <= LOCK_ONFAULT ? locks[s->vma[v].lock] : "?");
			fputc(']', f);
			json_lines(f, "explain", s->explain);
			fputc('}', f);
		}
		fputc(']', f);
		json_end(f);
	}
}
