/* The exactness check of issue 38's delta runs (sim/delta_run.h), shared by
 * the Check test tests/test_delta.c and the fuzz target
 * tests/fuzz/fuzz_delta.c, which differ only in where their choices come
 * from (a seeded generator, the fuzz input) and in how a difference is
 * reported (ck_assert, abort).
 *
 * The oracle is the full run: sim_run_lean on a sim of the same params
 * (the fast engine, as the GA runs it) with sim_tail_cycles.  A lineage is
 * walked as the GA walks it: a parent recorded by delta_run_parent, children
 * made by the GA's kind of local move and run by delta_run_child with the
 * GA's cutoff (the parent's duration) or another, and a child that ends
 * within the cutoff no worse than its parent accepted by delta_accept, after
 * which the patched record and the parent's decisions stand for the child
 * (or, when the accept says no, the child is recorded anew by
 * delta_run_parent, as the GA would).  Checked at each step:
 *  - parent: every sim_metrics field and tail cycle equal to the full run's,
 *    the record valid exactly when the run ended SIM_OK with known
 *    decisions, and the decisions giving the same sim_decisions_repeat
 *    verdicts as a full recording's on random children;
 *  - child on its cone (delta_run_child returned 1): every sim_metrics field
 *    equal to the full run's with the same cutoff, and after SIM_OK every
 *    tail cycle; of a cut run (SIM_CUTOFF) too, but that flits_injected,
 *    flits_ejected and max_link_flits are 0, as sim/delta_run.h says; a
 *    child of an invalid record is not run;
 *  - accept: 1 exactly when the child ran on its cone and ended SIM_OK; then
 *    the record is valid and the decisions give the verdicts of the child's
 *    own full recording on random grandchildren, and the children that
 *    follow in the lineage check the patched record; on 0 the record is
 *    invalid.
 * Fields the delta run leaves unwritten cannot pass for equal: its metrics
 * and tails are filled with a pattern before each call.
 *
 * Everything here is static inline (two test programs include it, each
 * using what it needs); functions that check return NULL when all is equal,
 * else a message in h->msg naming the case, the step and what differs. */
#ifndef NOCSIM_TESTS_DELTA_HARNESS_H
#define NOCSIM_TESTS_DELTA_HARNESS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/operators.h"
#include "sim/decisions.h"
#include "sim/delta_run.h"
#include "sim/sim.h"

/* Where choices come from: take(ctx, range) gives a value in [0, range). */
typedef struct {
    unsigned (*take)(void *ctx, unsigned range);
    void *ctx;
} dh_draw;

static inline unsigned dh_take(const dh_draw *d, unsigned range) { return range ? d->take(d->ctx, range) % range : 0; }

/* Every sim_metrics field, in the order of sim.h. */
#define DH_METRICS(X)                                                                                                 \
    X(status) X(duration) X(te) X(ir) X(or_) X(ib) X(ob) X(lb) X(flits_injected) X(flits_ejected) X(packets)      \
    X(idle_nodes) X(cycles) X(max_link_flits) X(late) X(late_sum) X(tail_profile) X(stop_cycle)

/* Grandchildren asked about after each recording or accept. */
#define DH_VERDICTS 24

typedef struct {
    sim_params p;
    int nodes, npk;          /* nodes, packets (nodes x slices) */
    uint16_t imax;           /* the injection timings' range, as the GA's */
    const char *what;        /* the case, for messages */
    sim *s;                  /* the oracle */
    delta_engine *e[2];      /* two threads' engines: a record is any engine's to read */
    delta_rec *rec;
    delta_patch *pt;
    sim_decisions *dpar;     /* the record's decisions (its parent's) */
    sim_decisions *dfull;    /* a full recording */
    sim_decisions *dchild;   /* the child's, from a run that went on to the whole network */
    ga_effective *eff;       /* the genes a move may touch */
    sim_config *par, *child, *g;
    sim_metrics pm, cm;      /* the parent's and the last child's full runs */
    int64_t *ptails, *ctails, *tails; /* the same, and the delta run's */
    int on;                  /* the last child ran (delta_run_child returned 1) */
    int oncone;              /*   on its cone to the end (else on to the whole network) */
    /* Counts, for the coverage assertions and the random driver's line. */
    /* ga_case: children with their parent's interval and its duration for a cutoff, the GA's usual child */
    long parents, children, cone, whole, ga_case, ga_case_cone, cut, cone_cut, accepts, accepted, verdicts, proven;
    int chain, longest;      /* accepts that patched the record since the last delta_run_parent; the most */
    long step;               /* children so far, to name one in messages */
    char msg[640];
} dh;

