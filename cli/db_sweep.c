/* `nocsim db sweep SWEEP`: the summary of a parameter sweep (paper Fig. 5's
 * data): best and mean best duration per grid point and pattern, the mean per
 * value of each parameter, the parameter that mattered most, and the best
 * run and chromosome of each pattern.  The numbers come from sweep/record.c;
 * this file only lays them out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/db_cmds.h"
#include "cli/db_table.h"
#include "sweep/record.h"

/* Grid points: traffic, one column per axis, runs, best, mean, best run. */
static const char *axis_name(const sweep_spec *sp, int a, char *buf, size_t len);

/* Column names live in one block after the columns, freed with them. */
static db_table *points_table(const sweep_summary *s, db_col **cols_out)
{
    const sweep_spec *sp = &s->spec;
    int ncols = 1 + sp->naxes + 5;
    db_col *cols = calloc((size_t)ncols + (size_t)sp->naxes * 32, sizeof *cols);
    if (!cols) return NULL;
    char *names = (char *)(cols + ncols);
    size_t per = 32 * sizeof *cols;
    int c = 0;
    cols[c++] = (db_col){ "traffic", COL_TEXT };
    for (int a = 0; a < sp->naxes; a++)
        cols[c++] = (db_col){ axis_name(sp, a, names + (size_t)a * per, per), COL_TEXT };
    cols[c++] = (db_col){ "runs", COL_NUM };
    cols[c++] = (db_col){ "best", COL_NUM };
    cols[c++] = (db_col){ "mean", COL_NUM };
    cols[c++] = (db_col){ "ratio", COL_NUM };
    cols[c++] = (db_col){ "best_run", COL_NUM };
    db_table *t = db_table_new(cols, ncols);
    if (!t) { free(cols); return NULL; }
    for (int64_t i = 0; i < sp->ntraffic * sp->ncombos; i++) {
        const sweep_point *p = &s->points[i];
        db_table_row(t);
        db_table_str(t, sp->traffic[p->traffic]);
        for (int a = 0; a < sp->naxes; a++) db_table_str(t, sweep_task_value(sp, p->combo, a));
        db_table_int(t, p->runs);
        db_table_opt(t, p->best);
        db_table_real(t, p->mean, 2);
        double st = s->patterns[p->traffic].stacking;
        db_table_real(t, p->best >= 0 && st > 0 ? (double)p->best / st : NAN, 4);
        db_table_opt(t, p->best >= 0 ? p->best_run : -1);
    }
    *cols_out = cols;
    return t;
}

static const db_col level_cols[] = {
    { "traffic", COL_TEXT }, { "parameter", COL_TEXT }, { "value", COL_TEXT }, { "mean", COL_NUM },
};
static const db_col pattern_cols[] = {
    { "traffic", COL_TEXT }, { "best", COL_NUM }, { "best_run", COL_NUM }, { "best_crc", COL_TEXT },
    { "stacking", COL_NUM }, { "ratio", COL_NUM }, { "most_influential", COL_TEXT }, { "spread", COL_NUM },
};

