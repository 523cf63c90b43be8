/* json.c - JSON Lines output (see replay.h, section "json"). */
#include "replay.h"

#include <inttypes.h>
#include <string.h>

/* the length of a valid UTF-8 sequence at s (at most n bytes), 0 if none */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;
	if (s[0] < 0xc2)
		return 0;
	if (s[0] < 0xe0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] < 0xf0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] < 0xf5) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void json_strn(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	fputc('"', f);
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c >= 0x80) {
			size_t l = utf8_len(s + i, n - i);
			if (!l) {
				fprintf(f, "\\u%04x", c);
			} else {
				fwrite(s + i, 1, l, f);
				i += l;
				continue;
			}
		} else {
			fputc(c, f);
		}
		i++;
	}
	fputc('"', f);
}

void json_str(FILE *f, const char *s)
{
	if (!s)
		fputs("null", f);
	else
		json_strn(f, s, strlen(s));
}

void json_begin(FILE *f, const char *kind)
{
	fputs("{\"kind\": ", f);
	json_str(f, kind);
}

void json_key(FILE *f, const char *key)
{
	fputs(", ", f);
	json_str(f, key);
	fputs(": ", f);
}

void json_kv_str(FILE *f, const char *key, const char *val)
{
	json_key(f, key);
	json_str(f, val);
}

void json_kv_strn(FILE *f, const char *key, const char *val, size_t n)
{
	json_key(f, key);
	json_strn(f, val, n);
}

void json_kv_u64(FILE *f, const char *key, uint64_t val)
{
	json_key(f, key);
	fprintf(f, "%" PRIu64, val);
}

void json_kv_i64(FILE *f, const char *key, int64_t val)
{
	json_key(f, key);
	fprintf(f, "%" PRId64, val);
}

void json_kv_bool(FILE *f, const char *key, bool val)
{
	json_key(f, key);
	fputs(val ? "true" : "false", f);
}

void json_end(FILE *f)
{
	fputs("}\n", f);
}

int json_format_arg(const char *cmd, const char *opt, const char *arg, bool *json)
{
	if (!strcmp(arg, "json") || !strcmp(arg, "text")) {
		*json = !strcmp(arg, "json");
		return 0;
	}
	fprintf(stderr, "vmsim %s: %s takes text or json, not '%s'\n", cmd, opt, arg);
	return -1;
}
