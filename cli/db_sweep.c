/* `nocsim db sweep SWEEP`: the summary of a parameter sweep.  A GA sweep
 * (paper Fig. 5's data): best and mean best duration per grid point and
 * pattern, the mean per value of each parameter, the parameter that mattered
 * most, and the best run and chromosome of each pattern.  A load sweep: the
 * saturation table, the saturation throughput per grid point (mean over its
 * runs) and its mean per parameter value, per pattern.  The numbers come from sweep/record.c;
 * this file only lays them out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/db_cmds.h"
#include "cli/db_table.h"
#include "sweep/record.h"

/* Grid points: traffic, one column per axis, then the figures (GA: runs,
 * best, mean, ratio, best run; load: runs, saturation, its rate, best run). */
static const char *axis_name(const sweep_spec *sp, int a, char *buf, size_t len);

static const db_col ga_point_cols[] = {
    { "runs", COL_NUM }, { "best", COL_NUM }, { "mean", COL_NUM }, { "ratio", COL_NUM }, { "best_run", COL_NUM },
};
static const db_col load_point_cols[] = {
    { "runs", COL_NUM }, { "saturation", COL_NUM }, { "saturation_rate", COL_NUM }, { "best_run", COL_NUM },
};

static void ga_point_cells(db_table *t, const sweep_summary *s, const sweep_point *p)
{
    db_table_int(t, p->runs);
    db_table_opt(t, p->best);
    db_table_real(t, p->mean, 2);
    double st = s->patterns[p->traffic].stacking;
    db_table_real(t, p->best >= 0 && st > 0 ? (double)p->best / st : NAN, 4);
    db_table_opt(t, p->best >= 0 ? p->best_run : -1);
}

/* A load point: the mean saturation throughput (and rate) of its runs. */
static void load_point_cells(db_table *t, const sweep_point *p)
{
    db_table_int(t, p->runs);
    db_table_real(t, p->mean, 6);
    db_table_real(t, p->rate, 6);
    db_table_opt(t, p->best_run);
}

/* Column names live in one block after the columns, freed with them. */
static db_table *points_table(const sweep_summary *s, db_col **cols_out)
{
    const sweep_spec *sp = &s->spec;
    const int load = sp->command == SWEEP_LOAD;
    const db_col *tail = load ? load_point_cols : ga_point_cols;
    int ntail = load ? 4 : 5, ncols = 1 + sp->naxes + ntail;
    db_col *cols = calloc((size_t)ncols + (size_t)sp->naxes * 32, sizeof *cols);
    if (!cols) return NULL;
    char *names = (char *)(cols + ncols);
    size_t per = 32 * sizeof *cols;
    int c = 0;
    cols[c++] = (db_col){ "traffic", COL_TEXT };
    for (int a = 0; a < sp->naxes; a++)
        cols[c++] = (db_col){ axis_name(sp, a, names + (size_t)a * per, per), COL_TEXT };
    for (int k = 0; k < ntail; k++) cols[c++] = tail[k];
    db_table *t = db_table_new(cols, ncols);
    if (!t) { free(cols); return NULL; }
    for (int64_t i = 0; i < sp->ntraffic * sp->ncombos; i++) {
        const sweep_point *p = &s->points[i];
        db_table_row(t);
        db_table_str(t, sp->traffic[p->traffic]);
        for (int a = 0; a < sp->naxes; a++) db_table_str(t, sweep_task_value(sp, p->combo, a));
        if (load) load_point_cells(t, p);
        else ga_point_cells(t, s, p);
    }
    *cols_out = cols;
    return t;
}

static const db_col level_cols[] = {
    { "traffic", COL_TEXT }, { "parameter", COL_TEXT }, { "value", COL_TEXT }, { "mean", COL_NUM },
};
static const db_col load_level_cols[] = {
    { "traffic", COL_TEXT }, { "parameter", COL_TEXT }, { "value", COL_TEXT }, { "saturation", COL_NUM },
};
static const db_col pattern_cols[] = {
    { "traffic", COL_TEXT }, { "best", COL_NUM }, { "best_run", COL_NUM }, { "best_crc", COL_TEXT },
    { "stacking", COL_NUM }, { "ratio", COL_NUM }, { "most_influential", COL_TEXT }, { "spread", COL_NUM },
};
static const db_col load_pattern_cols[] = {
    { "traffic", COL_TEXT }, { "mean", COL_NUM }, { "best", COL_NUM }, { "best_run", COL_NUM },
    { "most_influential", COL_TEXT }, { "spread", COL_NUM },
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
    const int load = sp->command == SWEEP_LOAD;
    db_table *t = db_table_new(load ? load_level_cols : level_cols, 4);
    char name[256];
    for (int tr = 0; t && tr < sp->ntraffic; tr++)
        for (int a = 0; a < sp->naxes; a++)
            for (int v = 0; v < sp->axes[a].nvalues; v++) {
                db_table_row(t);
                db_table_str(t, sp->traffic[tr]);
                db_table_str(t, axis_name(sp, a, name, sizeof name));
                db_table_str(t, sp->axes[a].values[v]);
                db_table_real(t, s->level_mean[tr * s->nlevels + sweep_level_offset(sp, a) + v], load ? 6 : 2);
            }
    return t;
}