static const char *axis_name(const sweep_spec *sp, int a, char *buf, size_t len)
{
    buf[0] = 0;
    for (int f = 0; f < sp->axes[a].nflags; f++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", f ? "," : "", sp->axes[a].flags[f]);
    return buf;
}

static db_table *levels_table(const sweep_summary *s)
{
    const sweep_spec *sp = &s->spec;
    db_table *t = db_table_new(level_cols, 4);
    char name[256];
    for (int tr = 0; t && tr < sp->ntraffic; tr++)
        for (int a = 0; a < sp->naxes; a++)
            for (int v = 0; v < sp->axes[a].nvalues; v++) {
                db_table_row(t);
                db_table_str(t, sp->traffic[tr]);
                db_table_str(t, axis_name(sp, a, name, sizeof name));
                db_table_str(t, sp->axes[a].values[v]);
                db_table_real(t, s->level_mean[tr * s->nlevels + sweep_level_offset(sp, a) + v], 2);
            }
    return t;
}

static db_table *patterns_table(const sweep_summary *s)
{
    const sweep_spec *sp = &s->spec;
    db_table *t = db_table_new(pattern_cols, 8);
    char name[256];
    for (int tr = 0; t && tr < sp->ntraffic; tr++) {
        const sweep_pattern *p = &s->patterns[tr];
        db_table_row(t);
        db_table_str(t, sp->traffic[tr]);
        db_table_opt(t, p->best);
        db_table_opt(t, p->best >= 0 ? p->best_run : -1);
        db_table_hex32(t, p->best >= 0 ? (int64_t)p->best_crc : -1);
        db_table_real(t, p->stacking, 1);
        db_table_real(t, p->best >= 0 && p->stacking > 0 ? (double)p->best / p->stacking : NAN, 4);
        db_table_str(t, p->axis >= 0 ? axis_name(sp, p->axis, name, sizeof name) : NULL);
        db_table_real(t, p->axis >= 0 ? p->spread : NAN, 2);
    }
    return t;
}

int db_sweep(const db_opts *o, FILE *out)
{
    int rc;
    store *s = db_open(o, o->db, STORE_READONLY, &rc);
    if (!s) return rc;
    sweep_summary sum;
    char err[512];
    int st = sweep_summarise(s, o->run, &sum, err, sizeof err);
    store_close(s);
    if (st) {
        fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
        return cli_fault_status(fault_of(st));
    }
    db_col *pcols = NULL;
    db_table *pt = points_table(&sum, &pcols), *lt = levels_table(&sum), *bt = patterns_table(&sum);
    rc = EXIT_OK;
    if (!pt || !lt || !bt) {
        fprintf(stderr, "nocsim %s: out of memory\n", o->cmd);
        rc = EXIT_FAIL;
    } else if (o->fmt == FMT_CSV) {
        if (db_table_print(pt, out, FMT_CSV, NULL)) rc = EXIT_FAIL;
    } else if (o->fmt == FMT_JSON) {
        json_t *j = cli_json_doc(o->cmd, json_pack("{s:{s:I, s:o, s:I, s:I, s:i, s:i, s:I}, s:o, s:o, s:o}", "sweep", "id", (json_int_t)sum.id,
                              "status", ujson_str(sum.status), "done", (json_int_t)sum.done, "total", (json_int_t)sum.total,
                              "runs", sum.spec.runs, "slices", sum.spec.slices, "seed", (json_int_t)sum.spec.seed,
                              "patterns", db_table_json(bt), "levels", db_table_json(lt), "points", db_table_json(pt)));
        if (ujson_dump(out, j)) {
            fprintf(stderr, "nocsim %s: out of memory\n", o->cmd);
            rc = EXIT_FAIL;
        }
        json_decref(j);
    } else {
        fprintf(out, "sweep %lld (%s): %lld of %lld runs, grid %s, %d slices, %d runs per point, seed %llu\n\n",
                (long long)sum.id, sum.status, (long long)sum.done, (long long)sum.total,
                sum.spec.grid_name ? sum.spec.grid_name : "?", sum.spec.slices, sum.spec.runs,
                (unsigned long long)sum.spec.seed);
        fputs("per pattern (best run; the parameter whose values' mean durations differ most):\n", out);
        if (db_table_print(bt, out, FMT_TEXT, NULL)) rc = EXIT_FAIL;
        fputs("\nmean best duration per parameter value:\n", out);
        if (db_table_print(lt, out, FMT_TEXT, NULL)) rc = EXIT_FAIL;
        fputs("\nper grid point (best and mean over its runs; ratio = best / simple stacking):\n", out);
        if (db_table_print(pt, out, FMT_TEXT, NULL)) rc = EXIT_FAIL;
    }
    db_table_free(pt);
    db_table_free(lt);
    db_table_free(bt);
    free(pcols);
    sweep_summary_clear(&sum);
    return rc;
}