static inline const char *dh_fail(dh *h, const char *fmt, ...)
{
    int n = snprintf(h->msg, sizeof h->msg, "%s, step %ld: ", h->what, h->step);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof h->msg) vsnprintf(h->msg + n, sizeof h->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return h->msg;
}

/* The first field of sim_metrics where a (the delta run) and b (what the
 * full run says it must be) differ, as a message; NULL when all are equal. */
static inline const char *dh_same_metrics(dh *h, const sim_metrics *a, const sim_metrics *b, const char *step)
{
#define DH_SAME(f)                                                                                                    \
    if (a->f != b->f)                                                                                                 \
        return dh_fail(h, "%s: " #f " delta %lld, expected %lld (from the full run, status %d)", step,             \
                       (long long)a->f, (long long)b->f, (int)b->status);
    DH_METRICS(DH_SAME)
#undef DH_SAME
    return NULL;
}

static inline const char *dh_same_tails(dh *h, const int64_t *a, const int64_t *b, const char *step)
{
    for (int k = 0; k < h->npk; k++)
        if (a[k] != b[k])
            return dh_fail(h, "%s: tail cycle of source %d slice %d delta %lld, full run %lld", step, k / h->p.slices,
                           k % h->p.slices, (long long)a[k], (long long)b[k]);
    return NULL;
}

/* Before a delta call: what it leaves unwritten will not match. */
static inline void dh_scribble(dh *h, sim_metrics *m)
{
    memset(m, 0x5a, sizeof *m);
    for (int k = 0; k < h->npk; k++) h->tails[k] = INT64_MIN;
}

/* One move on c by the GA's own operators (ga/operators.h), on the genes
 * that can matter: a sender's injection timing, a port's scheme or a queue
 * order (ga_mutate_local_mix, one group), a row's or column's timings
 * together (ga_shift_line), a late packet's source made earlier
 * (ga_advance_late, from the parent's tails) and, when allow_v, the
 * interval.  The choices come from d, the operator's randomness from a
 * generator seeded from d. */
static inline void dh_move(dh *h, sim_config *c, const dh_draw *d, int allow_v)
{
    const ga_space sp = { .genes = GENE_ALL, .vmin = (uint32_t)h->p.flits, .vmax = 6u * (uint32_t)h->p.flits,
                          .imax = h->imax };
    const unsigned kind = dh_take(d, allow_v ? 7 : 6);
    rng r;
    rng_seed(&r, dh_take(d, 1u << 30));
    if (kind == 4) {
        ga_shift_line(c, &sp, h->eff, &r);
    } else if (kind != 5 || !ga_advance_late(c, &sp, h->ptails, h->npk, h->p.slices, 2 * h->p.flits, &r)) {
        /* groups V, I, C, Q: kinds 0 and 1 (and 5 with no late packet) I, 2 C, 3 Q, 6 V; a group without
         * effective genes leaves the move to the others */
        double mix[4] = { kind == 6, kind <= 1 || kind == 5, kind == 2, kind == 3 };
        if (!ga_mutate_local_mix(c, &sp, h->eff, 1, mix, &r)) {
            const double any[4] = { 0, 1, 1, 1 };
            (void)ga_mutate_local_mix(c, &sp, h->eff, 1, any, &r);
        }
    }
}

/* A child of `from` into c: one to three moves, the interval now and then. */
static inline void dh_mutate(dh *h, sim_config *c, const sim_config *from, const dh_draw *d)
{
    sim_config_copy(c, from);
    int allow_v = dh_take(d, 4) == 0, k = 1 + (int)dh_take(d, 3);
    for (int j = 0; j < k; j++) dh_move(h, c, d, allow_v);
}

