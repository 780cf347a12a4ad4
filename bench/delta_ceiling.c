/* The measurement behind data/delta_ceiling.md (issue 38's first step):
 * what delta simulation could gain on the GA's default run, measured on
 * the one fast engine before a cone stepper is built (sim/delta.h).
 *
 *   delta_ceiling record FILE [--every K] [--evals N] [--seed X]
 *       runs the default GA (`nocsim ga --traffic brev --slices 2`, 16x16
 *       torus, one thread: the same results on any number) and writes every
 *       K-th generation's job (default 25) to FILE: the parent's and the
 *       child's chromosomes, the cutoff and what became of the child.
 *   delta_ceiling measure FILE [--stride S] [--snap K] [--no-side]
 *       for every S-th job of FILE (default 1): the parent's run recorded
 *       (delta_probe_record: dense, sparse, snapshots every K cycles), the
 *       child run as the GA runs it, then both side by side (the cones; an
 *       accepted child's cone patched into the dense record).  Prints the
 *       figures by the child's fate.  --no-side skips the side-by-side runs
 *       and the record (instruction counts of the child's runs alone).
 *       --product instead runs each parent and child through sim/delta_run.h
 *       (the parent recorded, the child on its cone), checks every result
 *       against closedloop_run's, and, for a child that finished, accepts it
 *       and checks the patched record against the child's own fresh record;
 *       --product-time adds the wall times of the children's runs both ways.
 *
 * Instructions come from callgrind's inclusive counts of closedloop_run
 * (the child's runs as the GA makes them), delta_rec_dense, delta_rec_sparse,
 * delta_rec_snapshot and delta_rec_patch; see data/delta_ceiling.md for the
 * commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/chrom.h"
#include "ga/ga_internal.h"
#include "sim/delta.h"
#include "sim/delta_internal.h"
#include <time.h>
#include "traffic/traffic.h"

/* A job's fate as the GA's run saw it; measure splits the cut children by
 * whether V changed (FATE_CUT_V: every node's second slice moves). */
enum { FATE_REPEAT, FATE_BETTER, FATE_EQUAL, FATE_CUT, FATE_WORSE, FATE_CUT_V, NFATE };
static const char *const fate_name[NFATE] = { "proven repeat", "accepted, shorter", "accepted, equal",
                                              "cut, V unchanged", "rejected, finished", "cut, V changed" };

#define MAGIC 0x33746c64u /* "dlt3" */

typedef struct {
    uint8_t fate;
    int64_t generation, cutoff, duration, parent_duration;
} job_head;

static void setup(sim_params *sp, ga_params *gp, uint64_t seed)
{
    /* As cmd_ga's defaults (cli/cmd_ga.c, ga_defaults). */
    sim_params_default(sp);
    sp->n = 16;
    sp->slices = 2;
    sp->route_seed = sim_route_seed(seed);
    ga_params_default(gp);
    ga_params_for_algo(gp, GA_ALGO_LOCAL);
    gp->seed = seed;
    gp->threads = 1;
}

static traffic *brev(int n)
{
    char err[256];
    traffic *t = traffic_new("brev", n, 1, err, sizeof err);
    if (!t) fprintf(stderr, "delta_ceiling: %s\n", err);
    return t;
}

