/* The read-only queries of `nocsim db`: runs, best, show, synonyms, export.
 * Each builds db_tables from the store's listings and prints them at the end
 * (see db_table.h), so every format comes from the same rows. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/db_cmds.h"
#include "cli/db_table.h"
#include "util/quote.h"

static int oom(const db_opts *o)
{
    fprintf(stderr, "nocsim %s: out of memory\n", o->cmd);
    return EXIT_FAIL;
}

static void cell_ratio(db_table *t, const store_run *r)
{
    if (r->best_duration >= 0 && r->base_stacking > 0)
        db_table_real(t, (double)r->best_duration / (double)r->base_stacking, 4);
    else
        db_table_null(t);
}

/* Runs of these kinds search no chromosomes: no synonyms, no best. */
static bool is_kind(const store_run *r, const char *kind)
{
    return r->kind && !strcmp(r->kind, kind);
}

static void synonyms_cell(db_table *t, const store_run *r)
{
    if (is_kind(r, "load") || is_kind(r, "cc"))
        db_table_null(t);
    else
        db_table_int(t, r->synonyms);
}

/* What was searched: traffic, size, slices, flits, genes, algorithm; with
 * net, the topology (from the parameters) before the traffic and the height
 * after the size (a square's is its size). */
static void model_cells_net(db_table *t, const store_run *r, bool net)
{
    json_t *j = net && r->params ? json_loads(r->params, 0, NULL) : NULL;
    if (net)
        db_table_str(t, json_string_value(json_object_get(j, "topology")));
    /* randperm's seed drew the pattern: it is part of its name here. */
    char name[64];
    if (r->traffic && !strcmp(r->traffic, "randperm")) {
        snprintf(name, sizeof name, "randperm (seed %llu)", (unsigned long long)r->seed);
        db_table_str(t, name);
    } else
        db_table_str(t, r->traffic);
    db_table_opt(t, r->size);
    if (net) {
        json_t *h = json_object_get(j, "height");
        db_table_opt(t, json_is_integer(h) ? (int64_t)json_integer_value(h) : r->size);
    }
    json_decref(j);
    db_table_opt(t, r->slices);
    db_table_opt(t, r->flits);
    db_table_str(t, r->genes);
    db_table_str(t, r->algorithm);
}

static void model_cells(db_table *t, const store_run *r)
{
    model_cells_net(t, r, false);
}

/* ---- runs and best ------------------------------------------------------- */

static const db_col runs_cols[] = {
    {"id", COL_NUM}, {"kind", COL_TEXT}, {"topology", COL_TEXT}, {"traffic", COL_TEXT}, {"size", COL_NUM},
    {"height", COL_NUM}, {"slices", COL_NUM}, {"flits", COL_NUM}, {"genes", COL_TEXT}, {"algorithm", COL_TEXT},
    {"best", COL_NUM}, {"synonyms", COL_NUM}, {"stacking", COL_NUM}, {"ratio", COL_NUM},
    {"status", COL_TEXT}, {"started", COL_TEXT},
};

static int runs_row(const store_run *r, void *ctx)
{
    db_table *t = ctx;
    db_table_row(t);
    db_table_int(t, r->id);
    db_table_str(t, r->kind);
    model_cells_net(t, r, true);
    db_table_opt(t, r->best_duration);
    synonyms_cell(t, r);
    db_table_opt(t, r->base_stacking);
    cell_ratio(t, r);
    db_table_str(t, r->status);
    db_table_str(t, r->started);
    return 0;
}

typedef int (*runs_fn)(store *s, const store_run_filter *f, store_run_cb cb, void *ctx,
                       char *err, size_t errlen);

