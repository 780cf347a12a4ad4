/* Experiment files in BookSim2's syntax (see keyfile.h). */
#include "util/keyfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lines.h"
#include "util/quote.h"

/* Longest line taken: a file that is not an experiment file (or has no line
 * breaks) is refused rather than read into memory whole. */
#define KEYFILE_MAX_LINE 65536

static int fail(char *err, size_t errlen, const char *name, long line, const char *msg, const char *tok)
{
    char q[QUOTE_BUF];
    snprintf(err, errlen, "%s, line %ld: %s%s%s%s", name, line, msg, tok ? " '" : "", tok ? quote_str(q, sizeof q, tok) : "",
             tok ? "'" : "");
    return -FAULT_INPUT;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
    return s;
}

static int add(keyfile *kf, const char *key, const char *value, long line)
{
    keyfile_item *items = realloc(kf->items, ((size_t)kf->n + 1) * sizeof *items);
    if (!items) return -FAULT_RESOURCE;
    kf->items = items;
    keyfile_item *it = &items[kf->n];
    it->key = strdup(key);
    it->value = strdup(value);
    it->line = line;
    if (!it->key || !it->value) {
        free(it->key);
        free(it->value);
        return -FAULT_RESOURCE;
    }
    kf->n++;
    return 0;
}

/* One setting "key = value" (s is cut from its line, comment gone). */
static int setting(keyfile *kf, char *s, const char *name, long line, char *err, size_t errlen)
{
    s = trim(s);
    if (!*s) return 0; /* ";;" or a blank line */
    char *eq = strchr(s, '=');
    if (!eq) return fail(err, errlen, name, line, "expected key = value, not", s);
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    int ok = isalpha((unsigned char)key[0]) || key[0] == '_';
    for (const char *c = key; ok && *c; c++) ok = isalnum((unsigned char)*c) || *c == '_' || *c == '-';
    if (!ok) return fail(err, errlen, name, line, "not a key:", key);
    if (!*value) return fail(err, errlen, name, line, "no value for", key);
    int rc = add(kf, key, value, line);
    if (rc) snprintf(err, errlen, "%s: out of memory", name);
    return rc;
}

/* One line: its comment cut, then its settings split at ';' (outside braces). */
static int one_line(keyfile *kf, char *text, const char *name, long line, char *err, size_t errlen)
{
    if (strlen(text) > KEYFILE_MAX_LINE) return fail(err, errlen, name, line, "longer than 65536 characters", NULL);
    char *c = strstr(text, "//");
    if (c) *c = '\0';
    if (*trim(text) == '#') return 0;
    int depth = 0;
    char *start = text;
    for (char *p = text;; p++) {
        if (*p == '{') depth++;
        else if (*p == '}' && --depth < 0) return fail(err, errlen, name, line, "a '}' without its '{'", NULL);
        else if ((*p == ';' && !depth) || !*p) {
            int end = !*p, rc;
            *p = '\0';
            if ((rc = setting(kf, start, name, line, err, errlen))) return rc;
            if (end) break;
            start = p + 1;
        }
    }
    return depth ? fail(err, errlen, name, line, "a '{' without its '}'", NULL) : 0;
}

int keyfile_read(const char *path, const char *name, keyfile *kf, char *err, size_t errlen)
{
    kf->items = NULL;
    kf->n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: cannot open: %s", name, strerror(e));
        return e == ENOENT || e == EISDIR || e == EACCES ? -FAULT_INPUT : -FAULT_IO;
    }
    line_reader r;
    line_reader_init(&r, f, name);
    char *line;
    int got = 0, rc = 0;
    while (!rc && (got = line_reader_next(&r, &line, err, errlen)) > 0) rc = one_line(kf, line, name, r.line, err, errlen);
    if (!rc && got < 0) rc = got;
    line_reader_free(&r);
    fclose(f);
    return rc;
}

int keyfile_parse(const char *text, const char *name, keyfile *kf, char *err, size_t errlen)
{
    kf->items = NULL;
    kf->n = 0;
    char *copy = strdup(text);
    if (!copy) return snprintf(err, errlen, "%s: out of memory", name), -FAULT_RESOURCE;
    long line = 0;
    int rc = 0;
    for (char *s = copy, *nl; !rc && s; s = nl ? nl + 1 : NULL) {
        nl = strchr(s, '\n');
        if (nl) *nl = '\0';
        if (nl || *s) rc = one_line(kf, s, name, ++line, err, errlen);
    }
    free(copy);
    return rc;
}

void keyfile_free(keyfile *kf)
{
    for (int i = 0; i < kf->n; i++) {
        free(kf->items[i].key);
        free(kf->items[i].value);
    }
    free(kf->items);
    kf->items = NULL;
    kf->n = 0;
}
