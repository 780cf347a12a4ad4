/* Result tables of `nocsim db`: rows are collected in memory and printed at
 * the end, because text output needs every cell to align its columns and
 * because a query that fails half-way must print nothing.
 *
 * Formats: text (columns aligned, numbers right-aligned, "-" for unknown),
 * CSV (header row, RFC 4180 quoting, empty for unknown) and JSON (jansson: an
 * array of objects, numbers unquoted, null for unknown).
 *
 * Cells are appended left to right with the db_table_* functions.  Running out
 * of memory sets a sticky flag instead of failing each call, so that building
 * a row stays readable; db_table_print reports it. */
#ifndef NOCSIM_DB_TABLE_H
#define NOCSIM_DB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/args.h"
#include "util/fault.h"

typedef enum {
    COL_TEXT, /* a JSON string */
    COL_NUM,  /* a JSON number, right-aligned in text */
    COL_RAW,  /* JSON text embedded as is when valid (else as a string) */
} db_col_kind;

typedef struct {
    const char *name;
    db_col_kind kind;
} db_col;

typedef struct db_table db_table;

/* cols must outlive the table.  NULL when out of memory. */
NOCSIM_MUST_USE
db_table *db_table_new(const db_col *cols, int ncols);
void db_table_free(db_table *t);                 /* NULL is fine */
size_t db_table_rows(const db_table *t);

/* Start a new row; cells follow in column order. */
void db_table_row(db_table *t);
void db_table_null(db_table *t);
void db_table_str(db_table *t, const char *s);   /* NULL = unknown */
void db_table_int(db_table *t, int64_t v);       /* no sentinel: always a number */
void db_table_opt(db_table *t, int64_t v);       /* STORE_NONE (-1) = unknown */
void db_table_real(db_table *t, double v, int decimals); /* NaN/inf = unknown */
void db_table_exact(db_table *t, double v);      /* 17 significant digits: reads back as v */
void db_table_hex32(db_table *t, int64_t v);     /* 8 hex digits; < 0 = unknown */
void db_table_hex(db_table *t, const uint8_t *p, size_t n);

/* Print in fmt: text and CSV with a header row, JSON the rows as an array of
 * objects under the header of cli_json_doc(schema, ...).  -1 if the table
 * ran out of memory or f failed. */
NOCSIM_MUST_USE
int db_table_print(const db_table *t, FILE *f, out_format fmt, const char *schema);
/* Row `row` as a new JSON object, the table as a new JSON array of them (for
 * nesting in a larger document); NULL when out of memory. */
NOCSIM_MUST_USE
json_t *db_table_row_json(const db_table *t, size_t row);
NOCSIM_MUST_USE
json_t *db_table_json(const db_table *t);
/* Text layout of a one-row table: one "name   value" line per column,
 * leaving out COL_RAW columns (JSON text wants a layout of its own). */
void db_table_print_fields(const db_table *t, size_t row, FILE *f);

#endif
