/*
 * trace_reader.h - the trace reader's state, private to the reader's units.
 *
 * The reader (the public interface is sim/trace/trace.h) is split by
 * concern into layers, each calling only those below it:
 *
 *   trace_read.c    the event builder: opening, the dispatch of a line to
 *                   the units below, the hot path of access lines, the
 *                   binary form's records, strace -ff merging
 *   trace_strace.c  strace's line notations: its own notices, pid prefixes
 *                   and timestamps, unfinished/resumed halves, signals, exits
 *   trace_args.c    a call's arguments (flags, structs, per-syscall layouts,
 *                   the pseudo-calls touch/fault/inherit/...) and its result
 *   trace_expect.c  expect(...) lines, the model-state pseudo-event
 *   trace_header.c  the "# key: value" header
 *   trace_lex.c     bytes: input blocks and lines, numbers, strings,
 *                   comments, argument splitting, and the FILE:LINE:COL of
 *                   every error
 *
 * Each unit's header states what it offers; a unit may call only what the
 * headers it includes declare.  Nothing outside sim/trace/ includes this
 * file.  Everything is single-threaded per reader.
 *
 *
 * Owns: struct trace_reader, the state the reader's units share, and the
 *   character classes.
 * May call: flagtab, trace, trace_bin.
 */
#ifndef VMSIM_TRACE_READER_H
#define VMSIM_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "flagtab.h"
#include "trace.h"
#include "trace_bin.h"

#define BLOCK 65536
/* the longest line the reader takes (strace -s of a large buffer, escaped) */
#define TRACE_LINE_MAX (64u << 20)
#define MAXARGS 8

struct pend {
	int pid;
	unsigned long line;
	double ts;
	long col0;     /* column of the call's name on its line */
	char *buf;     /* "NAME(ARGS" without " <unfinished ...>" */
	size_t len, cap;
	bool returned; /* a fork-like call emitted when its child's first line
			* came (tr_fork_returned()): its resumed half adds nothing */
};

struct unk {
	char *name;
	size_t len;
	unsigned long count;
};

struct trace_reader {
	FILE *f;
	bool own;
	char *name;

	char *buf;             /* input block; [pos, end) not yet consumed */
	size_t cap, pos, end;
	bool eof;
	char *line;            /* current line, NUL-terminated */
	size_t len;
	unsigned long lineno;
	bool reprocess;        /* handle the current line again */
	bool unterminated;     /* the current line is the input's last and has no newline */
	bool truncated;        /* the input ends in the middle of a line or a block */
	bool incomplete;       /* `# end-mark: yes` and no `# end` line at the end */
	bool ended;            /* the `# end` line of `# end-mark: yes` was read */
	char *line_nul;        /* the first NUL byte of the line tr_next_line() found,
				* if any (NULL: none) */
	bool slow_only;        /* no fast path (trace_set_slow(): tests compare the two) */
	bool cold;             /* the last line was no access line: the next is most
				* likely none either (a plain strace log), so it goes
				* to the general parser without a try of the fast path
				* (which decodes access lines only); an access event
				* from the general parser makes the reader warm again */
	struct event *fast_ev; /* the event the hot path filled last (all else zero in it) */
	/* the binary form (trace_bin.h): the records of the block in buf */
	bool bin;
	unsigned bin_version;
	struct bin_cursor cur;
	char bin_line[128];    /* a touch or fault record as its text line */
	char *bin_text;        /* a text record's line, NUL-terminated */
	size_t bin_textcap;

	struct trace_header hdr;
	bool hdr_done;
	char arch[32], kernel[32];
	char names[32];        /* the table of flag names: header's flag-names, else "strace" */
	bool arch_ovr, kernel_ovr;
	/* per kind: the names table, and the kernel's own table that a name the
	 * names table lacks is looked up in (a hand-written trace of lof-v1
	 * says MAP_LOCKONFAULT) */
	const struct flag_table *ft[FK_NKINDS], *ft_kernel[FK_NKINDS];
	bool ft_done[FK_NKINDS];

