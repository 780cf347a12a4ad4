/* Parameter-loading methods (see methods.h). */
#include "ga/methods.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/checkpoint.h"
#include "ga/chrom.h"
#include "sim/interval.h"
#include "sim/pool.h"

int method_source_load(store *db, int64_t run, method_source *src, char *err, size_t errlen)
{
    memset(src, 0, sizeof *src);
    int rc = store_run_get(db, run, &src->run, err, errlen);
    if (rc == STORE_NOTFOUND) return snprintf(err, errlen, "run %lld does not exist", (long long)run), -FAULT_INPUT;
    if (rc != STORE_OK) return fault_rc(store_last_kind(db));
    /* Runs derived from a GA run carry its checkpoint's context through the parent. */
    int64_t ctx_run = run;
    for (int hops = 0; hops < 16; hops++) {
        int64_t gen;
        uint8_t *blob = NULL;
        size_t len = 0;
        rc = store_checkpoint_get(db, ctx_run, &gen, &blob, &len, err, errlen);
        if (rc == STORE_OK) {
            rc = ga_checkpoint_peek(blob, len, &src->gp, &src->sp, &src->dest, src->traffic, err, errlen);
            free(blob);
            if (rc) { store_run_clear(&src->run); return rc; }
            /* A derived run (e.g. an extrapolation) keeps its ancestor's network
             * and traffic but was simulated at its own number of slices. */
            if (src->run.slices > 0) src->sp.slices = src->run.slices;
            return 0;
        }
        if (rc != STORE_NOTFOUND) { store_run_clear(&src->run); return fault_rc(store_last_kind(db)); }
        store_run parent;
        if (store_run_get(db, ctx_run, &parent, err, errlen) != STORE_OK) break;
        int64_t p = parent.parent;
        store_run_clear(&parent);
        if (p <= 0) break;
        ctx_run = p;
    }
    store_run_clear(&src->run);
    return snprintf(err, errlen, "run %lld has no recorded simulation context (no checkpoint)", (long long)run),
           -FAULT_INPUT;
}

void method_source_clear(method_source *src)
{
    free(src->dest);
    src->dest = NULL;
    store_run_clear(&src->run);
}

typedef struct {
    const method_source *src;
    sim_pool *pool;
    sim *single;
    sim_config *cfg, *best;
    method_result *res;
    int filtered;
    int have_record;
    int64_t record[6];     /* ir, or, ib, ob, lb, t_e of the last synonym kept */
    char *err;
    size_t errlen;
    int failed;            /* 0, or the negative fault that stopped the listing */
} mine_ctx;

/* The paper's recording rule for post-stacking: keep a synonym only if one of
 * its metrics exceeds the last kept one's. */
static int keep_candidate(mine_ctx *x, const store_chrom *c)
{
    if (!x->filtered) return 1;
    const int64_t v[6] = { c->ir, c->or_, c->ib, c->ob, c->lb, c->t_e };
    int keep = !x->have_record;
    for (int k = 0; k < 6 && !keep; k++)
        if (v[k] > x->record[k]) keep = 1;
    if (keep) {
        memcpy(x->record, v, sizeof v);
        x->have_record = 1;
    }
    return keep;
}

static int mine_one(const store_chrom *c, void *arg)
{
    mine_ctx *x = arg;
    if (!keep_candidate(x, c)) return 0;
    if (chrom_decode(x->cfg, c->genes, c->genes_len, x->err, x->errlen)) {
        x->failed = -FAULT_IO;   /* the store's genes passed their CRC but are no chromosome: damage */
        return 1;
    }
    sim_metrics m1, m;
    sim_run(x->single, x->cfg, &m1);
    x->res->sims++;
    uint32_t L = (uint32_t)x->src->sp.flits, hi = m1.te > L ? (uint32_t)m1.te : L, v;
    x->res->candidates++;
    if (sim_interval_search(x->pool, x->cfg, L, hi, &v, &m, NULL, &x->res->sims)) {
        snprintf(x->err, x->errlen, "out of memory in the interval search");
        x->failed = -FAULT_RESOURCE;
        return 1;
    }
    if (m.status != SIM_OK) return 0;
    if (x->res->best_chrom == 0 || m.duration < x->res->best.duration) {
        x->res->best_chrom = c->id;
        x->res->best_interval = v;
        x->res->best = m;
        x->res->best1 = m1;
        sim_config_copy(x->best, x->cfg);
        x->best->interval = v;
    }
    return 0;
}