/* A parent as the GA starts one (simple stacking: one scheme everywhere,
 * I = 0, an interval from l_c up) moved `moves` times, like a parent some
 * generations on. */
static inline void dh_start(dh *h, sim_config *c, const dh_draw *d, int moves)
{
    memset(c->scheme, (int)dh_take(d, VCSEL_NSCHEMES), (size_t)c->nodes * NPORTS);
    memset(c->inject, 0, sizeof *c->inject * (size_t)c->nodes);
    for (size_t k = 0; k < (size_t)c->nodes * NPORTS * (size_t)c->vcs; k++)
        for (int j = 0; j < NPORTS; j++) c->qorder[k * NPORTS + (size_t)j] = (uint8_t)j;
    c->interval = (uint32_t)h->p.flits + dh_take(d, 2u * (unsigned)h->p.flits + 1);
    for (int j = 0; j < moves; j++) dh_move(h, c, d, 0);
}

/* The params p (checked, delta_supports) and traffic dest of the case
 * `what`.  Returns 0, or -1 with a message in h->msg. */
static inline int dh_open(dh *h, const sim_params *p, const int32_t *dest, const char *what)
{
    memset(h, 0, sizeof *h);
    h->p = *p;
    h->what = what;
    h->nodes = sim_nodes(p);
    h->npk = h->nodes * p->slices;
    h->imax = (uint16_t)(4 * p->flits);
    char err[256] = "out of memory";
    h->s = sim_new(p, dest, NULL, err, sizeof err);
    h->e[0] = delta_engine_new(p, dest);
    h->e[1] = delta_engine_new(p, dest);
    h->rec = delta_rec_new(p);
    h->pt = delta_patch_new(p);
    h->dpar = sim_decisions_new(p);
    h->dfull = sim_decisions_new(p);
    h->dchild = sim_decisions_new(p);
    h->eff = ga_effective_new(p, dest);
    h->par = sim_config_new(h->nodes, p->vcs, 0, (uint32_t)p->flits);
    h->child = sim_config_new(h->nodes, p->vcs, 0, (uint32_t)p->flits);
    h->g = sim_config_new(h->nodes, p->vcs, 0, (uint32_t)p->flits);
    h->ptails = malloc(sizeof *h->ptails * (size_t)h->npk);
    h->ctails = malloc(sizeof *h->ctails * (size_t)h->npk);
    h->tails = malloc(sizeof *h->tails * (size_t)h->npk);
    if (!h->s || !h->e[0] || !h->e[1] || !h->rec || !h->pt || !h->dpar || !h->dfull || !h->dchild || !h->eff || !h->par || !h->child || !h->g ||
        !h->ptails || !h->ctails || !h->tails) {
        dh_fail(h, "setting up: %s", err);
        return -1;
    }
    for (int k = 0; k < h->npk; k++) h->ptails[k] = -1; /* no parent yet: no late packet for a move to advance */
    return 0;
}

static inline void dh_close(dh *h)
{
    sim_free(h->s);
    delta_engine_free(h->e[0]);
    delta_engine_free(h->e[1]);
    delta_rec_free(h->rec);
    delta_patch_free(h->pt);
    sim_decisions_free(h->dpar);
    sim_decisions_free(h->dfull);
    sim_decisions_free(h->dchild);
    ga_effective_free(h->eff);
    sim_config_free(h->par);
    sim_config_free(h->child);
    sim_config_free(h->g);
    free(h->ptails);
    free(h->ctails);
    free(h->tails);
}

/* The record's decisions against the full recording h->dfull, both of
 * base's run: known alike, and the same verdict on base itself and on
 * DH_VERDICTS random children of it. */
