/* The sweep's record, its finished tasks, adoption of scratch databases and
 * the summary (see record.h). */
#include "sweep/record.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

/* The params JSON of a sweep record: {"spec": "<text>", "tasks": N}.  The
 * spec text is the one place the sweep is described; the reader below reads
 * back exactly what the writer writes (both through jansson). */
static char *params_json(const char *spec_text, int64_t ntasks)
{
    json_t *j = json_pack("{s:o, s:I}", "spec", ujson_str(spec_text), "tasks", (json_int_t)ntasks);
    char *text = ujson_text(j);
    json_decref(j);
    return text;
}

/* The spec text of a record's params, or NULL if it is not there (or not a
 * string, or not JSON). */
static char *spec_from_params(const char *params)
{
    json_t *j = params ? json_loads(params, JSON_REJECT_DUPLICATES, NULL) : NULL;
    const char *spec = json_string_value(json_object_get(j, "spec"));
    char *out = spec ? strdup(spec) : NULL;
    json_decref(j);
    return out;
}

int sweep_record_create(store *db, const sweep_spec *spec, const char *version, int64_t *id,
                        char *err, size_t errlen)
{
    char *text = sweep_spec_to_text(spec, err, errlen);
    if (!text) return -1;
    char *pj = params_json(text, spec->ntasks);
    free(text);
    size_t tl = 0;
    for (int i = 0; i < spec->ntraffic; i++) tl += strlen(spec->traffic[i]) + 1;
    char *traffic = malloc(tl + 1);
    if (!pj || !traffic) { free(pj); free(traffic); snprintf(err, errlen, "out of memory"); return -1; }
    traffic[0] = 0;
    for (int i = 0; i < spec->ntraffic; i++) {
        if (i) strcat(traffic, ",");
        strcat(traffic, spec->traffic[i]);
    }
    store_run r = store_run_init("sweep");
    r.version = version;
    r.seed = spec->seed;
    r.traffic = traffic;
    if (spec->command == SWEEP_GA) r.slices = spec->slices;   /* a load sweep's runs have none */
    r.algorithm = "sweep";
    r.params = pj;
    int rc = store_run_create(db, &r, err, errlen);
    free(pj);
    free(traffic);
    if (rc != STORE_OK) return -1;
    *id = r.id;
    return 0;
}

int sweep_record_load(store *db, int64_t id, sweep_spec *spec, char *err, size_t errlen)
{
    memset(spec, 0, sizeof *spec);
    store_run r;
    int st = store_run_get(db, id, &r, err, errlen);
    if (st == STORE_NOTFOUND) {
        snprintf(err, errlen, "sweep %" PRId64 " is not in %s", id, store_path(db));
        return -FAULT_INPUT;
    }
    if (st != STORE_OK) return fault_rc(store_last_kind(db));
    int rc = 0;
    if (!r.kind || strcmp(r.kind, "sweep") != 0) {
        snprintf(err, errlen, "run %" PRId64 " of %s is not a sweep (it is a %s run)", id, store_path(db),
                 r.kind ? r.kind : "?");
        rc = -FAULT_INPUT;
    } else {
        char *text = spec_from_params(r.params);
        char e2[256] = "";
        if (!text || sweep_spec_from_text(spec, text, e2, sizeof e2)) {
            snprintf(err, errlen, "database is damaged: sweep %" PRId64 " has no readable spec%s%s", id,
                     *e2 ? ": " : "", e2);
            rc = -FAULT_IO;
        }
        free(text);
    }
    store_run_clear(&r);
    return rc;
}

typedef struct {
    uint64_t seed;
    int64_t task;
} seed_key;

static int cmp_seed(const void *a, const void *b)
{
    uint64_t x = ((const seed_key *)a)->seed, y = ((const seed_key *)b)->seed;
    return x < y ? -1 : x > y;
}

/* Seeds of all tasks, sorted, for matching runs back to tasks. */
static seed_key *seed_index(const sweep_spec *spec)
{
    seed_key *k = malloc((size_t)spec->ntasks * sizeof *k);
    if (!k) return NULL;
    for (int64_t i = 0; i < spec->ntasks; i++) {
        sweep_task t;
        sweep_task_get(spec, i, &t);
        k[i].seed = t.seed;
        k[i].task = i;
    }
    qsort(k, (size_t)spec->ntasks, sizeof *k, cmp_seed);
    return k;
}

static int64_t task_of_seed(const seed_key *keys, int64_t n, uint64_t seed)
{
    seed_key probe = { seed, 0 };
    const seed_key *h = bsearch(&probe, keys, (size_t)n, sizeof *keys, cmp_seed);
    return h ? h->task : -1;
}

