/* Internal interface of `nocsim db`: cmd_db.c parses the options shared by
 * every subcommand and opens the database; db_query.c holds the queries.
 * Each subcommand writes its whole output to `out` (a memory stream), which
 * cmd_db copies to stdout only when the subcommand succeeded, so a failure
 * leaves nothing half-printed. */
#ifndef NOCSIM_DB_CMDS_H
#define NOCSIM_DB_CMDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/args.h"
#include "store/store.h"
#include "util/fault.h"

typedef struct {
    const char *cmd;           /* "db runs", for messages */
    const char *db;            /* --db */
    out_format fmt;
    bool fmt_given;
    const char *traffic, *kind; /* --traffic, --kind (NULL = any) */
    int slices;                 /* --slices (0 = any) */
    const char *where, *order;  /* --where, --order-by (NULL = none) */
    int64_t limit;              /* --limit (0 = none) */
    int all, genes, create;     /* --all, --genes, --create */
    int table_k;                /* --table's index into the table names, as parsed */
    const char *table;          /* --table (export; NULL when not given) */
    const char *arg;            /* the positional argument (RUN or OTHER.db) */
    int64_t run;                /* arg parsed as a run id, when the subcommand takes RUN */
} db_opts;

/* Open o->db (flags as store_open); on failure print one line and set *rc to
 * EXIT_USAGE (missing file, not a nocsim database, other schema version) or
 * EXIT_FAIL (I/O). */
store *db_open(const db_opts *o, const char *path, int flags, int *rc);
/* Fetch run o->run into *r; a run that does not exist is bad input. */
NOCSIM_MUST_USE
int db_get_run(store *s, const db_opts *o, store_run *r);

NOCSIM_MUST_USE
int db_runs(const db_opts *o, FILE *out);
NOCSIM_MUST_USE
int db_best(const db_opts *o, FILE *out);
NOCSIM_MUST_USE
int db_show(const db_opts *o, FILE *out);
NOCSIM_MUST_USE
int db_synonyms(const db_opts *o, FILE *out);
NOCSIM_MUST_USE
int db_export(const db_opts *o, FILE *out);
NOCSIM_MUST_USE
int db_sweep(const db_opts *o, FILE *out);   /* db_sweep.c */

#endif