static inline const char *dh_verdicts_of(dh *h, const sim_decisions *dec, const sim_config *base, const dh_draw *d,
                                         const char *step)
{
    if (sim_decisions_known(dec) != sim_decisions_known(h->dfull))
        return dh_fail(h, "%s: decisions known %d, full recording's %d", step, sim_decisions_known(dec),
                       sim_decisions_known(h->dfull));
    for (int k = 0; k <= DH_VERDICTS; k++) {
        if (k) dh_mutate(h, h->g, base, d);
        else sim_config_copy(h->g, base);
        int a = sim_decisions_repeat(dec, base, h->g), b = sim_decisions_repeat(h->dfull, base, h->g);
        h->verdicts++;
        h->proven += b;
        if (a != b) return dh_fail(h, "%s: repeat verdict on grandchild %d: %d, full recording's %d", step, k, a, b);
    }
    return NULL;
}

static inline const char *dh_verdicts(dh *h, const sim_config *base, const dh_draw *d, const char *step)
{
    return dh_verdicts_of(h, h->dpar, base, d, step);
}

/* c becomes the parent: recorded by delta_run_parent and checked. */
static inline const char *dh_parent(dh *h, const sim_config *c, const dh_draw *d)
{
    const char *bad;
    sim_metrics m;
    h->parents++;
    h->chain = 0;
    sim_run_lean(h->s, c, INT64_MAX, h->dfull, &h->pm);
    if (h->pm.status == SIM_OK) sim_tail_cycles(h->s, h->ptails);
    dh_scribble(h, &m);
    int ran = delta_run_parent(h->e[dh_take(d, 2)], c, h->dpar, h->rec, &m, h->tails);
    if (!ran) {
        if (h->pm.status == SIM_OK) return dh_fail(h, "parent: delta_run_parent returned 0 on a run that ends SIM_OK");
        if (delta_rec_valid(h->rec)) return dh_fail(h, "parent: delta_run_parent returned 0, its record valid");
        return NULL;
    }
    if ((bad = dh_same_metrics(h, &m, &h->pm, "parent"))) return bad;
    if (h->pm.status == SIM_OK && (bad = dh_same_tails(h, h->tails, h->ptails, "parent"))) return bad;
    int valid = h->pm.status == SIM_OK && sim_decisions_known(h->dpar);
    if (delta_rec_valid(h->rec) != valid)
        return dh_fail(h, "parent: record valid %d, status %d decisions known %d", delta_rec_valid(h->rec),
                       (int)h->pm.status, sim_decisions_known(h->dpar));
    if (c != h->par) sim_config_copy(h->par, c); /* a parent recorded again is h->par itself */
    return dh_verdicts(h, c, d, "parent's decisions");
}

/* h->child against the parent's record with cutoff: the delta run, when it
 * runs on the cone, equals the full run (kept in h->cm, h->ctails).  Either
 * engine runs it, whichever wrote the record, and now and then without
 * tail cycles (tails NULL). */
static inline const char *dh_child(dh *h, int64_t cutoff, const dh_draw *d)
{
    sim_metrics m;
    h->step++;
    h->children++;
    sim_run_lean(h->s, h->child, cutoff, h->dfull, &h->cm);
    if (h->cm.status == SIM_OK) sim_tail_cycles(h->s, h->ctails);
    dh_scribble(h, &m);
    const int valid = delta_rec_valid(h->rec);
    const int engine = (int)dh_take(d, 2), no_tails = dh_take(d, 8) == 0;
    h->on = delta_run_child(h->e[engine], h->par, h->rec, h->dpar, h->child, cutoff, h->dchild, h->pt, &m,
                            no_tails ? NULL : h->tails);
    const int ga_case = h->child->interval == h->par->interval && cutoff == h->pm.duration;
    h->ga_case += ga_case;
    if (h->on != 0 && h->on != 1) return dh_fail(h, "child: delta_run_child returned %d", h->on);
    h->oncone = h->on && delta_patch_on_cone(h->pt);
    h->cone += h->oncone;
    h->whole += h->on && !h->oncone;
    h->ga_case_cone += h->oncone && ga_case;
    h->cut += h->cm.status == SIM_CUTOFF;
    h->cone_cut += h->oncone && h->cm.status == SIM_CUTOFF;
    if (!h->on) return NULL;
    if (!valid) return dh_fail(h, "child: ran on its cone against an invalid record");
    char step[96];
    snprintf(step, sizeof step, "child %s (cutoff %lld, parent's duration %lld)",
             h->oncone ? "on its cone" : "gone on to the whole network", (long long)cutoff,
             (long long)h->pm.duration);
    sim_metrics want = h->cm;
    if (h->oncone && want.status == SIM_CUTOFF) want.flits_injected = want.flits_ejected = want.max_link_flits = 0;
    const char *bad = dh_same_metrics(h, &m, &want, step);
    if (!bad && h->cm.status == SIM_OK && !no_tails) bad = dh_same_tails(h, h->tails, h->ctails, step);
    /* On to the whole network: the child's decisions are its own full run's. */
    if (!bad && !h->oncone && h->cm.status == SIM_OK)
        bad = dh_verdicts_of(h, h->dchild, h->child, d, "decisions of a child gone on to the whole network");
    return bad;
}