static int record_result(store *db, const method_source *src, const method_options *opt, const char *kind,
                         const char *version, method_result *res, char *err, size_t errlen)
{
    char params[512], height[32] = "";
    /* A rectangle's height, as in its source run's params (runs.size is the width). */
    if (sim_height(&src->sp) != src->sp.n) snprintf(height, sizeof height, ", \"height\": %d", sim_height(&src->sp));
    snprintf(params, sizeof params,
             "{\"method\": \"%s\", \"source_run\": %lld, \"slices\": %d, \"candidates\": %lld, \"simulations\": %lld, "
             "\"source_chromosome\": %lld, \"interval\": %u%s}",
             kind, (long long)src->run.id, opt->slices, (long long)res->candidates, (long long)res->sims,
             (long long)res->best_chrom, res->best_interval, height);
    store_run r = store_run_init(kind);
    r.version = version;
    r.seed = src->run.seed;
    r.traffic = src->run.traffic;
    r.size = src->sp.n;
    r.slices = opt->slices;
    r.flits = src->sp.flits;
    r.genes = src->run.genes;
    r.algorithm = kind;
    r.params = params;
    r.parent = src->run.id;
    size_t len = chrom_grid_size(src->sp.n, sim_height(&src->sp), src->sp.vcs);
    uint8_t *genes = malloc(len);
    if (!genes) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    chrom_encode(res->config, src->sp.n, genes);
    if (store_begin(db, err, errlen) != STORE_OK) { free(genes); return fault_rc(store_last_kind(db)); }
    store_chrom sc = { .generation = 0, .crc = res->best_crc, .score = res->best.duration,
                       .duration = res->best.duration, .t_d = res->best1.duration, .t_e = res->best1.te,
                       .ir = res->best.ir, .or_ = res->best.or_, .ib = res->best.ib, .ob = res->best.ob,
                       .lb = res->best.lb, .is_synonym = false, .genes = genes, .genes_len = len };
    int ok = store_run_create(db, &r, err, errlen) == STORE_OK;
    sc.run = r.id;
    ok = ok && store_chrom_add(db, &sc, NULL, err, errlen) == STORE_OK;
    ok = ok && store_run_set_best(db, r.id, res->best.duration, res->best.duration, res->best_crc, err, errlen) == STORE_OK;
    ok = ok && store_run_set_baselines(db, r.id, src->run.base_stacking, src->run.base_nonsplit, err, errlen) == STORE_OK;
    ok = ok && store_run_set_status(db, r.id, "finished", err, errlen) == STORE_OK;
    ok = ok && store_commit(db, err, errlen) == STORE_OK;
    free(genes);
    if (!ok) {
        int rc = fault_rc(store_last_kind(db));
        (void)!store_rollback(db, NULL, 0);   /* report the first failure; store_close rolls back */
        return rc;
    }
    res->run = r.id;
    return 0;
}

int method_mine(store *db, int64_t src_run, const method_options *opt, const char *kind, int record,
                const char *version, method_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    method_source src;
    int rc = method_source_load(db, src_run, &src, err, errlen);
    if (rc) return rc;
    rc = -FAULT_RESOURCE;
    fault_kind setup = FAULT_RESOURCE;
    sim_params target = src.sp, one = src.sp;
    target.slices = opt->slices;
    one.slices = 1;
    mine_ctx x = { .src = &src, .res = res, .err = err, .errlen = errlen,
                   .filtered = opt->set == MINE_SYNONYMS_FILTERED };
    x.pool = sim_pool_new(&target, src.dest, opt->threads, &setup, err, errlen);
    x.single = x.pool ? sim_new(&one, src.dest, &setup, err, errlen) : NULL;
    x.cfg = sim_config_new(sim_nodes(&src.sp), src.sp.vcs, 0, 0);
    res->config = sim_config_new(sim_nodes(&src.sp), src.sp.vcs, 0, 0);
    x.best = res->config;
    if (!x.pool || !x.single || !x.cfg || !res->config) {
        if (x.pool && x.single) snprintf(err, errlen, "out of memory");
        rc = fault_rc(setup);
        goto out;
    }
    store_chrom_query q = { .run = src_run, .with_genes = true, .order_by = "id",
                            .synonyms_only = opt->set != MINE_ALL, .limit = opt->limit };
    if (opt->set == MINE_BEST) { q.order_by = "score"; q.limit = 1; }
    if (store_chrom_list(db, &q, mine_one, &x, err, errlen) != STORE_OK) {
        rc = fault_rc(store_last_kind(db));
        goto out;
    }
    if (x.failed) { rc = x.failed; goto out; }
    if (res->candidates == 0 || res->best_chrom == 0) {
        snprintf(err, errlen, "run %lld has no recorded chromosome to replay", (long long)src_run);
        rc = -FAULT_INPUT;
        goto out;
    }
    uint8_t *scratch = malloc(chrom_grid_size(src.sp.n, sim_height(&src.sp), src.sp.vcs));
    if (!scratch) { snprintf(err, errlen, "out of memory"); rc = -FAULT_RESOURCE; goto out; }
    res->best_crc = chrom_signature(res->config, src.sp.n, scratch);
    free(scratch);
    rc = record ? record_result(db, &src, opt, kind, version, res, err, errlen) : 0;
out:
    sim_config_free(x.cfg);
    sim_free(x.single);
    sim_pool_free(x.pool);
    method_source_clear(&src);
    return rc;
}

void method_result_clear(method_result *res)
{
    sim_config_free(res->config);
    res->config = NULL;
}
