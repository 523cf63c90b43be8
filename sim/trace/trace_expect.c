/*
 * trace_expect.c - expect(...) lines (see trace_expect.h).
 */
#include "trace_reader.h"
#include "trace_expect.h"
#include "trace_lex.h"



/* ---- expect ------------------------------------------------------------- */

/* optional unit after a number: kB, MB, GB, B; sets *mul and *kb */
static char *parse_unit(struct trace_reader *r, char *p, uint64_t *mul, bool *kb,
			bool *bad)
{
	char *q = skip_ws(p);
	size_t n = id_len(q);
	*mul = 1;
	*kb = false;
	*bad = false;
	if (!n)
		return p;
	if (word_is(q, n, "kB") || word_is(q, n, "KB") || word_is(q, n, "KiB") ||
	    word_is(q, n, "k") || word_is(q, n, "K")) {
		*mul = 1024;
		*kb = true;
	} else if (word_is(q, n, "MB") || word_is(q, n, "MiB") || word_is(q, n, "mB")) {
		*mul = 1 << 20;
	} else if (word_is(q, n, "GB") || word_is(q, n, "GiB")) {
		*mul = 1 << 30;
	} else if (word_is(q, n, "B")) {
		*mul = 1;
	} else {
		*bad = true;
		tr_fail(r, q, "unknown unit '%.*s'", (int)n, q);
		return NULL;
	}
	return q + n;
}

static char *scaled_num(struct trace_reader *r, char *p, uint64_t *v, bool *kb)
{
	bool ovf, bad;
	uint64_t mul;
	char *q = tr_scan_u64(p, v, &ovf);
	if (!q) {
		tr_fail(r, p, "expected a number");
		return NULL;
	}
	if (ovf) {
		tr_fail(r, p, "number too large");
		return NULL;
	}
	q = parse_unit(r, q, &mul, kb, &bad);
	if (!q)
		return NULL;
	if (*v > UINT64_MAX / mul) {
		tr_fail(r, p, "number too large");
		return NULL;
	}
	*v *= mul;
	return q;
}

static int expect_kvs(struct trace_reader *r, char *p, struct event *ev, char **after)
{
	struct expect *x = &ev->exp;
	if (*p != '{')
		return tr_fail(r, p, "expected '{' or none");
	p++;
	for (;;) {
		p = skip_ws(p);
		if (*p == '}')
			break;
		size_t kl = id_len(p);
		if (!kl)
			return tr_fail(r, p, "expected a key");
		if (x->nkv >= EXPECT_MAX_KV)
			return tr_fail(r, p, "too many keys (at most %d)", EXPECT_MAX_KV);
		struct expect_kv *kv = &x->kv[x->nkv++];
		unsigned long l;
		long c;
		tr_where(r, p, &l, &c);
		kv->key.p = p;
		kv->key.len = kl;
		kv->col = (int)c;
		kv->num = 0;
		kv->is_num = kv->is_str = false;
		p += kl;
		p = skip_ws(p);
		if (*p != '=')
			return tr_fail(r, p, "expected '='");
		p = skip_ws(p + 1);
		if (*p == '"') {
			char *q = p + 1;
			while (*q && *q != '"') {
				if (*q == '\\' && q[1])
					q++;
				q++;
			}
			if (!*q)
				return tr_fail(r, p, "unterminated string");
			char *e = q + 1;
			if (tr_arg_str(r, p, e, &kv->text) < 0)
				return -1;
			kv->is_str = true;
			p = e;
		} else if (is_digit(*p)) {
			bool kb;
			char *q = scaled_num(r, p, &kv->num, &kb);
			if (!q)
				return -1;
			kv->is_num = true;
			kv->text.p = p;
			kv->text.len = (size_t)(q - p);
			p = q;
		} else if (id_len(p)) {
			size_t n = id_len(p);
			kv->text.p = p;
			kv->text.len = n;
			p += n;
		} else {
			return tr_fail(r, p, "expected a value");
		}
		p = skip_ws(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '}')
			break;
		return tr_fail(r, p, *p ? "expected ',' or '}'" : "expected '}'");
	}
	*after = p + 1;
	return 0;
}

