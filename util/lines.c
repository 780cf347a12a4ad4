/* Line reading, with no length limit unless one is set (see lines.h). */
#include "util/lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

void line_reader_init(line_reader *r, FILE *f, const char *name)
{
    r->f = f;
    r->name = name;
    r->buf = NULL;
    r->cap = 0;
    r->line = 0;
    r->next = r->end = 0;
    r->max = 0;
}

void line_reader_limit(line_reader *r, size_t max)
{
    r->max = max;
}

/* getline with r->max: the line read into r->buf, its length (with its
 * "\n"); -1 at the end of the file, on a read error (ferror) or out of
 * memory (errno ENOMEM); -2 as soon as it holds more than max bytes before
 * its "\n", the rest unread. */
static ssize_t read_bounded(line_reader *r)
{
    size_t len = 0;
    int c = EOF;
    while ((c = getc(r->f)) != EOF) {
        if (len + 2 > r->cap) {   /* the byte and a NUL after it; at most max + 2 */
            size_t cap = r->cap ? 2 * r->cap : 128;
            if (cap > r->max + 2) cap = r->max + 2;
            char *b = realloc(r->buf, cap);
            if (!b) return errno = ENOMEM, -1;
            r->buf = b;
            r->cap = cap;
        }
        r->buf[len++] = (char)c;
        if (c == '\n') break;
        if (len > r->max) return -2;
    }
    if (len == 0) return -1;
    r->buf[len] = '\0';
    return (ssize_t)len;
}

int line_reader_next(line_reader *r, char **line, char *err, size_t errlen)
{
    if (!r->f) return -1;
    if (r->next >= r->end) {
        errno = 0;
        ssize_t n = r->max ? read_bounded(r) : getline(&r->buf, &r->cap, r->f);
        if (n == -2) {
            snprintf(err, errlen, "%s, line %ld: longer than %zu bytes", r->name, r->line + 1, r->max);
            r->f = NULL;
            return -FAULT_INPUT;
        }
        if (n < 0) {
            int e = errno;
            if (ferror(r->f) || e == ENOMEM) {
                snprintf(err, errlen, "%s, after line %ld: read error: %s", r->name, r->line,
                         strerror(e ? e : EIO));
                r->f = NULL;
                /* A directory named as a text file is the input's fault (as a
                 * --db that is a directory is), not the disk's. */
                return e == ENOMEM ? -FAULT_RESOURCE : e == EISDIR ? -FAULT_INPUT : -FAULT_IO;
            }
            return 0;
        }
        size_t len = (size_t)n;
        /* A NUL would end the line for every string function after us: the
         * rest of the line would vanish without a word. */
        const char *nul = memchr(r->buf, '\0', len);
        if (nul) {
            snprintf(err, errlen, "%s, line %ld: a NUL byte at column %zu (not a text file?)",
                     r->name, r->line + 1, (size_t)(nul - r->buf) + 1);
            r->f = NULL;
            return -FAULT_INPUT;
        }
        if (len > 0 && r->buf[len - 1] == '\n') r->buf[--len] = '\0';
        r->next = 0;
        r->end = len;
    }
    /* Up to the first CR (a CRLF's, or a lone one): the rest waits. */
    char *start = r->buf + r->next;
    char *cr = memchr(start, '\r', r->end - r->next);
    if (cr) {
        *cr = '\0';
        r->next = (size_t)(cr - r->buf) + 1;
    } else {
        r->buf[r->end] = '\0';
        r->next = r->end + 1;   /* nothing pending */
    }
    if (r->next >= r->end) r->next = r->end = 0;
    r->line++;
    *line = start;
    return 1;
}

int line_fields(char *line, char **tok, int max)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == max) return max + 1;
        tok[n++] = t;
    }
    return n;
}

void line_reader_free(line_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = 0;
}