/* `runs` and `best` print the same columns: a best run is a run. */
static int run_listing(const db_opts *o, FILE *out, runs_fn list)
{
    int rc = EXIT_OK;
    store *s = db_open(o, o->db, STORE_READONLY, &rc);
    if (!s)
        return rc;
    db_table *t = db_table_new(runs_cols, (int)(sizeof runs_cols / sizeof *runs_cols));
    store_run_filter f = {.traffic = o->traffic, .slices = (int32_t)o->slices, .kind = o->kind};
    char err[512];
    if (!t)
        rc = oom(o);
    else if (list(s, &f, runs_row, t, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
        rc = EXIT_FAIL;
    } else if (db_table_print(t, out, o->fmt, o->cmd) != 0)
        rc = oom(o);
    db_table_free(t);
    store_close(s);
    return rc;
}

int db_runs(const db_opts *o, FILE *out)
{
    return run_listing(o, out, store_runs_list);
}

int db_best(const db_opts *o, FILE *out)
{
    return run_listing(o, out, store_runs_best);
}

/* ---- one run: show and export ------------------------------------------- */

static const db_col run_cols[] = {
    {"id", COL_NUM}, {"uuid", COL_TEXT}, {"kind", COL_TEXT}, {"version", COL_TEXT},
    {"status", COL_TEXT}, {"started", COL_TEXT}, {"finished", COL_TEXT}, {"seed", COL_NUM},
    {"traffic", COL_TEXT}, {"size", COL_NUM}, {"slices", COL_NUM}, {"flits", COL_NUM},
    {"genes", COL_TEXT}, {"algorithm", COL_TEXT}, {"best_score", COL_NUM},
    {"best_duration", COL_NUM}, {"best_crc", COL_TEXT}, {"synonyms", COL_NUM},
    {"base_stacking", COL_NUM}, {"base_nonsplit", COL_NUM}, {"ratio", COL_NUM},
    {"parent", COL_NUM}, {"params", COL_RAW},
};
#define RUN_NCOLS ((int)(sizeof run_cols / sizeof *run_cols))

static db_table *run_table(const store_run *r)
{
    db_table *t = db_table_new(run_cols, RUN_NCOLS);
    if (!t)
        return NULL;
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
    db_table_row(t);
    db_table_int(t, r->id);
    db_table_str(t, r->uuid);
    db_table_str(t, r->kind);
    db_table_str(t, r->version);
    db_table_str(t, r->status);
    db_table_str(t, r->started);
    db_table_str(t, r->finished);
    db_table_str(t, seed);
    model_cells(t, r);
    db_table_opt(t, r->best_score);
    db_table_opt(t, r->best_duration);
    db_table_hex32(t, r->best_crc);
    synonyms_cell(t, r);
    db_table_opt(t, r->base_stacking);
    db_table_opt(t, r->base_nonsplit);
    cell_ratio(t, r);
    if (r->parent > 0)
        db_table_int(t, r->parent);
    else
        db_table_null(t);
    db_table_str(t, r->params);
    return t;
}

/* The generations of a run, kept as records so that text can pick rows. */
typedef struct {
    store_gen *g;
    size_t n, cap;
    bool failed;
} gen_list;

static int gen_push(const store_gen *g, void *ctx)
{
    gen_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        store_gen *p = realloc(l->g, cap * sizeof *p);
        if (!p) {
            l->failed = true;
            return 1; /* stop the listing */
        }
        l->g = p;
        l->cap = cap;
    }
    l->g[l->n++] = *g;
    return 0;
}

static const db_col gen_cols[] = {
    {"generation", COL_NUM}, {"best", COL_NUM}, {"average", COL_NUM},
    {"evaluations", COL_NUM}, {"elapsed", COL_NUM}, {"note", COL_TEXT},
};

/* Rows of the curve; every k-th generation, each new best and the last when
 * compact, else all of them.  The note column only exists in text. */
static db_table *gen_table(const gen_list *l, size_t k, bool note)
{
    db_table *t = db_table_new(gen_cols, note ? 6 : 5);
    for (size_t i = 0; t && i < l->n; i++) {
        const store_gen *g = &l->g[i];
        bool improved = i > 0 && g->best < l->g[i - 1].best;
        if (i % k != 0 && !improved && i != l->n - 1)
            continue;
        db_table_row(t);
        db_table_int(t, g->generation);
        db_table_int(t, g->best);
        db_table_real(t, g->average, 3);
        db_table_int(t, g->evaluations);
        db_table_real(t, g->elapsed, 3);
        if (note)
            db_table_str(t, improved ? "new best" : "");
    }
    return t;
}

