/*
 * json.h - JSON Lines output for `--format json` (docs/json.md): one object
 * per line, each with a "kind", written with these helpers so that every
 * command escapes strings the same way and always writes valid JSON (bytes
 * that are not UTF-8 come out as \u00XX).
 *
 * Owns: the JSON text conventions of the commands.
 * May call: nothing.
 */
#ifndef VMSIM_JSON_H
#define VMSIM_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* a JSON string of [s, s + n) */
void json_strn(FILE *f, const char *s, size_t n);
/* a JSON string of s (NULL as null) */
void json_str(FILE *f, const char *s);

/* {"kind": KIND ... ; the key/value calls below add ", KEY: VALUE" */
void json_begin(FILE *f, const char *kind);
void json_kv_str(FILE *f, const char *key, const char *val);
void json_kv_strn(FILE *f, const char *key, const char *val, size_t n);
void json_kv_u64(FILE *f, const char *key, uint64_t val);
void json_kv_i64(FILE *f, const char *key, int64_t val);
void json_kv_bool(FILE *f, const char *key, bool val);
/* ", KEY: " - the value is written by the caller (an array, an object) */
void json_key(FILE *f, const char *key);
/* } and the end of the line */
void json_end(FILE *f);

/* A --format (or --stats=) value of command cmd: "text" or "json" into
 * *json; anything else is said on stderr and gives -1 (exit 2). */
int json_format_arg(const char *cmd, const char *opt, const char *arg, bool *json);

#endif
