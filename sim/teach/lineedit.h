/*
 * lineedit.h - reading command lines for an interactive command (vmsim
 * step) without a curses or readline dependency.
 *
 * On a terminal: raw mode with the usual keys - left/right and ^B/^F,
 * Home/End and ^A/^E, Backspace/^H, Delete, ^K (to end), ^U (to start),
 * ^W (word), up/down through the history, ^C drops the line, ^D on an
 * empty line ends the input, ^L redraws.  Elsewhere (a pipe, a file): plain
 * lines.  Either way the line comes back without its newline.
 *
 * Owns: the terminal's raw mode while a line is read, the history.
 * May call: nothing.
 */
#ifndef VMSIM_LINEEDIT_H
#define VMSIM_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

struct lineedit {
	bool tty;
	char **hist;
	size_t nhist;
	char *buf;
	size_t cap;
};

void lineedit_init(struct lineedit *le);
void lineedit_free(struct lineedit *le);
/* the next line after printing prompt (on a terminal), or NULL at the end */
const char *lineedit_read(struct lineedit *le, const char *prompt);

#endif