static int cmd_record(const char *path, int every, int64_t evals, uint64_t seed)
{
    sim_params sp;
    ga_params gp;
    setup(&sp, &gp, seed);
    if (evals > 0) gp.max_evals = evals;
    traffic *t = brev(sp.n);
    char err[256];
    ga *g = t ? ga_new(&gp, &sp, t->dest, "brev", NULL, "delta_ceiling", "{}", NULL, err, sizeof err) : NULL;
    FILE *f = fopen(path, "wb");
    if (!g || !f || ga_start(g, err, sizeof err)) {
        fprintf(stderr, "delta_ceiling: %s\n", g && f ? err : "cannot start");
        return 1;
    }
    const size_t cb = chrom_encoded_size(sp.n, sp.vcs);
    uint8_t *buf = malloc(cb);
    sim_config *parent = ga_new_config(g);
    const uint32_t magic = MAGIC;
    fwrite(&magic, sizeof magic, 1, f);
    fwrite(&cb, sizeof cb, 1, f);
    int64_t jobs = 0, fates[NFATE] = { 0 };
    for (int rc = 1; rc > 0;) {
        sim_config_copy(parent, g->pop[0]);
        const int64_t pd = g->pop_m[0].duration;
        rc = ga_step(g, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "delta_ceiling: %s\n", err);
            return 1;
        }
        const sim_job *j = &g->jobs[0];
        if (g->generation % every) continue;
        job_head h = { .generation = g->generation, .cutoff = j->cutoff, .duration = j->m.duration,
                       .parent_duration = pd };
        const int accepted = j->cfg && g->pop[0] == j->cfg;
        if (!j->cfg) h.fate = FATE_REPEAT;
        else if (accepted) h.fate = j->m.duration < pd ? FATE_BETTER : FATE_EQUAL;
        else h.fate = j->m.status == SIM_CUTOFF ? FATE_CUT : FATE_WORSE;
        fwrite(&h, sizeof h, 1, f);
        chrom_encode(parent, sp.n, buf);
        fwrite(buf, cb, 1, f);
        chrom_encode(j->cfg ? j->cfg : parent, sp.n, buf);
        fwrite(buf, cb, 1, f);
        jobs++;
        fates[h.fate]++;
    }
    ga_progress p;
    ga_get_progress(g, &p);
    printf("generations %lld evals %lld repeats %lld best %lld\n", (long long)p.generation, (long long)p.evals,
           (long long)p.repeats, (long long)p.best_duration);
    printf("jobs %lld (every %d-th generation):", (long long)jobs, every);
    for (int k = 0; k < FATE_CUT_V; k++) printf(" %s %lld;", k == FATE_CUT ? "cut" : fate_name[k], (long long)fates[k]);
    printf("\n");
    fclose(f);
    free(buf);
    sim_config_free(parent);
    ga_free(g);
    traffic_free(t);
    return 0;
}

/* A job file of sp's network opened at its first job, its chromosomes'
 * size in *cb; NULL with a message when it is not one. */
static FILE *open_jobs(const char *path, const sim_params *sp, size_t *cb)
{
    FILE *f = fopen(path, "rb");
    uint32_t magic = 0;
    if (!f || fread(&magic, sizeof magic, 1, f) != 1 || magic != MAGIC || fread(cb, sizeof *cb, 1, f) != 1 ||
        *cb != chrom_encoded_size(sp->n, sp->vcs)) {
        fprintf(stderr, "delta_ceiling: %s: not a job file of this network\n", path);
        if (f) fclose(f);
        return NULL;
    }
    return f;
}

/* Job k of f into *h, parent and child (buf: cb bytes of room), a cut
 * child that changed V told apart (FATE_CUT_V): 1, 0 at the file's end, -1
 * with a message when the job is damaged. */