/* The last child takes its parent's place (delta_accept); on 0 it is
 * recorded anew, as the GA would. */
static inline const char *dh_accept(dh *h, const dh_draw *d)
{
    const int want = h->oncone && h->cm.status == SIM_OK;
    h->accepts++;
    const int got = delta_accept(h->rec, h->dpar, h->pt);
    if (got != want)
        return dh_fail(h, "accept: delta_accept returned %d after a child %s on its cone, status %d", got,
                       h->oncone ? "run" : "not run", (int)h->cm.status);
    if (!got) {
        if (delta_rec_valid(h->rec)) return dh_fail(h, "accept: delta_accept returned 0, the record still valid");
        return h->cm.status == SIM_OK ? dh_parent(h, h->child, d) : NULL;
    }
    h->accepted++;
    if (++h->chain > h->longest) h->longest = h->chain;
    if (!delta_rec_valid(h->rec)) return dh_fail(h, "accept: delta_accept returned 1, the record invalid");
    sim_metrics m;
    sim_run_lean(h->s, h->child, INT64_MAX, h->dfull, &m);
    sim_config_copy(h->par, h->child);
    h->pm = h->cm;
    memcpy(h->ptails, h->ctails, sizeof *h->ptails * (size_t)h->npk);
    return dh_verdicts(h, h->par, d, "accepted child's decisions");
}

/* A lineage from parent c: `children` children, each against the current
 * record; one that ends SIM_OK no worse than its parent is accepted.  The
 * cutoff is mostly the parent's duration (the GA's), now and then none or
 * one below it; now and then a cut child is offered to delta_accept, which
 * must refuse it, or the record is dropped (delta_rec_invalidate) before a
 * child, which must then not run on a cone; either way the parent is
 * recorded again. */
static inline const char *dh_lineage(dh *h, const sim_config *c, int children, const dh_draw *d)
{
    const char *bad = dh_parent(h, c, d);
    for (int k = 0; !bad && k < children && delta_rec_valid(h->rec); k++) {
        dh_mutate(h, h->child, h->par, d);
        unsigned mode = dh_take(d, 8);
        int64_t cutoff = mode == 5 ? INT64_MAX : h->pm.duration;
        if (mode >= 6) cutoff -= 1 + (int64_t)dh_take(d, (unsigned)h->p.flits);
        if (cutoff < 1) cutoff = 1;
        if (dh_take(d, 32) == 0) { /* the caller dropped the record: the child runs in full */
            delta_rec_invalidate(h->rec);
            if (!(bad = dh_child(h, cutoff, d))) bad = dh_parent(h, h->par, d);
            continue;
        }
        if ((bad = dh_child(h, cutoff, d))) break;
        if (h->cm.status == SIM_OK && h->cm.duration <= h->pm.duration) bad = dh_accept(h, d);
        else if (h->cm.status == SIM_CUTOFF && dh_take(d, 16) == 0 && !(bad = dh_accept(h, d)))
            bad = dh_parent(h, h->par, d);
    }
    return bad;
}

#endif