/* Calls fn for every finished GA run of sweep id with its task index. */
typedef int (*task_run_fn)(const store_run *r, int64_t task, void *ctx);
typedef struct {
    int64_t sweep;
    const sweep_spec *spec;
    const seed_key *keys;
    task_run_fn fn;
    void *ctx;
    int failed;   /* 0, or the negative fault of fn */
} walk_ctx;

static int walk_cb(const store_run *r, void *vc)
{
    walk_ctx *w = vc;
    if (r->parent != w->sweep || !r->status || strcmp(r->status, "finished") != 0) return 0;
    int64_t k = task_of_seed(w->keys, w->spec->ntasks, r->seed);
    if (k < 0) return 0; /* a run of the user's own, re-parented by hand */
    int rc = w->fn(r, k, w->ctx);
    if (rc) { w->failed = rc; return 1; }
    return 0;
}

static int walk_tasks(store *db, int64_t id, const sweep_spec *spec, task_run_fn fn, void *ctx,
                      char *err, size_t errlen)
{
    seed_key *keys = seed_index(spec);
    if (!keys) { snprintf(err, errlen, "out of memory"); return -FAULT_RESOURCE; }
    walk_ctx w = { id, spec, keys, fn, ctx, 0 };
    store_run_filter f = { .kind = sweep_command_name(spec->command) };
    int rc = store_runs_list(db, &f, walk_cb, &w, err, errlen);
    free(keys);
    if (rc != STORE_OK) return fault_rc(store_last_kind(db));
    return w.failed;
}

typedef struct {
    uint8_t *done;
    int64_t n, dup;
    char *err;
    size_t errlen;
} done_ctx;

static int done_cb(const store_run *r, int64_t k, void *vc)
{
    done_ctx *d = vc;
    if (d->done[k]) {
        snprintf(d->err, d->errlen, "database is damaged: task %" PRId64 " of the sweep is recorded twice (run %" PRId64 ")",
                 k, r->id);
        return -FAULT_IO;
    }
    d->done[k] = 1;
    d->n++;
    return 0;
}

int sweep_done_tasks(store *db, int64_t id, const sweep_spec *spec, uint8_t *done, int64_t *ndone,
                     char *err, size_t errlen)
{
    done_ctx d = { done, 0, 0, err, errlen };
    int rc = walk_tasks(db, id, spec, done_cb, &d, err, errlen);
    if (rc) return rc;
    *ndone = d.n;
    return 0;
}

typedef struct {
    int n;
    int64_t id;
    char uuid[STORE_UUID_LEN + 1];
    uint64_t seed;
    int finished;
    char kind[8];
} scratch_ctx;

static int scratch_cb(const store_run *r, void *vc)
{
    scratch_ctx *c = vc;
    c->n++;
    c->id = r->id;
    memcpy(c->uuid, r->uuid, sizeof c->uuid);
    c->seed = r->seed;
    c->finished = r->status && !strcmp(r->status, "finished");
    snprintf(c->kind, sizeof c->kind, "%s", r->kind ? r->kind : "");
    return 0;
}

int sweep_adopt(store *db, int64_t id, sweep_command cmd, const sweep_task *t, const char *scratch_path,
                int64_t *run, char *err, size_t errlen)
{
    store_run sw;
    if (store_run_get(db, id, &sw, err, errlen) != STORE_OK) return -1;
    store *s = store_open(scratch_path, 0, err, errlen);
    if (!s) { store_run_clear(&sw); return -1; }
    scratch_ctx c = { 0 };
    int rc = -1;
    if (store_runs_list(s, NULL, scratch_cb, &c, err, errlen) != STORE_OK) goto out;
    if (c.n != 1 || strcmp(c.kind, sweep_command_name(cmd)) || !c.finished || c.seed != t->seed) {
        snprintf(err, errlen, "%s: expected one finished %s run with seed %" PRIu64 " (found %d runs)", scratch_path,
                 cmd == SWEEP_GA ? "GA" : "load", t->seed, c.n);
        goto out;
    }
    /* The sweep's record, same uuid, as the scratch run's parent. */
    store_run copy = store_run_init("sweep");
    memcpy(copy.uuid, sw.uuid, sizeof copy.uuid);
    copy.version = sw.version;
    copy.started = sw.started;
    copy.seed = sw.seed;
    copy.traffic = sw.traffic;
    copy.slices = sw.slices;
    copy.algorithm = sw.algorithm;
    copy.params = sw.params;
    if (store_begin(s, err, errlen) != STORE_OK) goto out;
    if (store_run_create(s, &copy, err, errlen) != STORE_OK ||
        store_run_set_parent(s, c.id, copy.id, err, errlen) != STORE_OK) {
        (void)!store_rollback(s, NULL, 0);   /* report the first failure; store_close rolls back */
        goto out;
    }
    if (store_commit(s, err, errlen) != STORE_OK) goto out;
    store_close(s);
    s = NULL;
    store_merge_stats ms;
    if (store_merge(db, scratch_path, &ms, err, errlen) != STORE_OK) goto out;
    if (ms.runs_added != 1) {
        snprintf(err, errlen, "%s: the run was already in %s (%" PRId64 " added)", scratch_path, store_path(db),
                 ms.runs_added);
        goto out;
    }
    if (store_run_find_uuid(db, c.uuid, run, err, errlen) != STORE_OK) goto out;
    rc = 0;
out:
    store_close(s);
    store_run_clear(&sw);
    return rc;
}