	struct pend *pend;
	size_t npend, cappend;
	/* the pids a plain strace log has shown so far (a set, open
	 * addressing, 0 empty): a child's first line while its parent's fork
	 * is unfinished (tr_fork_returned()) */
	int *seen;
	size_t seen_cap, seen_n;
	int seen_last;         /* the pid seen_add() met last (0: none): lines come
				* in runs of one process's */
	/* the pids whose fork-like call is unfinished and not returned yet */
	int *forking;
	size_t nforking, capforking;
	/* pid -> 1 + index into pend (0 empty; PEND_GONE a deleted slot), so
	 * that 300,000 processes with a call unfinished cost no linear search */
	uint32_t *pidx;
	size_t pidx_cap, pidx_used;
	struct unk *unk;
	size_t nunk, capunk;
	uint16_t unk_memo[256]; /* 1 + an index in unk by a hash of its name: a
				 * guess, checked (count_unknown()) */
	struct flag_memo {       /* flag names read before, by a hash of the
				  * name's first 16 bytes: a guess, checked */
		uint64_t w[2];
		uint64_t value;
		uint8_t what, len;
	} flag_memo[256];
	char *work;            /* a joined unfinished+resumed call */
	size_t workcap;
	char *splice;          /* a line strace's "Process N attached" notice split */
	size_t splicecap;

	/* strace to a terminal: the first process's lines have no pid until a
	 * second process exists, then "[pid N] " - N is the first process */
	bool lead_unprefixed;  /* the first event line had no pid */
	bool any_event_line;
	int first_pid;         /* its pid once a prefixed line names it; 0 unknown */
	int line_pid;          /* the pid as the current line writes it, for messages */
	int *kids;             /* pids its fork-like calls returned, until then */
	size_t nkids, capkids;

	/* where the text being parsed comes from, for line:col in messages */
	const char *cbase;
	size_t csplit;
	unsigned long cl1, cl2;
	long cc1, cc2;

	char err[1024];

	/* strace -ff: one file per process, merged by timestamp (the parent
	 * reads its parts; each part's events get the pid of its name) */
	struct trace_reader *parent;
	struct ff_part *parts;
	size_t nparts;
	bool ts_fraction;      /* the last timestamp had a fractional part */
	int ts_form;           /* the last timestamp's form: 1 time of day (-t, -tt),
				* 2 seconds (-ttt, -r); of the merged set: the first */
	bool ts_relative;      /* a stamp was strace -r's (padded seconds) */
	double ts_now;         /* merged: the last event returned's time */
	size_t pending_refill; /* 1 + the part whose event was returned last */
};

struct ff_part {
	struct trace_reader *r;
	struct event ev;       /* read ahead; valid while have */
	bool have, done;
	int pid;
	bool announced;        /* the root, or its fork-like line was returned */
	bool started;          /* an event of it was read: last_abs is its time */
	double last_abs;       /* its last event's time, days added */
	int64_t day;           /* -tt time of day: midnights passed since the merge's first */
	bool gone;             /* its exit line was returned (its pid may be used again) */
};


/* ---- character classes (used by every unit) ---------------------------- */

static inline bool is_ws(char c) { return c == ' ' || c == '\t'; }
static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool is_idstart(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
/* letters, digits and '_': a table, where the range tests of is_idstart()
 * and is_digit() mispredicted on every name a plain strace log has */
extern const unsigned char tr_id_char[256];
/* 1 + the value of each hex digit (either case), 0 for any other byte: one
 * load a digit, where range tests would mispredict on every random address */
extern const unsigned char tr_hex_value1[256];
static inline bool is_id(char c) { return tr_id_char[(unsigned char)c]; }
static inline char *skip_ws(char *p)
{
	while (is_ws(*p))
		p++;
	return p;
}
static inline size_t id_len(const char *p)
{
	size_t n = 0;
	if (!is_idstart(p[0]))
		return 0;
	while (is_id(p[n]))
		n++;
	return n;
}
/* p[0..n) is the word w (a literal: its length is known at compile time,
 * so a mismatch costs a comparison of lengths) */
static inline bool word_is(const char *p, size_t n, const char *w)
{
	return n == strlen(w) && memcmp(p, w, n) == 0;
}


#endif
