/* Option tables (see options.h): setting, showing and describing a row. */
#include "util/options.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/parse.h"
#include "util/quote.h"

const opt_row *opt_find(const opt_row *rows, const char *name)
{
    for (const opt_row *r = rows; !opt_is_end(r); r++)
        if (r->type != OPT_HEADING && !strcmp(r->name, name)) return r;
    return NULL;
}

void opt_range(const opt_row *r, char *buf, size_t len)
{
    buf[0] = '\0';
    if (r->type == OPT_INT || r->type == OPT_I64 || (r->type == OPT_CUSTOM && r->lo < r->hi))
        snprintf(buf, len, "[%lld, %lld]", (long long)r->lo, (long long)r->hi);
    else if (r->type == OPT_REAL)
        snprintf(buf, len, "%c%g, %g%c", r->lo_open ? '(' : '[', r->lo, r->hi, r->hi_open ? ')' : ']');
    else if (r->type == OPT_CHOICE)
        for (int k = 0; k < r->nnames; k++) {
            size_t n = strlen(buf);
            snprintf(buf + n, len - n, "%s%s", k ? "|" : "", r->names[k]);
        }
}

/* A number of a REAL row, open bounds included. */
static int set_real(const opt_row *r, double *field, const char *value, char *err, size_t errlen)
{
    double d;
    parse_status st = parse_real(value, r->lo, r->hi, &d);
    if (st == PARSE_OK && ((r->lo_open && d == r->lo) || (r->hi_open && d == r->hi))) st = PARSE_RANGE;
    if (st != PARSE_OK) {
        char range[64], q[QUOTE_BUF];
        opt_range(r, range, sizeof range);
        quote_str(q, sizeof q, value);
        if (st == PARSE_RANGE) snprintf(err, errlen, "'%s' is out of range (allowed: %s)", q, range);
        else snprintf(err, errlen, "'%s' is not a number (allowed: %s)", q, range);
        return -FAULT_INPUT;
    }
    *field = d;
    return 0;
}

int opt_set(const opt_row *r, void *base, const char *value, char *err, size_t errlen)
{
    void *field = (char *)base + r->offset;
    int64_t v;
    parse_status st;
    char q[QUOTE_BUF];
    switch (r->type) {
    case OPT_INT:
    case OPT_I64:
        st = parse_int(value, (int64_t)r->lo, (int64_t)r->hi, &v);
        if (st != PARSE_OK) {
            parse_explain_int(err, errlen, st, value, (int64_t)r->lo, (int64_t)r->hi);
            return -FAULT_INPUT;
        }
        if (r->type == OPT_INT) *(int *)field = (int)v;
        else *(int64_t *)field = v;
        return 0;
    case OPT_REAL:
        return set_real(r, field, value, err, errlen);
    case OPT_CHOICE:
        for (int k = 0; value && k < r->nnames; k++)
            if (!strcmp(value, r->names[k])) {
                *(int *)field = k;
                return 0;
            }
        snprintf(err, errlen, "'%s' is not one of:", quote_str(q, sizeof q, value));
        for (int k = 0; k < r->nnames; k++) {
            size_t n = strlen(err);
            snprintf(err + n, errlen - n, " %s", r->names[k]);
        }
        return -FAULT_INPUT;
    case OPT_SWITCH:
        *(int *)field = 1;
        return 0;
    case OPT_TEXT:
        *(const char **)field = value;
        return 0;
    case OPT_CUSTOM:
        return r->parse(r, base, value, err, errlen);
    case OPT_HEADING:
        break;
    }
    snprintf(err, errlen, "not an option");
    return -FAULT_INTERNAL;
}

void opt_show(const opt_row *r, const void *base, char *buf, size_t len)
{
    const void *field = (const char *)base + r->offset;
    buf[0] = '\0';
    switch (r->type) {
    case OPT_INT: snprintf(buf, len, "%d", *(const int *)field); break;
    case OPT_I64: snprintf(buf, len, "%lld", (long long)*(const int64_t *)field); break;
    case OPT_REAL: snprintf(buf, len, "%g", *(const double *)field); break;
    case OPT_CHOICE: {
        int k = *(const int *)field;
        if (k >= 0 && k < r->nnames) snprintf(buf, len, "%s", r->names[k]);
        break;
    }
    case OPT_SWITCH: if (*(const int *)field) snprintf(buf, len, "on"); break;
    case OPT_TEXT: {
        const char *s = *(const char *const *)field;
        if (s) snprintf(buf, len, "%s", s);
        break;
    }
    case OPT_CUSTOM: if (r->show) r->show(r, base, buf, len); break;
    case OPT_HEADING: break;
    }
}
