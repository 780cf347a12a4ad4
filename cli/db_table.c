/* Result tables of `nocsim db` in text, CSV and JSON (see db_table.h). */
#include "cli/db_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct db_table {
    const db_col *cols;
    int ncols;
    char **cell;       /* row-major; NULL = unknown */
    size_t n, cap;     /* cells used / allocated */
    bool failed;       /* out of memory at some point */
};

db_table *db_table_new(const db_col *cols, int ncols)
{
    db_table *t = calloc(1, sizeof *t);
    if (t) {
        t->cols = cols;
        t->ncols = ncols;
    }
    return t;
}

void db_table_free(db_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        free(t->cell[i]);
    free(t->cell);
    free(t);
}

size_t db_table_rows(const db_table *t)
{
    return t->n / (size_t)t->ncols;
}

/* Append one cell taking ownership of s (NULL = unknown).  A full row is
 * always completed, even after a failure, so row arithmetic stays valid. */
static void push(db_table *t, char *s)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        char **c = realloc(t->cell, cap * sizeof *c);
        if (!c) {
            free(s);
            t->failed = true;
            return;
        }
        t->cell = c;
        t->cap = cap;
    }
    t->cell[t->n++] = s;
}

void db_table_row(db_table *t)
{
    /* Pad a short row (a caller bug or an earlier failed push) so that the
     * next row starts in column 0. */
    while (!t->failed && t->n % (size_t)t->ncols != 0)
        push(t, NULL);
}

void db_table_null(db_table *t)
{
    push(t, NULL);
}

static void push_copy(db_table *t, const char *s)
{
    char *c = strdup(s);
    if (!c)
        t->failed = true;
    push(t, c);
}

void db_table_str(db_table *t, const char *s)
{
    if (s)
        push_copy(t, s);
    else
        push(t, NULL);
}

void db_table_int(db_table *t, int64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    push_copy(t, buf);
}

void db_table_opt(db_table *t, int64_t v)
{
    if (v == -1)
        push(t, NULL);
    else
        db_table_int(t, v);
}

void db_table_real(db_table *t, double v, int decimals)
{
    char buf[64];
    if (!isfinite(v) || fabs(v) > 1e18) {
        push(t, NULL);
        return;
    }
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    push_copy(t, buf);
}

void db_table_exact(db_table *t, double v)
{
    char buf[64];
    if (!isfinite(v)) {
        push(t, NULL);
        return;
    }
    snprintf(buf, sizeof buf, "%.17g", v);
    push_copy(t, buf);
}

void db_table_hex32(db_table *t, int64_t v)
{
    char buf[12];
    if (v < 0) {
        push(t, NULL);
        return;
    }
    snprintf(buf, sizeof buf, "%08llx", (unsigned long long)(v & 0xffffffffLL));
    push_copy(t, buf);
}

void db_table_hex(db_table *t, const uint8_t *p, size_t n)
{
    if (!p) {
        push(t, NULL);
        return;
    }
    char *s = malloc(2 * n + 1);
    if (!s) {
        t->failed = true;
        push(t, NULL);
        return;
    }
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = digits[p[i] >> 4];
        s[2 * i + 1] = digits[p[i] & 15];
    }
    s[2 * n] = '\0';
    push(t, s);
}

static const char *cell(const db_table *t, size_t row, int col)
{
    size_t i = row * (size_t)t->ncols + (size_t)col;
    return i < t->n ? t->cell[i] : NULL;
}

/* A cell as JSON: null when unknown; a number column's text read as the
 * number it is; a raw column's JSON text as the value it holds, when it is
 * one valid JSON value; anything else as a string. */
static json_t *cell_json(db_col_kind kind, const char *s)
{
    if (!s)
        return json_null();
    if (kind == COL_NUM || kind == COL_RAW) {
        json_error_t e;
        json_t *v = json_loads(s, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
        if (v && (kind == COL_RAW || json_is_number(v)))
            return v;
        json_decref(v);
    }
    return ujson_str(s);
}

json_t *db_table_row_json(const db_table *t, size_t row)
{
    json_t *o = t->failed ? NULL : json_object();
    for (int c = 0; o && c < t->ncols; c++)
        if (json_object_set_new(o, t->cols[c].name, cell_json(t->cols[c].kind, cell(t, row, c)))) {
            json_decref(o);
            o = NULL;
        }
    return o;
}

json_t *db_table_json(const db_table *t)
{
    json_t *a = t->failed ? NULL : json_array();
    for (size_t r = 0; a && r < db_table_rows(t); r++)
        if (json_array_append_new(a, db_table_row_json(t, r))) {
            json_decref(a);
            a = NULL;
        }
    return a;
}

static int print_text(const db_table *t, FILE *f)
{
    size_t rows = db_table_rows(t);
    size_t *w = calloc((size_t)t->ncols, sizeof *w);
    if (!w)
        return -1;
    for (int c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->cols[c].name);
        for (size_t r = 0; r < rows; r++) {
            const char *s = cell(t, r, c);
            size_t len = s ? strlen(s) : 1;
            if (len > w[c])
                w[c] = len;
        }
    }
    for (size_t r = 0; r <= rows; r++) {
        /* Trailing empty cells (a note column without a note) end the line
         * early so that it carries no trailing blanks. */
        int end = t->ncols;
        while (r > 0 && end > 1 && cell(t, r - 1, end - 1) && !*cell(t, r - 1, end - 1))
            end--;
        for (int c = 0; c < end; c++) {
            const char *s = r == 0 ? t->cols[c].name : cell(t, r - 1, c);
            if (!s)
                s = "-";
            bool last = c == end - 1;
            /* Headers align with their column; the last text column is not
             * padded so lines carry no trailing blanks. */
            if (t->cols[c].kind == COL_NUM)
                fprintf(f, "%*s", (int)w[c], s);
            else
                fprintf(f, "%-*s", last ? 0 : (int)w[c], s);
            fputs(last ? "\n" : "  ", f);
        }
    }
    free(w);
    return 0;
}

int db_table_print(const db_table *t, FILE *f, out_format fmt, const char *schema)
{
    if (t->failed)
        return -1;
    size_t rows = db_table_rows(t);
    if (fmt == FMT_TEXT) {
        if (print_text(t, f) != 0)
            return -1;
    } else if (fmt == FMT_CSV) {
        for (size_t r = 0; r <= rows; r++)
            for (int c = 0; c < t->ncols; c++) {
                cli_csv_field(f, r == 0 ? t->cols[c].name : cell(t, r - 1, c));
                fputs(c == t->ncols - 1 ? "\n" : ",", f);
            }
    } else {
        json_t *a = cli_json_doc(schema, db_table_json(t));
        int bad = ujson_dump(f, a);
        json_decref(a);
        if (bad)
            return -1;
    }
    return ferror(f) ? -1 : 0;
}

void db_table_print_fields(const db_table *t, size_t row, FILE *f)
{
    size_t w = 0;
    for (int c = 0; c < t->ncols; c++)
        if (strlen(t->cols[c].name) > w)
            w = strlen(t->cols[c].name);
    for (int c = 0; c < t->ncols; c++) {
        const char *s = cell(t, row, c);
        if (t->cols[c].kind != COL_RAW)
            fprintf(f, "%-*s  %s\n", (int)w, t->cols[c].name, s ? s : "-");
    }
}