/* The points of an open-loop run (nocsim load), as store/SCHEMA.md's
 * load_points: exact reals for csv and json, rounded for people. */
static const db_col point_cols[] = {
    {"rate", COL_NUM}, {"offered", COL_NUM}, {"accepted", COL_NUM}, {"latency", COL_NUM},
    {"ci95", COL_NUM}, {"network_latency", COL_NUM}, {"p50", COL_NUM}, {"p99", COL_NUM},
    {"max", COL_NUM}, {"hops", COL_NUM}, {"tagged", COL_NUM}, {"tagged_done", COL_NUM},
    {"warmup_cycles", COL_NUM}, {"drain_cycles", COL_NUM}, {"cycles", COL_NUM},
    {"steady", COL_NUM}, {"saturated", COL_NUM},
};

typedef struct {
    db_table *t;
    bool exact;
} point_ctx;

static int point_row(const store_load_point *p, void *ctx)
{
    point_ctx *x = ctx;
    const double reals[] = {p->rate, p->offered, p->accepted, p->latency, p->ci95, p->network_latency};
    const int decimals[] = {4, 4, 4, 2, 2, 2};
    db_table_row(x->t);
    for (int k = 0; k < 6; k++) {
        if (x->exact)
            db_table_exact(x->t, reals[k]);
        else
            db_table_real(x->t, reals[k], decimals[k]);
    }
    db_table_int(x->t, p->p50);
    db_table_int(x->t, p->p99);
    db_table_int(x->t, p->max);
    if (x->exact)
        db_table_exact(x->t, p->hops);
    else
        db_table_real(x->t, p->hops, 2);
    const int64_t ints[] = {p->tagged, p->tagged_done, p->warmup_cycles, p->drain_cycles, p->cycles,
                            p->steady, p->saturated};
    for (int k = 0; k < 7; k++)
        db_table_int(x->t, ints[k]);
    return 0;
}

/* The points of run o->run into *t (empty for a run of another kind).
 * EXIT_OK, or the status after a message. */