/* ---- summary ------------------------------------------------------------- */

int64_t sweep_level_offset(const sweep_spec *spec, int a)
{
    int64_t off = 0;
    for (int b = 0; b < a; b++) off += spec->axes[b].nvalues;
    return off;
}

typedef struct {
    sweep_summary *s;
    double *sum, *lsum;     /* per point; per traffic x level */
    int64_t *lcount;
    double *stack_sum;      /* GA: per traffic */
    int64_t *stack_n;
    double *rate_sum;       /* load: per point */
    double *pat_sum;        /* load: per traffic */
    int64_t *pat_n;
} sum_ctx;

/* A load run's saturation throughput and rate (params "saturation": rate and
 * accepted, or "below" when every rate tried saturated: 0).  0, or -1 when
 * the run has none (run without --saturation). */
static int load_saturation(const char *params, double *accepted, double *rate)
{
    json_t *j = params ? json_loads(params, JSON_REJECT_DUPLICATES, NULL) : NULL;
    json_t *sat = json_object_get(j, "saturation");
    json_t *acc = json_object_get(sat, "accepted"), *r = json_object_get(sat, "rate");
    int rc = -1;
    if (json_is_number(acc) && json_is_number(r)) {
        *accepted = json_number_value(acc);
        *rate = json_number_value(r);
        rc = 0;
    } else if (json_is_number(json_object_get(sat, "below"))) {
        *accepted = *rate = 0;
        rc = 0;
    }
    json_decref(j);
    return rc;
}

/* GA: the best duration is the point's best when lower; load: the saturation
 * throughput when higher. */
static void point_add(sum_ctx *c, sweep_point *p, const store_run *r, double v, double rate)
{
    const sweep_summary *s = c->s;
    p->runs++;
    c->sum[p - s->points] += v;
    if (s->spec.command == SWEEP_LOAD) {
        c->rate_sum[p - s->points] += rate;
        if (p->best_run < 0 || v > p->top) { p->top = v; p->best_run = r->id; }
    } else if (p->best < 0 || r->best_duration < p->best) {
        p->best = r->best_duration;
        p->best_run = r->id;
    }
}

static void pattern_add(sum_ctx *c, sweep_pattern *pt, const store_run *r, double v)
{
    if (c->s->spec.command == SWEEP_LOAD) {
        c->pat_sum[pt->traffic] += v;
        c->pat_n[pt->traffic]++;
        if (pt->best_run < 0 || v > pt->top) { pt->top = v; pt->best_run = r->id; }
        return;
    }
    if (pt->best < 0 || r->best_duration < pt->best) {
        pt->best = r->best_duration;
        pt->best_run = r->id;
        pt->best_crc = (uint32_t)r->best_crc;
    }
    if (r->base_stacking > 0) { c->stack_sum[pt->traffic] += (double)r->base_stacking; c->stack_n[pt->traffic]++; }
}

static int sum_cb(const store_run *r, int64_t k, void *vc)
{
    sum_ctx *c = vc;
    sweep_summary *s = c->s;
    double v, rate = 0;
    if (s->spec.command == SWEEP_LOAD) {
        if (load_saturation(r->params, &v, &rate)) return 0;
    } else {
        if (r->best_duration < 0) return 0;
        v = (double)r->best_duration;
    }
    sweep_task t;
    sweep_task_get(&s->spec, k, &t);
    point_add(c, &s->points[(int64_t)t.traffic * s->spec.ncombos + t.combo], r, v, rate);
    pattern_add(c, &s->patterns[t.traffic], r, v);
    for (int a = 0; a < s->spec.naxes; a++) {
        int64_t combo = t.combo;
        for (int b = s->spec.naxes - 1; b > a; b--) combo /= s->spec.axes[b].nvalues;
        int64_t li = (int64_t)t.traffic * s->nlevels + sweep_level_offset(&s->spec, a) + combo % s->spec.axes[a].nvalues;
        c->lsum[li] += v;
        c->lcount[li]++;
    }
    s->done++;
    return 0;
}

void sweep_summary_clear(sweep_summary *s)
{
    sweep_spec_clear(&s->spec);
    free(s->points);
    free(s->patterns);
    free(s->level_mean);
    memset(s, 0, sizeof *s);
}

