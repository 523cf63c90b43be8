/*
 * view_json.c - a /proc view as JSON Lines (replay.h, section "views";
 * docs/json.md): the view's text, as view_print() writes it, read back
 * into one object per VMA (maps, smaps), per page (pages, lru) or one for
 * the whole view (status, meminfo, vmstat) - so the two forms never
 * disagree.
 */
#include "replay.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a maps line "START-END PERMS OFFSET DEV INODE [PATH]" as keys */
static bool maps_fields(const char *l)
{
	unsigned long long st, en, off, ino;
	char perms[8], dev[16];
	int n = 0;
	if (sscanf(l, "%llx-%llx %7s %llx %15s %llu%n", &st, &en, perms, &off, dev, &ino, &n) < 6)
		return false;
	while (l[n] == ' ' || l[n] == '\t')
		n++;
	json_kv_u64(stdout, "start", st);
	json_kv_u64(stdout, "end", en);
	json_kv_str(stdout, "perms", perms);
	json_kv_u64(stdout, "offset", off);
	json_kv_str(stdout, "dev", dev);
	json_kv_u64(stdout, "inode", ino);
	const char *path = l + n;
	size_t pl = strcspn(path, "\n");
	while (pl && (path[pl - 1] == ' ' || path[pl - 1] == '\n'))
		pl--;
	json_kv_strn(stdout, "path", path, pl);
	return true;
}

/* "Key:  N kB" or "name N": a number (kB values keep their unit in the key's
 * suffix _kB, as the kernel's counters are named), else the text */
static void kv_number(const char *key, size_t kl, const char *v)
{
	char k[64];
	unsigned long long n;
	char unit[8] = "", line[256], rest[8];
	snprintf(k, sizeof(k), "%.*s", (int)kl, key);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(v, "\n"), v);
	int got = sscanf(line, "%llu %7s %7s", &n, unit, rest);
	if (got == 1 || (got == 2 && !strcmp(unit, "kB"))) {
		if (!strcmp(unit, "kB"))
			strncat(k, "_kB", sizeof(k) - strlen(k) - 1);
		json_kv_u64(stdout, k, n);
	} else {
		size_t vl = strcspn(v, "\n");
		while (vl && v[vl - 1] == ' ')
			vl--;
		json_kv_strn(stdout, k, v, vl);
	}
}

/* the words of [s, end of line) as a JSON array */
static void words_array(const char *key, const char *s)
{
	json_key(stdout, key);
	fputc('[', stdout);
	bool first = true;
	while (*s && *s != '\n') {
		while (*s == ' ' || *s == ',')
			s++;
		size_t n = strcspn(s, " ,\n");
		if (!n)
			break;
		if (!first)
			fputs(", ", stdout);
		json_strn(stdout, s, n);
		first = false;
		s += n;
	}
	fputc(']', stdout);
}

/* the end of a page object: its counts and the flag words after them */
static void page_tail(unsigned map, unsigned mlk, const char *flags)
{
	json_kv_u64(stdout, "mapcount", map);
	json_kv_u64(stdout, "mlock_count", mlk);
	words_array("flags", flags + strspn(flags, " \t"));
	json_end(stdout);
}

/* the text of a view, as JSON Lines: one object per VMA (maps, smaps), per
 * page (pages, lru) or for the whole view (status, meminfo, vmstat) */
void view_json(enum view_kind v, const char *text, int pid, const char *trace, unsigned long at)
{
	const char *name = view_name(v);
	bool open = false, kv = v == VIEW_STATUS || v == VIEW_MEMINFO || v == VIEW_VMSTAT;
	char list[32] = "";
	unsigned long long vma_start = 0;
	if (kv) {
		json_begin(stdout, name);
		json_kv_str(stdout, "file", trace);
		if (at)
			json_kv_u64(stdout, "at", at);
		if (v == VIEW_STATUS)
			json_kv_i64(stdout, "pid", pid);
		open = true;
	}
	for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		if (*l == '\n' || *l == '#')
			continue;
		if (kv) {
			size_t kl = strcspn(l, v == VIEW_VMSTAT ? " \n" : ":\n");
			const char *val = l + kl + (l[kl] == ':' || l[kl] == ' ');
			while (*val == ' ' || *val == '\t')
				val++;
			kv_number(l, kl, val);
			continue;
		}
		if (v == VIEW_MAPS) {
			json_begin(stdout, "vma");
			json_kv_i64(stdout, "pid", pid);
			maps_fields(l);
			json_end(stdout);
		} else if (v == VIEW_SMAPS) {
			size_t h = strspn(l, "0123456789abcdef");
			if (h && l[h] == '-' && strspn(l + h + 1, "0123456789abcdef") &&
			    l[h + 1 + strspn(l + h + 1, "0123456789abcdef")] == ' ') {
				if (open)
					json_end(stdout);
				json_begin(stdout, "vma");
				json_kv_i64(stdout, "pid", pid);
				maps_fields(l);
				open = true;
			} else if (open && !strncmp(l, "VmFlags:", 8)) {
				words_array("VmFlags", l + 8);
			} else if (open) {
				size_t kl = strcspn(l, ":\n");
				const char *val = l + kl + (l[kl] == ':');
				while (*val == ' ' || *val == '\t')
					val++;
				kv_number(l, kl, val);
			}
		} else if (v == VIEW_PAGES) {
			unsigned long long va, pfn;
			unsigned map, mlk;
			char pm[16];
			int n = 0;
			if (!strncmp(l, "VMA ", 4)) {
				sscanf(l + 4, "%llx", &vma_start);
			} else if (sscanf(l, "%llx %llx %15s %u %u%n", &va, &pfn, pm, &map, &mlk, &n) == 5) {
				json_begin(stdout, "page");
				json_kv_i64(stdout, "pid", pid);
				json_kv_u64(stdout, "vma", vma_start);
				json_kv_u64(stdout, "vaddr", va);
				json_kv_u64(stdout, "pfn", pfn);
				json_kv_str(stdout, "pagemap", pm);
				page_tail(map, mlk, l + n);
			}
		} else if (v == VIEW_LRU) {
			unsigned long long pos, pfn;
			unsigned map, mlk;
			int n = 0;
			if (isalpha((unsigned char)l[0])) {
				snprintf(list, sizeof(list), "%.*s", (int)strcspn(l, ":"), l);
			} else if (sscanf(l, "%llu %llx %u %u%n", &pos, &pfn, &map, &mlk, &n) == 4) {
				json_begin(stdout, "page");
				json_kv_str(stdout, "list", list);
				json_kv_u64(stdout, "pos", pos);
				json_kv_u64(stdout, "pfn", pfn);
				page_tail(map, mlk, l + n);
			}
		}
	}
	if (open)
		json_end(stdout);
}

int view_print_json(enum view_kind v, const struct view_ctx *vc, const char *trace, unsigned long at)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return -1;
	view_print(m, v, vc);
	if (fclose(m)) {
		free(text);
		return -1;
	}
	view_json(v, text ? text : "", vc->task ? task_pid(vc->task) : 0, trace, at);
	free(text);
	return 0;
}