/* A load sweep's patterns: mean and best saturation throughput, the axis
 * that mattered most. */
static db_table *load_patterns_table(const sweep_summary *s)
{
    const sweep_spec *sp = &s->spec;
    db_table *t = db_table_new(load_pattern_cols, 6);
    char name[256];
    for (int tr = 0; t && tr < sp->ntraffic; tr++) {
        const sweep_pattern *p = &s->patterns[tr];
        db_table_row(t);
        db_table_str(t, sp->traffic[tr]);
        db_table_real(t, p->mean, 6);
        db_table_real(t, p->top, 6);
        db_table_opt(t, p->best_run);
        db_table_str(t, p->axis >= 0 ? axis_name(sp, p->axis, name, sizeof name) : NULL);
        db_table_real(t, p->axis >= 0 ? p->spread : NAN, 6);
    }
    return t;
}

static db_table *patterns_table(const sweep_summary *s)
{
    const sweep_spec *sp = &s->spec;
    if (sp->command == SWEEP_LOAD) return load_patterns_table(s);
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

/* The summary as one JSON document (a load sweep's header says so). */
static int print_json(const db_opts *o, const sweep_summary *sum, db_table *pt, db_table *lt, db_table *bt, FILE *out)
{
    json_t *hdr = json_pack("{s:I, s:o, s:I, s:I, s:i, s:i, s:I}", "id", (json_int_t)sum->id, "status",
                            ujson_str(sum->status), "done", (json_int_t)sum->done, "total", (json_int_t)sum->total,
                            "runs", sum->spec.runs, "slices", sum->spec.slices, "seed", (json_int_t)sum->spec.seed);
    if (hdr && sum->spec.command == SWEEP_LOAD &&
        (json_object_del(hdr, "slices") || json_object_set_new(hdr, "command", json_string("load"))))
        hdr = (json_decref(hdr), NULL);
    json_t *j = hdr ? cli_json_doc(o->cmd, json_pack("{s:o, s:o, s:o, s:o}", "sweep", hdr, "patterns",
                                                     db_table_json(bt), "levels", db_table_json(lt), "points",
                                                     db_table_json(pt)))
                    : NULL;
    int rc = EXIT_OK;
    if (!j || ujson_dump(out, j)) {
        fprintf(stderr, "nocsim %s: out of memory\n", o->cmd);
        rc = EXIT_FAIL;
    }
    json_decref(j);
    return rc;
}

/* The summary as text: a header, the patterns, the means per value, the points. */
static int print_text(const sweep_summary *sum, db_table *pt, db_table *lt, db_table *bt, FILE *out)
{
    const int load = sum->spec.command == SWEEP_LOAD;
    int rc = EXIT_OK;
    if (load)
        fprintf(out, "load sweep %lld (%s): %lld of %lld curves, grid %s, %d run%s per point, seed %llu\n"
                     "saturation throughput: accepted flits/cycle per sending node at the highest stable rate "
                     "(nocsim load --saturation)\n\n",
                (long long)sum->id, sum->status, (long long)sum->done, (long long)sum->total,
                sum->spec.grid_name ? sum->spec.grid_name : "?", sum->spec.runs, sum->spec.runs == 1 ? "" : "s",
                (unsigned long long)sum->spec.seed);
    else
        fprintf(out, "sweep %lld (%s): %lld of %lld runs, grid %s, %d slices, %d runs per point, seed %llu\n\n",
                (long long)sum->id, sum->status, (long long)sum->done, (long long)sum->total,
                sum->spec.grid_name ? sum->spec.grid_name : "?", sum->spec.slices, sum->spec.runs,
                (unsigned long long)sum->spec.seed);
    fputs(load ? "per pattern (mean and best saturation throughput; the parameter whose values' means differ most):\n"
               : "per pattern (best run; the parameter whose values' mean durations differ most):\n", out);
    if (db_table_print(bt, out, FMT_TEXT, NULL)) rc = EXIT_FAIL;
    fputs(load ? "\nmean saturation throughput per parameter value:\n" : "\nmean best duration per parameter value:\n",
          out);
    if (db_table_print(lt, out, FMT_TEXT, NULL)) rc = EXIT_FAIL;
    fputs(load ? "\nper grid point (saturation throughput and rate, mean over its runs):\n"
               : "\nper grid point (best and mean over its runs; ratio = best / simple stacking):\n", out);
    if (db_table_print(pt, out, FMT_TEXT, NULL)) rc = EXIT_FAIL;
    return rc;
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
        rc = print_json(o, &sum, pt, lt, bt, out);
    } else {
        rc = print_text(&sum, pt, lt, bt, out);
    }
    db_table_free(pt);
    db_table_free(lt);
    db_table_free(bt);
    free(pcols);
    sweep_summary_clear(&sum);
    return rc;
}