int tr_parse_expect(struct trace_reader *r, char *open, struct event *ev)
{
	struct argv a;
	struct expect *x = &ev->exp;
	char *p = tr_split_args(r, open, &a);
	if (!p)
		return -1;
	ev->type = EV_EXPECT;
	x->nkv = 0;
	x->none = false;
	x->value = 0;
	x->value_in_kb = false;
	x->addr = x->end = 0;
	x->field.p = NULL;
	x->field.len = 0;
	if (a.n == 0)
		return tr_fail(r, open + 1, "expected a field name or vma, vmas, page");
	size_t n = id_len(a.s[0]);
	if (!n || a.s[0] + n != a.e[0])
		return tr_fail(r, a.s[0], "expected a field name or vma, vmas, page");
	if (word_is(a.s[0], n, "vma") || word_is(a.s[0], n, "page")) {
		x->kind = a.s[0][0] == 'v' ? EXP_VMA : EXP_PAGE;
		if (a.n != 2)
			return tr_fail(r, a.s[0], "expected 'expect(%.*s, ADDR)'", (int)n, a.s[0]);
		if (tr_arg_num(r, a.s[1], a.e[1], &x->addr) < 0)
			return -1;
	} else if (word_is(a.s[0], n, "rusage")) {
		x->kind = EXP_RUSAGE;
		if (a.n != 1)
			return tr_fail(r, a.s[1], "expected ')': 'expect(rusage) = {minflt=N, majflt=N}'");
	} else if (word_is(a.s[0], n, "vmas")) {
		x->kind = EXP_VMAS;
		if (a.n != 3)
			return tr_fail(r, a.s[0], "expected 'expect(vmas, START, END)'");
		if (tr_arg_num(r, a.s[1], a.e[1], &x->addr) < 0 ||
		    tr_arg_num(r, a.s[2], a.e[2], &x->end) < 0)
			return -1;
	} else {
		x->kind = EXP_FIELD;
		if (a.n != 1)
			return tr_fail(r, a.s[1], "expected ')'");
		x->field.p = a.s[0];
		x->field.len = n;
	}
	p = skip_ws(p);
	if (*p != '=')
		return tr_fail(r, p, *p ? "expected '='" : "expected '= VALUE'");
	p = skip_ws(p + 1);
	if (x->kind == EXP_RUSAGE) {
		char *vals = p;
		if (expect_kvs(r, p, ev, &p) < 0)
			return -1;
		for (unsigned i = 0; i < x->nkv; i++)
			if (!x->kv[i].is_num)
				return tr_fail(r, x->kv[i].text.p ? x->kv[i].text.p : vals,
					       "expected a count for %.*s", (int)x->kv[i].key.len, x->kv[i].key.p);
	} else if (x->kind == EXP_VMA || x->kind == EXP_PAGE) {
		n = id_len(p);
		if (n && word_is(p, n, "none")) {
			x->none = true;
			p += n;
		} else if (expect_kvs(r, p, ev, &p) < 0) {
			return -1;
		}
	} else {
		/* a /proc/PID/status or meminfo size is kept in kB as printed:
		 * the kernel prints any 64-bit count of kB (VmLck after a
		 * locked_vm wrap is 18446744073709551600 kB) */
		bool ovf, bad;
		uint64_t mul;
		char *num = p;
		p = tr_scan_u64(p, &x->value, &ovf);
		if (!p || ovf)
			return tr_fail(r, num, p ? "number too large (more than 2^64-1)" : "expected a number");
		p = parse_unit(r, p, &mul, &x->value_in_kb, &bad);
		if (!p)
			return -1;
		if (x->kind == EXP_VMAS && (x->value_in_kb || mul != 1))
			return tr_fail(r, p, "expected a plain count");
		if (mul > 1024) { /* MB, GB: in kB */
			if (x->value > UINT64_MAX / (mul / 1024))
				return tr_fail(r, num, "number too large");
			x->value *= mul / 1024;
			x->value_in_kb = true;
		}
	}
	p = skip_ws(p);
	if (*p)
		return tr_fail(r, p, "unexpected '%c' at the end of the line", *p);
	return 1;
}

