/* Line reading without a length limit (see lines.h). */
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
}

int line_reader_next(line_reader *r, char **line, char *err, size_t errlen)
{
    if (!r->f) return -1;
    if (r->next >= r->end) {
        errno = 0;
        ssize_t n = getline(&r->buf, &r->cap, r->f);
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
