/* Reading a text file line by line, with no limit on a line's length (POSIX
 * getline) unless the caller sets one (line_reader_limit), counting lines for
 * messages and refusing NUL bytes: a line is handed out whole or the read
 * stops with an error, never split or cut.
 *
 *   line_reader r;
 *   line_reader_init(&r, f, path);
 *   char *line;
 *   int got;
 *   while ((got = line_reader_next(&r, &line, err, errlen)) > 0) ... use line ...
 *   line_reader_free(&r);
 *   if (got < 0) ... err says "PATH, line N: ..." ...
 *
 * The reader does not own the stream (the caller closes it) nor the name. */
#ifndef NOCSIM_UTIL_LINES_H
#define NOCSIM_UTIL_LINES_H

#include <stddef.h>
#include <stdio.h>

#include "util/fault.h"

typedef struct {
    FILE *f;
    const char *name;   /* for messages, printed as given; the caller's, must outlive the reader */
    char *buf;          /* getline's buffer, owned */
    size_t cap;
    long line;          /* number of the line last returned, 1-based */
    size_t next, end;   /* text of buf after a lone CR still to hand out: [next, end) */
    size_t max;         /* longest line read, in bytes without its "\n"; 0 = no limit */
} line_reader;

/* Start reading f; name (e.g. "config FILE", already quoted by the caller,
 * see util/quote.h) starts each message. */
void line_reader_init(line_reader *r, FILE *f, const char *name);

/* Refuse a line (up to its "\n") longer than max bytes, max >= 1: the read
 * stops there with -FAULT_INPUT, "NAME, line N: longer than MAX bytes", so an
 * endless line costs at most max bytes of memory.  Before the first read. */
void line_reader_limit(line_reader *r, size_t max);

/* Next line in *line, without its line break: "\n", "\r\n" or a lone "\r"
 * (old Mac files; so "# c\rinterval 40\r" is a comment and a setting, not
 * one comment), each counted as one line in messages.  The line is owned
 * by the reader, valid until the next call or line_reader_free.  Returns 1 for a line (the last
 * line needs no newline), 0 at the end of the file, or a negative fault
 * (util/fault.h) with a message in err: -FAULT_INPUT for a NUL byte ("NAME,
 * line N: a NUL byte at column C"), a line over the limit or a directory, -FAULT_IO for a read
 * error and -FAULT_RESOURCE when memory runs out ("NAME: read error: ...").  After a
 * failure it returns -1, after 0 it keeps returning 0. */
NOCSIM_MUST_USE
int line_reader_next(line_reader *r, char **line, char *err, size_t errlen);

/* Cut line at its first '#' (a comment) and split the rest at blanks (space,
 * tab) in place into tok[0..], at most max tokens.  Returns the number of
 * tokens, or max + 1 if there are more (tok then holds the first max). */
int line_fields(char *line, char **tok, int max);

/* Release the buffer (not the stream). */
void line_reader_free(line_reader *r);

#endif
