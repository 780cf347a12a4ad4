/* Strict number and list parsing (see parse.h). */
#include "util/parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/quote.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

parse_status parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    if (!s || !*s) return PARSE_EMPTY;
    const char *p = s;
    int neg = *p == '-';
    if (neg) p++;
    if (!*p) return PARSE_SYNTAX;
    /* Accumulate the magnitude in unsigned; past INT64's magnitude the value
     * is out of any range we could be asked for, but keep scanning so that
     * "99999999999999999999x" is a syntax error, not a range error. */
    uint64_t mag = 0;
    int over = 0;
    for (; *p; p++) {
        if (!is_digit(*p)) return PARSE_SYNTAX;
        unsigned d = (unsigned)(*p - '0');
        if (mag > (UINT64_MAX - d) / 10) over = 1;
        else mag = mag * 10 + d;
    }
    const uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (over || mag > limit) return PARSE_RANGE;
    int64_t v = neg ? (mag == limit ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    if (v < lo || v > hi) return PARSE_RANGE;
    *out = v;
    return PARSE_OK;
}

parse_status parse_hex(const char *s, int max_digits, uint64_t *out)
{
    if (!s || !*s) return PARSE_EMPTY;
    uint64_t v = 0;
    int n = 0;
    for (const char *p = s; *p; p++, n++) {
        int d = is_digit(*p) ? *p - '0' : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10
              : (*p >= 'A' && *p <= 'F') ? *p - 'A' + 10 : -1;
        if (d < 0) return PARSE_SYNTAX;
        if (n < 16) v = v << 4 | (uint64_t)d;
    }
    if (n > max_digits || n > 16) return PARSE_RANGE;
    *out = v;
    return PARSE_OK;
}

/* [-]DIGITS[.DIGITS][(e|E)[+|-]DIGITS] with at least one mantissa digit;
 * strtod alone would also take spaces, hex, "inf" and "nan". */
static int real_syntax_ok(const char *p)
{
    int digits = 0;
    if (*p == '-') p++;
    while (is_digit(*p)) p++, digits++;
    if (*p == '.') {
        p++;
        while (is_digit(*p)) p++, digits++;
    }
    if (!digits) return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!is_digit(*p)) return 0;
        while (is_digit(*p)) p++;
    }
    return *p == '\0';
}

parse_status parse_real(const char *s, double lo, double hi, double *out)
{
    if (!s || !*s) return PARSE_EMPTY;
    if (!real_syntax_ok(s)) return PARSE_SYNTAX;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end != '\0') return PARSE_SYNTAX;
    /* ERANGE: overflow to infinity, or underflow to (near) zero, which would
     * silently turn "1e-400" into 0. */
    if (errno == ERANGE || !isfinite(v) || v < lo || v > hi) return PARSE_RANGE;
    *out = v;
    return PARSE_OK;
}

parse_status parse_list(const char *s, char sep, int max, parse_item_fn fn, void *ctx, int *bad)
{
    *bad = 0;
    if (!s || !*s) return PARSE_EMPTY;
    char *copy = strdup(s);
    if (!copy) return PARSE_NOMEM;
    parse_status st = PARSE_OK;
    char *item = copy;
    for (int i = 0;; i++) {
        char *next = strchr(item, sep);
        if (next) *next = '\0';
        *bad = i;
        if (!*item) { st = PARSE_EMPTY; break; }
        if (i >= max) { st = PARSE_TOO_MANY; break; }
        if (fn(item, i, ctx) != 0) { st = PARSE_ITEM; break; }
        if (!next) break;
        item = next + 1;
    }
    free(copy);
    return st;
}

/* "is not an integer", "is out of range", ... for a failed parse of kind. */
static void explain(char *buf, size_t len, parse_status st, const char *s, const char *kind, const char *range)
{
    char q[QUOTE_BUF];
    quote_str(q, sizeof q, s);
    if (st == PARSE_RANGE) snprintf(buf, len, "'%s' is out of range (allowed: %s)", q, range);
    else if (st == PARSE_EMPTY) snprintf(buf, len, "an empty value is not %s (allowed: %s)", kind, range);
    else snprintf(buf, len, "'%s' is not %s (allowed: %s)", q, kind, range);
}

void parse_explain_int(char *buf, size_t len, parse_status st, const char *s, int64_t lo, int64_t hi)
{
    char range[64];
    snprintf(range, sizeof range, "[%lld, %lld]", (long long)lo, (long long)hi);
    explain(buf, len, st, s, "an integer", range);
}

void parse_explain_real(char *buf, size_t len, parse_status st, const char *s, double lo, double hi)
{
    char range[64];
    snprintf(range, sizeof range, "[%g, %g]", lo, hi);
    explain(buf, len, st, s, "a number", range);
}
