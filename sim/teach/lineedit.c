/*
 * lineedit.c - command lines with the usual editing keys (teach.h, section "lineedit").
 */
#include "teach.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "alloc.h"

#define HIST_MAX 200

void lineedit_init(struct lineedit *le)
{
	memset(le, 0, sizeof(*le));
	le->tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

void lineedit_free(struct lineedit *le)
{
	for (size_t i = 0; i < le->nhist; i++)
		free(le->hist[i]);
	free(le->hist);
	free(le->buf);
	memset(le, 0, sizeof(*le));
}

static bool reserve(struct lineedit *le, size_t n)
{
	if (n + 1 <= le->cap)
		return true;
	size_t cap = le->cap ? le->cap : 128;
	while (cap < n + 1)
		cap *= 2;
	char *b = vm_realloc(le->buf, cap);
	if (!b)
		return false;
	le->buf = b;
	le->cap = cap;
	return true;
}

static void hist_add(struct lineedit *le, const char *line)
{
	if (!*line || (le->nhist && !strcmp(le->hist[le->nhist - 1], line)))
		return;
	if (le->nhist == HIST_MAX) {
		free(le->hist[0]);
		memmove(le->hist, le->hist + 1, (HIST_MAX - 1) * sizeof(*le->hist));
		le->nhist--;
	}
	char **h = vm_realloc(le->hist, (le->nhist + 1) * sizeof(*h));
	if (!h)
		return;
	le->hist = h;
	char *c = vm_strdup(line);
	if (c)
		le->hist[le->nhist++] = c;
}

static int getbyte(void)
{
	unsigned char c;
	ssize_t n;
	while ((n = read(STDIN_FILENO, &c, 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? c : -1;
}

/* a line byte by byte: no user-space buffer holds what follows it (a
 * process that takes over the session reads on from the same place) */
static const char *read_plain(struct lineedit *le)
{
	size_t n = 0;
	int c;
	while ((c = getbyte()) != -1 && c != '\n') {
		if (!reserve(le, n + 1))
			return NULL;
		le->buf[n++] = (char)c;
	}
	if (c == -1 && !n)
		return NULL;
	if (!reserve(le, n))
		return NULL;
	if (n && le->buf[n - 1] == '\r')
		n--;
	le->buf[n] = 0;
	return le->buf;
}

static void redraw(const char *prompt, const char *buf, size_t len, size_t pos)
{
	printf("\r%s%.*s\x1b[K", prompt, (int)len, buf);
	if (len > pos)
		printf("\x1b[%zuD", len - pos);
	fflush(stdout);
}

const char *lineedit_read(struct lineedit *le, const char *prompt)
{
	if (!le->tty)
		return read_plain(le);
	struct termios old, raw;
	if (tcgetattr(STDIN_FILENO, &old))
		return read_plain(le);
	raw = old;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
	raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
	size_t len = 0, pos = 0, hpos = le->nhist;
	bool done = false, eof = false;
	if (!reserve(le, 1))
		eof = true;
	fputs(prompt, stdout);
	fflush(stdout);
	while (!done && !eof) {
		int c = getbyte();
		if (c < 0) {
			eof = !len;
			break;
		}
		if (c == '\r' || c == '\n') {
			done = true;
		} else if (c == 4) { /* ^D */
			if (!len) {
				eof = true;
			} else if (pos < len) {
				memmove(le->buf + pos, le->buf + pos + 1, len - pos - 1);
				len--;
			}
		} else if (c == 3) { /* ^C */
			len = pos = 0;
			printf("^C\r\n");
		} else if (c == 1) {
			pos = 0;
		} else if (c == 5) {
			pos = len;
		} else if (c == 2) {
			if (pos)
				pos--;
		} else if (c == 6) {
			if (pos < len)
				pos++;
		} else if (c == 11) {
			len = pos;
		} else if (c == 21) {
			memmove(le->buf, le->buf + pos, len - pos);
			len -= pos;
			pos = 0;
		} else if (c == 23) { /* ^W */
			size_t p = pos;
			while (p && le->buf[p - 1] == ' ')
				p--;
			while (p && le->buf[p - 1] != ' ')
				p--;
			memmove(le->buf + p, le->buf + pos, len - pos);
			len -= pos - p;
			pos = p;
		} else if (c == 127 || c == 8) {
			if (pos) {
				memmove(le->buf + pos - 1, le->buf + pos, len - pos);
				pos--;
				len--;
			}
		} else if (c == 12) { /* ^L */
			printf("\x1b[H\x1b[2J");
		} else if (c == 27) {
			int a = getbyte(), b = a == '[' || a == 'O' ? getbyte() : -1;
			const char *h = NULL;
			if (b == 'D' && pos)
				pos--;
			else if (b == 'C' && pos < len)
				pos++;
			else if (b == 'H')
				pos = 0;
			else if (b == 'F')
				pos = len;
			else if (b == 'A' && hpos)
				h = le->hist[--hpos];
			else if (b == 'B' && hpos < le->nhist)
				h = ++hpos < le->nhist ? le->hist[hpos] : "";
			else if (b >= '1' && b <= '8') {
				int d = getbyte();
				if (d == '~' && b == '3' && pos < len) {
					memmove(le->buf + pos, le->buf + pos + 1, len - pos - 1);
					len--;
				} else if (d == '~' && (b == '1' || b == '7')) {
					pos = 0;
				} else if (d == '~' && (b == '4' || b == '8')) {
					pos = len;
				}
			}
			if (h) {
				size_t n = strlen(h);
				if (reserve(le, n)) {
					memcpy(le->buf, h, n);
					len = pos = n;
				}
			}
		} else if (c >= 32) {
			if (reserve(le, len + 1)) {
				memmove(le->buf + pos + 1, le->buf + pos, len - pos);
				le->buf[pos++] = (char)c;
				len++;
			}
		}
		redraw(prompt, le->buf, len, pos);
	}
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
	printf("\r\n");
	fflush(stdout);
	if (eof)
		return NULL;
	le->buf[len] = 0;
	hist_add(le, le->buf);
	return le->buf;
}

int lineedit_hist_write(const struct lineedit *le, FILE *f)
{
	for (size_t i = 0; i < le->nhist; i++)
		fprintf(f, "%s\n", le->hist[i]);
	return ferror(f) ? -1 : 0;
}

int lineedit_hist_read(struct lineedit *le, FILE *f)
{
	for (size_t i = 0; i < le->nhist; i++)
		free(le->hist[i]);
	le->nhist = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = 0;
		hist_add(le, line);
	}
	free(line);
	return ferror(f) ? -1 : 0;
}