static int point_table(const db_opts *o, store *s, bool exact, db_table **t)
{
    char err[512];
    point_ctx x = {.t = *t = db_table_new(point_cols, (int)(sizeof point_cols / sizeof *point_cols)),
                   .exact = exact};
    if (!x.t)
        return oom(o);
    if (store_load_list(s, o->run, point_row, &x, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

/* params is one flat JSON object; break it after commas outside strings so
 * that it reads as a paragraph rather than one 900-column line. */
static void print_wrapped(FILE *f, const char *s, int width)
{
    int col = 0;
    bool in_str = false;
    const char *word = s;
    for (const char *p = s;; p++) {
        if (in_str && *p == '\\' && p[1]) {
            p++; /* an escaped character, possibly a quote */
            continue;
        }
        if (*p == '"')
            in_str = !in_str;
        bool brk = !in_str && *p == ',' && p[1] == ' ';
        if (*p && !brk)
            continue;
        int len = (int)(p - word) + (brk ? 1 : 0); /* the comma stays on its line */
        if (col > 0 && col + 1 + len > width) {
            fputc('\n', f);
            col = 0;
        }
        fputs(col > 0 ? " " : "  ", f);
        fwrite(word, 1, (size_t)len, f);
        col += len + 2;
        if (!*p)
            break;
        word = p + 2;
        p++;
    }
    fputc('\n', f);
}

static int load_run(const db_opts *o, store **s, store_run *r, gen_list *gens)
{
    int rc = EXIT_OK;
    char err[512];
    if (!(*s = db_open(o, o->db, STORE_READONLY, &rc)))
        return rc;
    if ((rc = db_get_run(*s, o, r)) != EXIT_OK)
        return rc;
    if (gens) {
        if (store_gen_list(*s, o->run, gen_push, gens, err, sizeof err) != STORE_OK) {
            fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
            return EXIT_FAIL;
        }
        if (gens->failed)
            return oom(o);
    }
    return EXIT_OK;
}

int db_show(const db_opts *o, FILE *out)
{
    store *s = NULL;
    store_run r;
    memset(&r, 0, sizeof r);
    gen_list gens = {0};
    db_table *rt = NULL, *gt = NULL, *pt = NULL;
    int rc = load_run(o, &s, &r, &gens);
    if (rc != EXIT_OK)
        goto done;
    bool load = is_kind(&r, "load");
    if (load && (rc = point_table(o, s, o->fmt != FMT_TEXT, &pt)) != EXIT_OK)
        goto done;
    /* About ten rows plus the improvements keep the text curve on a screen. */
    size_t k = o->fmt == FMT_TEXT ? (gens.n + 9) / 10 : 1;
    if (k < 1)
        k = 1;
    rt = run_table(&r);
    gt = gen_table(&gens, k, o->fmt == FMT_TEXT);
    if (!rt || !gt) {
        rc = oom(o);
        goto done;
    }
    if (o->fmt == FMT_CSV) {
        rc = db_table_print(load ? pt : gt, out, FMT_CSV, NULL) ? oom(o) : EXIT_OK;
    } else if (o->fmt == FMT_JSON) {
        json_t *body = json_pack("{s:o, s:o}", "run", db_table_row_json(rt, 0), "generations", db_table_json(gt));
        if (body && load && json_object_set_new(body, "points", db_table_json(pt)))
            body = (json_decref(body), NULL);
        json_t *j = cli_json_doc(o->cmd, body);
        rc = ujson_dump(out, j) ? oom(o) : EXIT_OK;
        json_decref(j);
    } else if (load) {
        fprintf(out, "run %lld of %s\n", (long long)r.id, o->db);
        db_table_print_fields(rt, 0, out);
        fputs("params\n", out);
        if (r.params)
            print_wrapped(out, r.params, 76);
        fprintf(out, "\nopen-loop curve: %zu point%s (nocsim plot load %lld draws it)\n", db_table_rows(pt),
                db_table_rows(pt) == 1 ? "" : "s", (long long)r.id);
        if (db_table_rows(pt) > 0)
            rc = db_table_print(pt, out, FMT_TEXT, NULL) ? oom(o) : EXIT_OK;
    } else {
        fprintf(out, "run %lld of %s\n", (long long)r.id, o->db);
        db_table_print_fields(rt, 0, out);
        fputs("params\n", out);
        if (r.params)
            print_wrapped(out, r.params, 76);
        else
            fputs("  -\n", out);
        fprintf(out, "\ncurve: %zu generation%s", gens.n, gens.n == 1 ? "" : "s");
        if (k > 1)
            fprintf(out, "; every %zu%s and each new best shown (--format csv lists all)", k,
                    k == 2 ? "nd" : k == 3 ? "rd" : "th");
        fputs("\n", out);
        if (gens.n > 0)
            rc = db_table_print(gt, out, FMT_TEXT, NULL) ? oom(o) : EXIT_OK;
    }
done:
    db_table_free(rt);
    db_table_free(gt);
    db_table_free(pt);
    free(gens.g);
    store_run_clear(&r);
    store_close(s);
    return rc;
}

/* ---- chromosomes: synonyms and export ----------------------------------- */

static const db_col chrom_cols[] = {
    {"id", COL_NUM}, {"generation", COL_NUM}, {"crc", COL_TEXT}, {"score", COL_NUM},
    {"duration", COL_NUM}, {"t_d", COL_NUM}, {"t_e", COL_NUM}, {"ir", COL_NUM},
    {"or", COL_NUM}, {"ib", COL_NUM}, {"ob", COL_NUM}, {"lb", COL_NUM},
    /* optional trailing columns, chosen per command */
    {"best", COL_NUM},
};
static const db_col export_cols[] = {
    {"id", COL_NUM}, {"run", COL_NUM}, {"generation", COL_NUM}, {"crc", COL_TEXT},
    {"score", COL_NUM}, {"duration", COL_NUM}, {"t_d", COL_NUM}, {"t_e", COL_NUM},
    {"ir", COL_NUM}, {"or", COL_NUM}, {"ib", COL_NUM}, {"ob", COL_NUM}, {"lb", COL_NUM},
    {"is_synonym", COL_NUM}, {"genes_len", COL_NUM}, {"genes", COL_TEXT},
};

typedef struct {
    db_table *t;
    bool export;          /* export_cols layout, else chrom_cols */
    bool genes;           /* export: genes column */
    bool mark_best;       /* synonyms --all: best column */
    int64_t best_score;
} chrom_ctx;

static void chrom_metrics(db_table *t, const store_chrom *c)
{
    db_table_opt(t, c->duration);
    db_table_opt(t, c->t_d);
    db_table_opt(t, c->t_e);
    db_table_opt(t, c->ir);
    db_table_opt(t, c->or_);
    db_table_opt(t, c->ib);
    db_table_opt(t, c->ob);
    db_table_opt(t, c->lb);
}

static int chrom_row(const store_chrom *c, void *ctx)
{
    chrom_ctx *x = ctx;
    db_table *t = x->t;
    db_table_row(t);
    db_table_int(t, c->id);
    if (x->export)
        db_table_int(t, c->run);
    db_table_int(t, c->generation);
    db_table_hex32(t, c->crc);
    db_table_int(t, c->score);
    chrom_metrics(t, c);
    if (x->export) {
        db_table_int(t, c->is_synonym ? 1 : 0);
        db_table_int(t, (int64_t)c->genes_len);
        if (x->genes)
            db_table_hex(t, c->genes, c->genes_len);
    } else if (x->mark_best) {
        db_table_int(t, c->score == x->best_score ? 1 : 0);
    }
    return 0;
}

/* Validate --where and --order-by before touching the database, so that bad
 * input is reported as such whatever the state of the file. */
static int parse_query(const db_opts *o, store_filter **where)
{
    char err[512], order[64];
    int pos = 0;
    *where = NULL;
    char q[QUOTE_BUF];
    if (o->where && !(*where = store_filter_parse(o->where, &pos, err, sizeof err))) {
        /* One line, however long the expression: an escaped excerpt from a
         * little before the position named. */
        size_t len = strlen(o->where), from = pos > 40 && (size_t)pos <= len ? (size_t)pos - 40 : 0;
        fprintf(stderr, "nocsim %s: %s (in \"%s%s\")\n", o->cmd, err, from ? "..." : "", quote_str(q, sizeof q, o->where + from));
        return EXIT_USAGE;
    }
    if (o->order && store_order_parse(o->order, order, sizeof order, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "nocsim %s: %s (in \"%s\")\n", o->cmd, err, quote_str(q, sizeof q, o->order));
        store_filter_free(*where);
        *where = NULL;
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int db_synonyms(const db_opts *o, FILE *out)
{
    store_filter *where = NULL;
    int rc = parse_query(o, &where);
    if (rc != EXIT_OK)
        return rc;
    store *s = NULL;
    store_run r;
    memset(&r, 0, sizeof r);
    db_table *t = NULL;
    char err[512];
    if ((rc = load_run(o, &s, &r, NULL)) != EXIT_OK)
        goto done;
    store_chrom_query q = {.run = o->run, .synonyms_only = !o->all, .where = where,
                           .order_by = o->order, .limit = o->limit};
    chrom_ctx x = {.mark_best = o->all, .best_score = r.best_score};
    int64_t total = 0;
    x.t = t = db_table_new(chrom_cols, o->all ? 13 : 12);
    if (!t) {
        rc = oom(o);
    } else if (store_chrom_list(s, &q, chrom_row, &x, err, sizeof err) != STORE_OK ||
               (o->fmt == FMT_TEXT && store_chrom_count(s, &q, &total, err, sizeof err) != STORE_OK)) {
        fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
        rc = EXIT_FAIL;
    } else if (db_table_print(t, out, o->fmt, o->cmd) != 0) {
        rc = oom(o);
    } else if (o->fmt == FMT_TEXT) {
        /* A footer for people: what the filter and the limit kept. */
        size_t shown = db_table_rows(t);
        fprintf(out, "%zu", shown);
        if ((int64_t)shown < total)
            fprintf(out, " of %lld", (long long)total);
        fprintf(out, " %s of run %lld", o->all ? "recorded chromosomes" : "synonyms",
                (long long)r.id);
        if (o->where)
            fprintf(out, " where %s", o->where);
        if (r.best_duration >= 0)
            fprintf(out, "; best duration %lld", (long long)r.best_duration);
        fputc('\n', out);
    }
done:
    db_table_free(t);
    store_filter_free(where);
    store_run_clear(&r);
    store_close(s);
    return rc;
}

int db_export(const db_opts *o, FILE *out)
{
    out_format fmt = o->fmt_given ? o->fmt : FMT_JSON;
    if (fmt == FMT_TEXT) {
        fprintf(stderr, "nocsim %s: --format: export writes csv or json (nocsim db show is for "
                        "people)\n", o->cmd);
        return EXIT_USAGE;
    }
    store *s = NULL;
    store_run r;
    memset(&r, 0, sizeof r);
    gen_list gens = {0};
    db_table *rt = NULL, *gt = NULL, *ct = NULL, *pt = NULL;
    char err[512];
    int rc = load_run(o, &s, &r, NULL);
    if (rc != EXIT_OK)
        goto done;
    /* CSV holds one table: what scripts mine, the chromosomes of a search or
     * the points of an open-loop curve. */
    bool load = is_kind(&r, "load");
    const char *table = o->table ? o->table : fmt == FMT_CSV ? (load ? "points" : "chromosomes") : NULL;
    bool want_run = !table || !strcmp(table, "run");
    bool want_gens = !table || !strcmp(table, "generations");
    bool want_chroms = !table || !strcmp(table, "chromosomes");
    bool want_points = table ? !strcmp(table, "points") : load;
    if (want_gens && store_gen_list(s, o->run, gen_push, &gens, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
        rc = EXIT_FAIL;
        goto done;
    }
    if (gens.failed) {
        rc = oom(o);
        goto done;
    }
    if (want_points && (rc = point_table(o, s, true, &pt)) != EXIT_OK)
        goto done;
    if ((want_run && !(rt = run_table(&r))) || (want_gens && !(gt = gen_table(&gens, 1, false))) ||
        (want_chroms && !(ct = db_table_new(export_cols, o->genes ? 16 : 15)))) {
        rc = oom(o);
        goto done;
    }
    if (want_chroms) {
        store_chrom_query q = {.run = o->run, .with_genes = o->genes};
        chrom_ctx x = {.t = ct, .export = true, .genes = o->genes};
        if (store_chrom_list(s, &q, chrom_row, &x, err, sizeof err) != STORE_OK) {
            fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
            rc = EXIT_FAIL;
            goto done;
        }
    }
    if (table) {
        db_table *t = rt ? rt : gt ? gt : ct ? ct : pt;
        char schema[64];
        snprintf(schema, sizeof schema, "%s %s", o->cmd, table);
        rc = db_table_print(t, out, fmt, schema) ? oom(o) : EXIT_OK;
    } else {
        json_t *body = json_pack("{s:o, s:o, s:o}", "run", db_table_row_json(rt, 0), "generations",
                                 db_table_json(gt), "chromosomes", db_table_json(ct));
        if (body && load && json_object_set_new(body, "points", db_table_json(pt)))
            body = (json_decref(body), NULL);
        json_t *j = cli_json_doc(o->cmd, body);
        rc = ujson_dump(out, j) ? oom(o) : EXIT_OK;
        json_decref(j);
    }
done:
    db_table_free(rt);
    db_table_free(gt);
    db_table_free(ct);
    db_table_free(pt);
    free(gens.g);
    store_run_clear(&r);
    store_close(s);
    return rc;
}
