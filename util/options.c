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

/* State of one opt_parse_names call, for its per-element function. */
typedef struct {
    const char *const *names;
    int n, *picked, count;
    char *err;
    size_t errlen;
} name_list;

static int pick_name(const char *item, int index, void *ctx)
{
    name_list *l = ctx;
    char q[QUOTE_BUF];
    quote_str(q, sizeof q, item);
    int k = 0;
    while (k < l->n && strcmp(item, l->names[k])) k++;
    if (k == l->n) {
        snprintf(l->err, l->errlen, "'%s' is not one of:", q);
        for (int j = 0; j < l->n; j++) {
            size_t len = strlen(l->err);
            snprintf(l->err + len, l->errlen - len, " %s", l->names[j]);
        }
        return -1;
    }
    for (int j = 0; j < index; j++)
        if (l->picked[j] == k) return snprintf(l->err, l->errlen, "'%s' is named twice", q), -1;
    l->picked[index] = k;
    l->count = index + 1;
    return 0;
}

int opt_parse_names(const char *s, const char *const *names, int n, int *picked, int *count, char *err, size_t errlen)
{
    name_list l = { names, n, picked, 0, err, errlen };
    int bad;
    char q[QUOTE_BUF];
    parse_status st = parse_list(s, ',', n, pick_name, &l, &bad);
    quote_str(q, sizeof q, s ? s : "");
    if (st == PARSE_EMPTY && (!s || !*s)) snprintf(err, errlen, "the list is empty; give names separated by commas");
    else if (st == PARSE_EMPTY)
        snprintf(err, errlen, "'%s' has an empty element (number %d); give names separated by single commas", q, bad + 1);
    else if (st == PARSE_TOO_MANY) snprintf(err, errlen, "'%s' names more than the %d there are", q, n);
    else if (st == PARSE_NOMEM) snprintf(err, errlen, "out of memory");
    if (st == PARSE_NOMEM) return -FAULT_RESOURCE;
    if (st != PARSE_OK) return -FAULT_INPUT;
    *count = l.count;
    return 0;
}

/* s[0..n-1] into buf (len bytes) for parse_int without allocating: leading
 * zeros after an optional sign are dropped (keeping one digit) so that any
 * number of them is taken, as parse_int takes them; a longer rest is cut,
 * which parse_int then refuses as out of range or not an integer. */
static void number_part(const char *s, size_t n, char *buf, size_t len)
{
    size_t i = 0, k = 0;
    if (n && (s[0] == '-' || s[0] == '+')) buf[k++] = s[i++];
    while (i + 1 < n && s[i] == '0' && s[i + 1] >= '0' && s[i + 1] <= '9') i++;
    while (i < n && k + 1 < len) buf[k++] = s[i++];
    buf[k] = '\0';
}

int opt_parse_range(const char *s, int64_t lo, int64_t hi, int64_t *a, int64_t *b, char *err, size_t errlen)
{
    const char *colon = s ? strchr(s, ':') : NULL;
    char first[64], q[QUOTE_BUF];
    if (colon) number_part(s, (size_t)(colon - s), first, sizeof first);
    const char *parts[2] = { colon ? first : s, colon ? colon + 1 : s };
    int64_t v[2];
    for (int k = 0; k < 2; k++) {
        parse_status st = parse_int(parts[k], lo, hi, &v[k]);
        if (st != PARSE_OK) return parse_explain_int(err, errlen, st, parts[k], lo, hi), -FAULT_INPUT;
    }
    if (v[0] > v[1])
        return snprintf(err, errlen, "'%s' is an empty range (MIN:MAX with MIN <= MAX)", quote_str(q, sizeof q, s)),
               -FAULT_INPUT;
    *a = v[0];
    *b = v[1];
    return 0;
}
