/* libFuzzer target: the strict number and list parsers and the quoting of
 * messages.  The input is one string (cut at its first NUL).  Properties
 * checked against an independent reading:
 * - parse_int accepts exactly /-?[0-9]+/ within range, and agrees with strtoll;
 * - parse_real's value agrees with strtod, parse_hex's with strtoull;
 * - parse_list hands out the elements that strchr finds, none empty;
 * - quote output is printable ASCII only. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"
#include "util/quote.h"

static int only_int_syntax(const char *s)
{
    if (*s == '-') s++;
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

typedef struct { const char *s; size_t pos; } walk;

/* Each element must be the next piece of s up to a comma, and not empty. */
static int check_item(const char *item, int index, void *ctx)
{
    walk *w = ctx;
    size_t len = strlen(item);
    (void)index;
    if (len == 0 || strncmp(w->s + w->pos, item, len) != 0) abort();
    if (w->s[w->pos + len] != ',' && w->s[w->pos + len] != '\0') abort();
    w->pos += len + 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) return 0;
    memcpy(s, data, size);
    s[size] = '\0';

    int64_t v;
    parse_status st = parse_int(s, -1000, 1000000, &v);
    if ((st == PARSE_OK || st == PARSE_RANGE) != only_int_syntax(s)) abort();
    if (st == PARSE_OK) {
        errno = 0;
        long long w = strtoll(s, NULL, 10);
        if (errno || w != v || v < -1000 || v > 1000000) abort();
    }
    double d;
    if (parse_real(s, -1e9, 1e9, &d) == PARSE_OK && (d != strtod(s, NULL) || d < -1e9 || d > 1e9)) abort();

    uint64_t h;
    if (parse_hex(s, 16, &h) == PARSE_OK && (strspn(s, "0123456789abcdefABCDEF") != strlen(s) || h != strtoull(s, NULL, 16)))
        abort();

    walk w = { s, 0 };
    int bad;
    parse_status ls = parse_list(s, ',', 1000, check_item, &w, &bad);
    if (ls == PARSE_OK && w.pos != strlen(s) + 1) abort();

    char q[QUOTE_BUF], msg[QUOTE_BUF + 96];
    quote_mem(q, sizeof q, (const char *)data, size);
    for (const char *p = q; *p; p++)
        if (*p < 0x20 || *p > 0x7e) abort();
    parse_explain_int(msg, sizeof msg, st, s, -1000, 1000000);
    free(s);
    return 0;
}