static int next_job(FILE *f, const char *path, int64_t k, uint8_t *buf, size_t cb, job_head *h, sim_config *parent,
                    sim_config *child)
{
    char err[256];
    if (fread(h, sizeof *h, 1, f) != 1) return 0;
    if (fread(buf, cb, 1, f) != 1 || chrom_decode(parent, buf, cb, err, sizeof err) || fread(buf, cb, 1, f) != 1 ||
        chrom_decode(child, buf, cb, err, sizeof err)) {
        fprintf(stderr, "delta_ceiling: %s: job %lld damaged\n", path, (long long)k);
        return -1;
    }
    if (h->fate == FATE_CUT && parent->interval != child->interval) h->fate = FATE_CUT_V;
    return 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double pc(int64_t a, int64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

/* measure's tables: the cones by the child's fate, their totals, the edge
 * check and the parent's records. */
static void print_probe(const delta_stats st[NFATE], const delta_rec_stats *rs, int K)
{
    delta_stats all = { 0 };
    printf("| fate | jobs | cycles | active | strict cone | of active | release-aware | of active | dynamic | of active "
           "| at 0 strict / rel | at end strict / rel | first difference | edge links a cycle s / r / d | inexact |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k <= NFATE; k++) {
        const delta_stats *s = k < NFATE ? &st[k] : &all;
        if (k < NFATE && k != FATE_REPEAT) {
#define ADD(f) all.f += s->f
            ADD(jobs); ADD(cycles); ADD(router_cycles); ADD(cone_rc); ADD(cone_dyn_rc); ADD(active_rc);
            ADD(cone_active_rc); ADD(cone0); ADD(joins); ADD(diverged); ADD(first_diff); ADD(first_diff_of);
            ADD(edge_lc); ADD(inexact); ADD(patch_writes); ADD(edge_joins); ADD(unexplained); ADD(edge_sum);
            ADD(rel_rc); ADD(rel_active_rc); ADD(rel_edge_lc); ADD(rel0); ADD(rel_joins); ADD(rel_unexplained); ADD(dyn_active_rc); ADD(dyn_edge_lc);
#undef ADD
        }
        const double sim = k == FATE_REPEAT || !s->jobs ? 1.0 : (double)s->jobs, cyc = s->cycles ? (double)s->cycles : 1.0;
        printf("| %s | %lld | %.1f | %.1f %% | %.2f %% | %.2f %% | %.2f %% | %.2f %% | %.2f %% | %.2f %% | %.1f / %.1f | "
               "%.1f / %.1f | %.1f %% | %.1f / %.1f / %.1f | %lld |\n",
               k < NFATE ? fate_name[k] : "all simulated", (long long)s->jobs, (double)s->cycles / sim,
               pc(s->active_rc, s->router_cycles), pc(s->cone_rc, s->router_cycles), pc(s->cone_active_rc, s->active_rc),
               pc(s->rel_rc, s->router_cycles), pc(s->rel_active_rc, s->active_rc), pc(s->cone_dyn_rc, s->router_cycles),
               pc(s->dyn_active_rc, s->active_rc), (double)s->cone0 / sim, (double)s->rel0 / sim, (double)s->joins / sim, (double)s->rel_joins / sim,
               pc(s->first_diff, s->first_diff_of), (double)s->edge_lc / cyc, (double)s->rel_edge_lc / cyc,
               (double)s->dyn_edge_lc / cyc, (long long)s->inexact);
    }
    printf("totals: child cycles %lld, router-cycles %lld, active %lld; strict cone %lld (active %lld, edge "
           "link-cycles %lld); release-aware %lld (%lld, %lld); dynamic %lld (%lld, %lld); patch entries %lld\n",
           (long long)all.cycles, (long long)all.router_cycles, (long long)all.active_rc, (long long)all.cone_rc,
           (long long)all.cone_active_rc, (long long)all.edge_lc, (long long)all.rel_rc, (long long)all.rel_active_rc,
           (long long)all.rel_edge_lc, (long long)all.cone_dyn_rc, (long long)all.dyn_active_rc,
           (long long)all.dyn_edge_lc, (long long)all.patch_writes);
    printf("edge check: links found unlike the record %lld, routers joining unseen by it %lld (flit sum %u); "
           "routers joining the release-aware cone with no neighbour in it %lld\n",
           (long long)all.edge_joins, (long long)all.unexplained, (unsigned)all.edge_sum,
           (long long)all.rel_unexplained);
    printf("records: parents %lld, cycles %lld (%.1f a parent), crossings %.1f a cycle, full-bit changes %.1f a "
           "cycle\n",
           (long long)rs->parents, (long long)rs->cycles, (double)rs->cycles / (double)rs->parents,
           (double)rs->crossings / (double)rs->cycles, (double)rs->full_changes / (double)rs->cycles);
    printf("record bytes a parent: dense %.0f, sparse %.0f, snapshots %.0f (%.1f of %lld bytes, every %d cycles)\n",
           (double)rs->dense_bytes / (double)rs->parents, (double)rs->sparse_bytes / (double)rs->parents,
           (double)rs->snap_bytes / (double)rs->parents, (double)rs->snapshots / (double)rs->parents,
           (long long)(rs->snapshots ? rs->snap_bytes / rs->snapshots : 0), K);
}

static int cmd_measure(const char *path, int stride, int K, int side)
{
    sim_params sp;
    ga_params gp;
    setup(&sp, &gp, 1);
    traffic *t = brev(sp.n);
    size_t cb = 0;
    FILE *f = t ? open_jobs(path, &sp, &cb) : NULL;
    if (!f) return 1;
    delta_probe *d = delta_probe_new(&sp, t->dest, K);
    const int nodes = sim_nodes(&sp);
    sim_config *parent = sim_config_new(nodes, sp.vcs, 0, 0), *child = sim_config_new(nodes, sp.vcs, 0, 0);
    uint8_t *buf = malloc(cb);
    if (!d || !parent || !child || !buf) {
        fprintf(stderr, "delta_ceiling: out of memory\n");
        return 1;
    }
    delta_stats st[NFATE];
    delta_rec_stats rs = { 0 };
    memset(st, 0, sizeof st);
    int64_t njob = 0, skipped = 0, wrong = 0;
    job_head h;
    for (int64_t k = 0;; k++) {
        const int got = next_job(f, path, k, buf, cb, &h, parent, child);
        if (got < 0) return 1;
        if (!got) break;
        if (k % stride) continue;
        njob++;
        if (h.fate == FATE_REPEAT) {
            st[h.fate].jobs++;
            continue;
        }
        sim_metrics m;
        if (!side) {
            delta_probe_child(d, child, h.cutoff, &m);
        } else {
            if (delta_probe_record(d, parent, &rs) < 0) skipped++;
                delta_probe_job(d, parent, child, h.cutoff, h.fate == FATE_BETTER || h.fate == FATE_EQUAL,
                            &st[h.fate], &m);
        }
        /* The run here is the GA's: the same duration (a cut one's is cutoff + 1). */
        wrong += m.duration != h.duration;
    }
    printf("jobs %lld (every %d-th of %s), parents unfinished %lld, runs unlike the GA's %lld\n", (long long)njob,
           stride, path, (long long)skipped, (long long)wrong);
    if (!side) goto out;
    print_probe(st, &rs, K);
out:
    fclose(f);
    free(buf);
    sim_config_free(parent);
    sim_config_free(child);
    delta_probe_free(d);
    traffic_free(t);
    return 0;
}

/* measure --cone: every S-th job's parent recorded (delta_cone_record) and
 * its child stepped on the cone (delta_cone_job), checked against the whole
 * child; instructions from callgrind's inclusive counts of delta_cone_step,
 * delta_cone_edge, delta_cone_join, delta_cone_release and
 * delta_cone_rec_cycle against closedloop_run's (the GA's run of each
 * child, lean). */
/* ---- measure --product: the delta runs of sim/delta_run.h ---- */

/* Router state of two snapshot entries alike (the flits a FIFO holds, the
 * requests of waiting headers, the rest whole; stale slots not compared)? */
static int snap_same(const rsnap *a, const rsnap *b)
{
    if (a->reqm != b->reqm || a->dfull != b->dfull || a->head != b->head || a->count != b->count ||
        a->seq != b->seq || a->vc != b->vc || a->last_vc != b->last_vc || a->room != b->room ||
        memcmp(a->lflits, b->lflits, sizeof a->lflits) || memcmp(a->cnt, b->cnt, DNF) ||
        memcmp(a->route, b->route, DNF) || memcmp(a->holder, b->holder, DNF) || memcmp(a->qsi, b->qsi, DNF) ||
        memcmp(a->pstate, b->pstate, NPORTS))
        return 0;
    for (int f = 0; f < DNF; f++) {
        if (memcmp(a->buf + f * DB, b->buf + f * DB, sizeof *a->buf * a->cnt[f])) return 0;
        if ((a->reqm >> f & 1) && (a->req_d[f] != b->req_d[f] || a->req_c[f] != b->req_c[f])) return 0;
    }
    return 1;
}

/* Each list's grants, in order, and their cycles (when both are given), alike
 * in both records?
 * (The order across lists is not a record's: see sim/delta_rec.c.) */
static int grants_same(const sim_decisions *a, const int32_t *ca, const sim_decisions *b, const int32_t *cb)
{
    if (a->ngrant != b->ngrant) return 0;
    const size_t lists = (size_t)a->nodes * NPORTS * (size_t)a->V;
    size_t *pos = calloc(lists, sizeof *pos);
    size_t *start = calloc(lists + 1, sizeof *start);
    uint64_t *x = malloc(sizeof *x * a->ngrant), *y = malloc(sizeof *y * b->ngrant);
    int same = pos && start && x && y;
    for (size_t g = 0; same && g < a->ngrant; g++) start[(a->grant[g] >> 8) + 1]++;
    for (size_t l = 0; same && l < lists; l++) start[l + 1] += start[l];
    for (size_t g = 0; same && g < a->ngrant; g++) {
        const size_t l = a->grant[g] >> 8;
        x[start[l] + pos[l]++] = (uint64_t)a->grant[g] << 32 | (uint32_t)(ca ? ca[g] : 0);
    }
    memset(pos, 0, sizeof *pos * lists);
    for (size_t g = 0; same && g < b->ngrant; g++) {
        const size_t l = b->grant[g] >> 8;
        if (start[l] + pos[l] >= start[l + 1]) same = 0;
        else y[start[l] + pos[l]++] = (uint64_t)b->grant[g] << 32 | (uint32_t)(cb ? cb[g] : 0);
    }
    if (same) same = !memcmp(x, y, sizeof *x * a->ngrant);
    free(pos); free(start); free(x); free(y);
    return same;
}

/* The patched record r (and decisions d) against q (and e), a fresh one of
 * the same child: 0 alike, else a bit per kind of difference. */
static int rec_diff(const delta_rec *r, const sim_decisions *d, const delta_rec *q, const sim_decisions *e)
{
    if (r->T != q->T) return 1;
    const size_t N = (size_t)r->nodes, T = (size_t)r->T, W = (size_t)r->W, npk = N * (size_t)r->S;
    int bad = 0;
    if (memcmp(r->rl, q->rl, sizeof *r->rl * T * N * 4)) bad |= 2;
    if (memcmp(r->rf, q->rf, sizeof *r->rf * T * N)) bad |= 4;
    if (memcmp(r->pact, q->pact, sizeof *r->pact * T * W)) bad |= 8;
    for (size_t k = 0; k * DK < T; k++)
        for (size_t i = 0; i < N; i++)
            if (!snap_same(&r->snap[k * N + i], &q->snap[k * N + i])) {
                if (!(bad & 16) && getenv("DELTA_DEBUG")) {
                    const rsnap *a = &r->snap[k * N + i], *b = &q->snap[k * N + i];
                    fprintf(stderr, "  snapshot %zu router %zu: reqm %llx/%llx dfull %llx/%llx src %d,%d,%d/%d,%d,%d room %d/%d lfl %d/%d cnt %d\n", k, i,
                            (unsigned long long)a->reqm, (unsigned long long)b->reqm, (unsigned long long)a->dfull, (unsigned long long)b->dfull,
                            a->head, a->count, a->seq, b->head, b->count, b->seq, a->room, b->room,
                            a->lflits[0] + a->lflits[1] + a->lflits[2] + a->lflits[3], b->lflits[0] + b->lflits[1] + b->lflits[2] + b->lflits[3], memcmp(a->cnt, b->cnt, DNF));
                }
                bad |= 16;
            }
    if (memcmp(r->tails, q->tails, sizeof *r->tails * npk) || memcmp(r->ej, q->ej, sizeof *r->ej * npk) ||
        memcmp(r->ej_off, q->ej_off, sizeof *r->ej_off * (T + 1)))
        bad |= 32;
    if (memcmp(r->pairs, q->pairs, sizeof *r->pairs * N * NPORTS) || memcmp(d->pairs, e->pairs, sizeof *d->pairs * N * NPORTS))
        bad |= 64;
    for (size_t port = 0; port < N * NPORTS; port++)
        for (int b = 0; b < DPB; b++)
            if ((r->pairs[port] >> b & 1) && r->pfirst[port * DPB + (size_t)b] != q->pfirst[port * DPB + (size_t)b]) bad |= 128;
    if (!grants_same(d, r->gcyc, e, q->gcyc)) bad |= 256;
    if (memcmp(d->entered, e->entered, sizeof *d->entered * npk) || memcmp(d->could, e->could, sizeof *d->could * npk))
        bad |= 512;
    if ((bad & 512) && getenv("DELTA_DEBUG"))
        for (size_t k = 0; k < npk; k++)
            if (d->entered[k] != e->entered[k] || d->could[k] != e->could[k]) {
                fprintf(stderr, "  packet %zu (node %zu slice %zu): entered %d/%d could %d/%d\n", k, k / (size_t)r->S,
                        k % (size_t)r->S, d->entered[k], e->entered[k], d->could[k], e->could[k]);
                break;
            }
    return bad;
}

/* Decisions a and b alike as sim_decisions_repeat reads them (each list's
 * grants in order, the pairs, the injections)? */
static int decisions_same(const sim_decisions *a, const sim_decisions *b)
{
    const size_t N = (size_t)a->nodes, npk = N * (size_t)a->S;
    return sim_decisions_known(a) == sim_decisions_known(b) && grants_same(a, NULL, b, NULL) &&
           !memcmp(a->pairs, b->pairs, sizeof *a->pairs * N * NPORTS) &&
           !memcmp(a->entered, b->entered, sizeof *a->entered * npk) && !memcmp(a->could, b->could, sizeof *a->could * npk);
}

/* The metrics a cone run must match (SIM_CUTOFF: the ones delta_run.h says). */
static int metrics_same(const sim_metrics *a, const sim_metrics *b)
{
    if (a->status != b->status || a->duration != b->duration || a->cycles != b->cycles || a->late != b->late ||
        a->late_sum != b->late_sum || a->tail_profile != b->tail_profile || a->packets != b->packets ||
        a->idle_nodes != b->idle_nodes)
        return 0;
    if (a->status == SIM_CUTOFF) return a->stop_cycle == b->stop_cycle;
    return !memcmp(a, b, sizeof *a);
}

/* What measure --product keeps: the engines, records and scratch of one job
 * set, and its counts. */
typedef struct {
    delta_engine *e;
    delta_rec *r, *q;             /* the parent's record (then patched), a child's fresh one */
    delta_patch *pt;
    sim_decisions *d, *dq, *dc;   /* the parent's decisions, a full run's, the delta child's */
    closedloop *cl;               /* the full runs */
    int64_t *ta, *tb, npk;
    int64_t jobs, parents_bad, oncone, declined, inexact, accepted, rec_bad, kinds, whole, whole_bad;
    double sec_delta, sec_full;
    double cls_sec[4];            /* by class: cone finished, cone cut, whole V changed, whole V kept */
    int64_t cls_n[4];
} product;

static void product_free(product *x)
{
    free(x->ta); free(x->tb);
    closedloop_free(x->cl);
    sim_decisions_free(x->d); sim_decisions_free(x->dq); sim_decisions_free(x->dc);
    delta_patch_free(x->pt); delta_rec_free(x->r); delta_rec_free(x->q);
    delta_engine_free(x->e);
}

static int product_new(product *x, const sim_params *sp, const int32_t *dest)
{
    memset(x, 0, sizeof *x);
    x->npk = (int64_t)sim_nodes(sp) * sp->slices;
    x->e = delta_engine_new(sp, dest);
    x->r = delta_rec_new(sp), x->q = delta_rec_new(sp);
    x->pt = delta_patch_new(sp);
    x->d = sim_decisions_new(sp), x->dq = sim_decisions_new(sp), x->dc = sim_decisions_new(sp);
    x->cl = closedloop_new(sp, dest, 0);
    x->ta = malloc(sizeof *x->ta * (size_t)x->npk), x->tb = malloc(sizeof *x->tb * (size_t)x->npk);
    return x->e && x->r && x->q && x->pt && x->d && x->dq && x->dc && x->cl && x->ta && x->tb ? 0 : -1;
}

/* An accepted child's patched record against its own fresh one. */
static void check_accept(product *x, int64_t k, const sim_config *child)
{
    x->accepted++;
    sim_metrics mq;
    if (!delta_run_parent(x->e, child, x->dq, x->q, &mq, NULL) || !delta_rec_valid(x->q)) {
        x->rec_bad++;
        return;
    }
    const int bad = rec_diff(x->r, x->d, x->q, x->dq);
    if (!bad) return;
    x->rec_bad++;
    x->kinds |= bad;
    if (x->rec_bad <= 5) fprintf(stderr, "job %lld: patched record unlike the child's own (kinds %#x)\n", (long long)k, bad);
}

/* One job: its parent recorded, its child run both ways and compared, an
 * accepted child's record checked. */
static void product_job(product *x, int64_t k, const job_head *h, const sim_config *parent, const sim_config *child)
{
    const size_t tb = sizeof *x->ta * (size_t)x->npk;
    sim_metrics mp, mf, md;
    x->jobs++;
    if (!delta_run_parent(x->e, parent, x->d, x->r, &mp, x->ta) || !delta_rec_valid(x->r)) {
        x->parents_bad++;
        return;
    }
    closedloop_run(x->cl, parent, INT64_MAX, NULL, CL_LEAN, &mf);
    if (!metrics_same(&mp, &mf)) x->parents_bad++;
    double t0 = now();
    const int ran = delta_run_child(x->e, parent, x->r, x->d, child, h->cutoff, x->dc, x->pt, &md, x->ta);
    const double dt = now() - t0;
    x->sec_delta += dt;
    const int cls = delta_patch_on_cone(x->pt) ? (md.status == SIM_OK ? 0 : 1) : (parent->interval != child->interval ? 2 : 3);
    x->cls_sec[cls] += ran ? dt : 0;
    x->cls_n[cls] += ran;
    t0 = now();
    closedloop_run(x->cl, child, h->cutoff, x->dq, CL_LEAN, &mf);
    x->sec_full += now() - t0;
    if (!ran) {
        x->declined++;
        return;
    }
    closedloop_tail_cycles(x->cl, x->tb);
    if (!delta_patch_on_cone(x->pt)) { /* went on to the whole network: everything as the full run's */
        x->whole++;
        x->whole_bad += memcmp(&md, &mf, sizeof md) ||
                        (mf.status == SIM_OK && (memcmp(x->ta, x->tb, tb) || !decisions_same(x->dc, x->dq)));
        return;
    }
    x->oncone++;
    if (!metrics_same(&md, &mf) || (mf.status == SIM_OK && memcmp(x->ta, x->tb, tb))) {
        if (++x->inexact <= 5)
            fprintf(stderr, "job %lld: inexact (status %d/%d duration %lld/%lld cycles %lld/%lld stop %lld/%lld)\n",
                    (long long)k, md.status, mf.status, (long long)md.duration, (long long)mf.duration,
                    (long long)md.cycles, (long long)mf.cycles, (long long)md.stop_cycle, (long long)mf.stop_cycle);
        return;
    }
    if (md.status == SIM_OK && delta_accept(x->r, x->d, x->pt)) check_accept(x, k, child);
}

static int cmd_product(const char *path, int stride, int timing)
{
    sim_params sp;
    ga_params gp;
    setup(&sp, &gp, 1);
    traffic *t = brev(sp.n);
    size_t cb = 0;
    FILE *f = t ? open_jobs(path, &sp, &cb) : NULL;
    if (!f) return 1;
    const int nodes = sim_nodes(&sp);
    product x;
    sim_config *parent = sim_config_new(nodes, sp.vcs, 0, 0), *child = sim_config_new(nodes, sp.vcs, 0, 0);
    uint8_t *buf = malloc(cb);
    if (product_new(&x, &sp, t->dest) || !parent || !child || !buf) {
        fprintf(stderr, "delta_ceiling: out of memory\n");
        return 1;
    }
    job_head h;
    for (int64_t k = 0;; k++) {
        const int got = next_job(f, path, k, buf, cb, &h, parent, child);
        if (got < 0) return 1;
        if (!got) break;
        if (k % stride == 0 && h.fate != FATE_REPEAT) product_job(&x, k, &h, parent, child);
    }
    printf("jobs %lld (every %d-th of %s, proven repeats left out): parents unlike %lld; children on their cone %lld, "
           "declined %lld, inexact %lld; accepted %lld, patched records unlike %lld (kinds %#llx); "
           "on to the whole network %lld, unlike %lld\n",
           (long long)x.jobs, stride, path, (long long)x.parents_bad, (long long)x.oncone, (long long)x.declined,
           (long long)x.inexact, (long long)x.accepted, (long long)x.rec_bad, (long long)x.kinds, (long long)x.whole,
           (long long)x.whole_bad);
    if (timing) {
        printf("wall: delta children %.3f s, the same children in full %.3f s\n", x.sec_delta, x.sec_full);
        static const char *const cls[4] = { "on the cone, finished", "on the cone, cut", "whole network, V changed",
                                            "whole network, V kept" };
        for (int c = 0; c < 4; c++)
            printf("  %-26s %5lld children, %.3f s (%.1f us each)\n", cls[c], (long long)x.cls_n[c], x.cls_sec[c],
                   x.cls_n[c] ? 1e6 * x.cls_sec[c] / (double)x.cls_n[c] : 0.0);
    }
    fclose(f);
    free(buf);
    sim_config_free(parent);
    sim_config_free(child);
    product_free(&x);
    traffic_free(t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "record")) {
        int every = 25;
        int64_t evals = 0;
        uint64_t seed = 1;
        for (int k = 3; k + 1 < argc; k += 2) {
            if (!strcmp(argv[k], "--every")) every = atoi(argv[k + 1]);
            else if (!strcmp(argv[k], "--evals")) evals = atoll(argv[k + 1]);
            else if (!strcmp(argv[k], "--seed")) seed = strtoull(argv[k + 1], NULL, 10);
            else goto usage;
        }
        if (every < 1) goto usage;
        return cmd_record(argv[2], every, evals, seed);
    }
    if (argc >= 3 && !strcmp(argv[1], "measure")) {
        int stride = 1, K = 64, side = 1, product = 0;
        for (int k = 3; k < argc; k++) {
            if (!strcmp(argv[k], "--product")) product = 1;
            else if (!strcmp(argv[k], "--product-time")) product = 2;
            else if (!strcmp(argv[k], "--stride") && k + 1 < argc) stride = atoi(argv[++k]);
            else if (!strcmp(argv[k], "--snap") && k + 1 < argc) K = atoi(argv[++k]);
            else if (!strcmp(argv[k], "--no-side")) side = 0;
            else goto usage;
        }
        if (stride < 1 || K < 1) goto usage;
        if (product) return cmd_product(argv[2], stride, product == 2);
        return cmd_measure(argv[2], stride, K, side);
    }
usage:
    fprintf(stderr, "usage: delta_ceiling record FILE [--every K] [--evals N] [--seed X]\n"
                    "       delta_ceiling measure FILE [--stride S] [--snap K] [--no-side | --product | --product-time]\n");
    return 2;
}