/* The summary's arrays and the walk's sums, zeroed and initialised.  0 or
 * -1 when memory runs out (the caller frees what was made). */
static int summary_alloc(sweep_summary *out, sum_ctx *c)
{
    const sweep_spec *sp = &out->spec;
    int64_t npoints = sp->ntraffic * sp->ncombos, nl = sp->ntraffic * out->nlevels;
    size_t nt = (size_t)sp->ntraffic;
    out->points = calloc((size_t)npoints, sizeof *out->points);
    out->patterns = calloc(nt, sizeof *out->patterns);
    out->level_mean = calloc((size_t)nl, sizeof *out->level_mean);
    *c = (sum_ctx){ out, calloc((size_t)npoints, sizeof(double)), calloc((size_t)nl, sizeof(double)),
                    calloc((size_t)nl, sizeof(int64_t)), calloc(nt, sizeof(double)), calloc(nt, sizeof(int64_t)),
                    calloc((size_t)npoints, sizeof(double)), calloc(nt, sizeof(double)), calloc(nt, sizeof(int64_t)) };
    if (!out->points || !out->patterns || !out->level_mean || !c->sum || !c->lsum || !c->lcount || !c->stack_sum ||
        !c->stack_n || !c->rate_sum || !c->pat_sum || !c->pat_n)
        return -1;
    for (int64_t i = 0; i < npoints; i++)
        out->points[i] = (sweep_point){ .traffic = (int)(i / sp->ncombos), .combo = i % sp->ncombos, .best = -1,
                                        .best_run = -1, .top = NAN };
    for (int i = 0; i < sp->ntraffic; i++)
        out->patterns[i] = (sweep_pattern){ .traffic = i, .best = -1, .axis = -1, .best_run = -1, .top = NAN };
    return 0;
}

static void sum_free(sum_ctx *c)
{
    free(c->sum); free(c->lsum); free(c->lcount); free(c->stack_sum); free(c->stack_n);
    free(c->rate_sum); free(c->pat_sum); free(c->pat_n);
}

/* Means from the sums, and per pattern the parameter that mattered most:
 * the axis whose levels' mean figures are furthest apart (a main-effect
 * range; axes with one value cannot). */
static void summary_finish(sweep_summary *out, const sum_ctx *c)
{
    const sweep_spec *sp = &out->spec;
    for (int64_t i = 0; i < sp->ntraffic * sp->ncombos; i++) {
        sweep_point *p = &out->points[i];
        p->mean = p->runs ? c->sum[i] / p->runs : NAN;
        p->rate = p->runs ? c->rate_sum[i] / p->runs : NAN;
    }
    for (int64_t i = 0; i < sp->ntraffic * out->nlevels; i++)
        out->level_mean[i] = c->lcount[i] ? c->lsum[i] / (double)c->lcount[i] : NAN;
    for (int tr = 0; tr < sp->ntraffic; tr++) {
        sweep_pattern *pt = &out->patterns[tr];
        pt->stacking = c->stack_n[tr] ? c->stack_sum[tr] / (double)c->stack_n[tr] : NAN;
        pt->mean = c->pat_n[tr] ? c->pat_sum[tr] / (double)c->pat_n[tr] : NAN;
        for (int a = 0; a < sp->naxes; a++) {
            if (sp->axes[a].nvalues < 2) continue;
            double lo = INFINITY, hi = -INFINITY;
            for (int v = 0; v < sp->axes[a].nvalues; v++) {
                double m = out->level_mean[tr * out->nlevels + sweep_level_offset(sp, a) + v];
                if (isnan(m)) continue;
                if (m < lo) lo = m;
                if (m > hi) hi = m;
            }
            if (hi > lo && (pt->axis < 0 || hi - lo > pt->spread)) { pt->axis = a; pt->spread = hi - lo; }
        }
    }
}

int sweep_summarise(store *db, int64_t id, sweep_summary *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int rc = sweep_record_load(db, id, &out->spec, err, errlen);
    if (rc) return rc;
    store_run r;
    if (store_run_get(db, id, &r, err, errlen) != STORE_OK) { sweep_summary_clear(out); return fault_rc(store_last_kind(db)); }
    snprintf(out->status_buf, sizeof out->status_buf, "%s", r.status ? r.status : "?");
    store_run_clear(&r);
    out->status = out->status_buf;
    out->id = id;
    out->total = out->spec.ntasks;
    out->nlevels = sweep_level_offset(&out->spec, out->spec.naxes);
    sum_ctx c;
    if (summary_alloc(out, &c)) {
        snprintf(err, errlen, "out of memory");
        rc = -FAULT_RESOURCE;
    } else if (!(rc = walk_tasks(db, id, &out->spec, sum_cb, &c, err, errlen))) {
        summary_finish(out, &c);
    }
    sum_free(&c);
    if (rc) sweep_summary_clear(out);
    return rc;
}
