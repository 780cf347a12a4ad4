/* A parent's record for delta runs (see delta_run.h): written by a full run
 * of the parent watched cycle by cycle (closedloop_run_observed), and
 * patched in place when a child whose cone run ended SIM_OK takes the
 * parent's place (delta_accept).
 *
 * Why the patch gives exactly the record the child's own full run would
 * write: a router outside the child's cone held the parent's state at every
 * cycle of the child's run (the cone's invariant, sim/delta_run.c), so its
 * links, dfull bits, activity, snapshots and decisions are the parent's; a
 * router in the cone was the parent's until the first cycle it stepped in
 * the cone (jt), and the child's from then on, which the patch logged.  So
 * each entry of the record is kept or overwritten by its router and cycle.
 * The decisions follow the same rule: a grant is its router's, kept when
 * made before that router's jt; a VC-selection pair is kept when its first
 * meeting came before jt; a packet's injection when its header entered
 * before its source's jt.  The grants' order changes (the cone's come
 * last), which sim_decisions_repeat does not read: it replays each list's
 * grants in order, and a list is one router's, whose kept grants all come
 * before its logged ones. */
#include "sim/delta_internal.h"

#include <stdlib.h>

#include "util/invariant.h"

/* ---- allocation ---- */

delta_rec *delta_rec_new(const sim_params *p)
{
    delta_rec *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->nodes = sim_nodes(p);
    r->S = p->slices;
    r->W = (r->nodes + 63) / 64;
    const size_t N = (size_t)r->nodes, npk = N * (size_t)r->S;
    r->tails = malloc(sizeof *r->tails * npk);
    r->ej = malloc(sizeof *r->ej * npk);
    r->pairs = calloc(N * NPORTS, sizeof *r->pairs);
    r->pfirst = malloc(sizeof *r->pfirst * N * NPORTS * DPB);
    if (!r->tails || !r->ej || !r->pairs || !r->pfirst) {
        delta_rec_free(r);
        return NULL;
    }
    r->bytes = sizeof *r + npk * (sizeof *r->tails + sizeof *r->ej) + N * NPORTS * (sizeof *r->pairs + DPB * sizeof *r->pfirst);
    return r;
}

void delta_rec_free(delta_rec *r)
{
    if (!r) return;
    free(r->rl);
    free(r->rf);
    free(r->pact);
    free(r->snap);
    free(r->ej_off);
    free(r->ej);
    free(r->tails);
    free(r->pairs);
    free(r->pfirst);
    free(r->gcyc);
    free(r);
}

int delta_rec_valid(const delta_rec *r) { return r->valid; }
void delta_rec_invalidate(delta_rec *r) { r->valid = 0; }
int delta_rec_recordable(const delta_rec *r) { return !r->over; }

size_t delta_rec_bytes(const delta_rec *r)
{
    const size_t N = (size_t)r->nodes, C = (size_t)r->cap;
    return r->bytes + (C ? C * N * (4 * sizeof *r->rl + sizeof *r->rf) + C * (size_t)r->W * sizeof *r->pact +
                           (C / DK + 1) * N * sizeof *r->snap + (C + 1) * sizeof *r->ej_off : 0) +
           r->gcap * sizeof *r->gcyc;
}

/* A record's bytes a cycle: the links' entries, the dfull bits, the
 * activity, a DK-th of a snapshot, the ejections' offset. */
static size_t cycle_bytes(const delta_rec *r)
{
    const size_t N = (size_t)r->nodes;
    return N * (4 * sizeof *r->rl + sizeof *r->rf + sizeof *r->snap / DK) + (size_t)r->W * sizeof *r->pact +
           sizeof *r->ej_off;
}

/* The record given up for good (too large): its cycles' arrays freed. */
static void give_up(delta_rec *r)
{
    free(r->rl);
    free(r->rf);
    free(r->pact);
    free(r->snap);
    free(r->ej_off);
    r->rl = NULL, r->rf = NULL, r->pact = NULL, r->snap = NULL, r->ej_off = NULL;
    r->cap = 0;
    r->over = 1;
}

/* Room for cycles 0 .. t.  Returns 0, or -1 when memory runs out (the record
 * is left as it was, its arrays still its own) or the record would pass
 * DELTA_REC_BUDGET (then it is given up: r->over). */
static int grow_cycles(delta_rec *r, int64_t t)
{
    if (t < r->cap) return 0;
    int64_t cap = r->cap ? r->cap : 256;
    while (cap <= t) cap *= 2;
    if ((size_t)cap * cycle_bytes(r) > DELTA_REC_BUDGET) {
        if ((size_t)(t + 1) * cycle_bytes(r) > DELTA_REC_BUDGET) {
            give_up(r);
            return -1;
        }
        cap = (int64_t)(DELTA_REC_BUDGET / cycle_bytes(r));
    }
    const size_t N = (size_t)r->nodes, C = (size_t)cap;
    uint32_t *rl = realloc(r->rl, sizeof *rl * C * N * 4);
    if (!rl) return -1;
    r->rl = rl;
    uint16_t *rf = realloc(r->rf, sizeof *rf * C * N);
    if (!rf) return -1;
    r->rf = rf;
    uint64_t *pact = realloc(r->pact, sizeof *pact * C * (size_t)r->W);
    if (!pact) return -1;
    r->pact = pact;
    rsnap *snap = realloc(r->snap, sizeof *snap * (C / DK + 1) * N);
    if (!snap) return -1;
    r->snap = snap;
    int32_t *ej_off = realloc(r->ej_off, sizeof *ej_off * (C + 1));
    if (!ej_off) return -1;
    r->ej_off = ej_off;
    r->cap = cap;
    return 0;
}

/* ---- a parent's run, watched ---- */

/* Cycle t's state at its start, into the record: the idle cycles jumped over
 * since the last one stepped (nothing moved, dfull as it was), the snapshots
 * due up to t (the state was the same through the jump), and the routers
 * active now. */
static void watch_before(void *ctx, const olnet *n, int64_t t)
{
    delta_engine *e = ctx;
    delta_rec *r = e->wr;
    if (e->wfail || grow_cycles(r, t)) {
        e->wfail = 1;
        return;
    }
    const size_t N = (size_t)r->nodes, W = (size_t)r->W;
    for (int64_t c = e->last_t + 1; c < t; c++) {
        memset(r->rl + (size_t)c * N * 4, 0, sizeof *r->rl * N * 4);
        for (size_t i = 0; i < N; i++) r->rf[(size_t)c * N + i] = (uint16_t)n->dfull[i];
        memset(r->pact + (size_t)c * W, 0, sizeof *r->pact * W);
    }
    for (int64_t k = (e->last_t + DK) / DK; k * DK <= t; k++) /* those after the last cycle stepped */
        for (size_t i = 0; i < N; i++) snap_save(n, (int)i, e->wd->room[i], &r->snap[(size_t)k * N + i]);
    uint64_t *pa = r->pact + (size_t)t * W;
    memset(pa, 0, sizeof *pa * W);
    for (size_t i = 0; i < N; i++) pa[i / 64] |= (uint64_t)dl_active(n, (int)i, t) << (i % 64);
}

/* Cycle t stepped: its links, dfull bits, and when its grants and new
 * VC-selection pairs were met. */
static void watch_after(void *ctx, const olnet *n, int64_t t, int nmv)
{
    delta_engine *e = ctx;
    delta_rec *r = e->wr;
    if (e->wfail) return;
    const size_t N = (size_t)r->nodes;
    uint32_t *rl = r->rl + (size_t)t * N * 4;
    memset(rl, 0, sizeof *rl * N * 4);
    for (int k = 0; k < nmv; k++) {
        const olfmove *m = &n->fmv[k];
        if (m->to >= 0) rl[m->node * 4 + n->lport[m->lo]] = entry_of(m->x, n->lvc[m->lo]);
    }
    for (size_t i = 0; i < N; i++) r->rf[(size_t)t * N + i] = (uint16_t)n->dfull[i];
    const sim_decisions *d = e->wd;
    for (size_t g = e->last_ng; g < d->ngrant; g++) r->gcyc[g] = (int32_t)t;
    e->last_ng = d->ngrant;
    for (size_t port = 0; port < N * NPORTS; port++) {
        const uint64_t fresh = d->pairs[port] & ~e->ppairs[port];
        for (uint64_t b = fresh; b; b &= b - 1) r->pfirst[port * DPB + (size_t)__builtin_ctzll(b)] = (int32_t)t;
        e->ppairs[port] = d->pairs[port];
    }
    e->last_t = t;
}

/* The packets by their tail cycle (a counting sort), from r->tails. */
static void index_ejections(delta_rec *r)
{
    const int64_t npk = (int64_t)r->nodes * r->S, T = r->T;
    memset(r->ej_off, 0, sizeof *r->ej_off * (size_t)(T + 1));
    for (int64_t k = 0; k < npk; k++)
        if (r->tails[k] >= 0) r->ej_off[r->tails[k] + 1]++;
    for (int64_t t = 0; t < T; t++) r->ej_off[t + 1] += r->ej_off[t];
    for (int64_t k = 0; k < npk; k++) {
        const int64_t t = r->tails[k];
        if (t < 0) continue;
        r->ej[r->ej_off[t]++] = (int32_t)k;
    }
    for (int64_t t = T; t > 0; t--) r->ej_off[t] = r->ej_off[t - 1];
    r->ej_off[0] = 0;
}

int delta_run_parent(delta_engine *e, const sim_config *c, sim_decisions *d, delta_rec *r, sim_metrics *m,
                     int64_t *tails)
{
    r->valid = 0;
    r->gen++;
    const int watch = d && d->cap && d->pairs && e->v.net->simd && !r->over;
    if (watch && r->gcap < d->cap) {
        int32_t *g = realloc(r->gcyc, sizeof *g * d->cap);
        if (!g) return 0;
        r->gcyc = g;
        r->gcap = d->cap;
    }
    e->wr = r;
    e->wd = d;
    e->last_t = -1;
    e->last_ng = 0;
    e->wfail = !watch;
    if (watch) memset(e->ppairs, 0, sizeof *e->ppairs * (size_t)e->nodes * NPORTS);
    const closedloop_observer ob = { watch_before, watch_after, e };
    const sim_status st = closedloop_run_observed(e->cl, c, d, &ob, m);
    if (st != SIM_OK && st != SIM_CUTOFF) return 0;
    if (st != SIM_OK) return 1;
    closedloop_tail_cycles(e->cl, r->tails);
    if (tails) memcpy(tails, r->tails, sizeof *tails * (size_t)e->npk);
    if (e->wfail || !sim_decisions_known(d)) return 1;
    r->T = m->duration;
    NOCSIM_ASSERT(e->last_t == r->T - 1, "delta: a parent's last cycle stepped is its last ejection");
    index_ejections(r);
    memcpy(r->pairs, d->pairs, sizeof *r->pairs * (size_t)e->nodes * NPORTS);
    for (size_t port = 0; port < (size_t)e->nodes * NPORTS; port++)
        for (int b = 0; b < DPB; b++)
            if (!(r->pairs[port] >> b & 1)) r->pfirst[port * DPB + (size_t)b] = INT32_MAX;
    r->max_link_flits = m->max_link_flits;
    r->valid = 1;
    return 1;
}

/* ---- acceptance ---- */

void delta_splice_decisions(sim_decisions *out, int32_t *ogcyc, const sim_decisions *pd, const delta_rec *r,
                            const delta_patch *pt)
{
    const int32_t *jt = pt->jt;
    const size_t N = (size_t)r->nodes, S = (size_t)r->S;
    if (out != pd) {
        memcpy(out->grant, pd->grant, sizeof *pd->grant * pd->ngrant);
        memcpy(out->pairs, pd->pairs, sizeof *pd->pairs * N * NPORTS);
        memcpy(out->entered, pd->entered, sizeof *pd->entered * N * S);
        memcpy(out->could, pd->could, sizeof *pd->could * N * S);
        out->ngrant = pd->ngrant;
    }
    size_t w = 0;
    for (size_t g = 0; g < out->ngrant; g++) {
        const int node = (int)((out->grant[g] >> 8) / DNF);
        if (jt[node] >= 0 && r->gcyc[g] >= jt[node]) continue;
        out->grant[w] = out->grant[g];
        if (ogcyc) ogcyc[w] = r->gcyc[g];
        w++;
    }
    NOCSIM_ASSERT(w + pt->ngrant <= out->cap, "delta: the child's grants fit its record");
    if (pt->ngrant) { /* (the logs are not allocated before a first grant) */
        memcpy(out->grant + w, pt->grant, sizeof *pt->grant * pt->ngrant);
        if (ogcyc) memcpy(ogcyc + w, pt->gcyc, sizeof *pt->gcyc * pt->ngrant);
    }
    out->ngrant = w + pt->ngrant;
    for (size_t i = 0; i < N; i++) {
        if (jt[i] < 0) continue;
        for (size_t port = i * NPORTS; port < (i + 1) * NPORTS; port++) {
            uint64_t keep = 0;
            for (uint64_t b = out->pairs[port]; b; b &= b - 1)
                if (r->pfirst[port * DPB + (size_t)__builtin_ctzll(b)] < jt[i]) keep |= b & -b;
            out->pairs[port] = keep;
        }
        for (size_t k = i * S; k < (i + 1) * S; k++) {
            if (out->entered[k] >= 0 && out->entered[k] < jt[i]) continue;
            out->entered[k] = pt->entered[k];
            out->could[k] = pt->could[k];
        }
    }
    for (size_t k = 0; k < pt->npev; k++) out->pairs[pt->pev[k] / DPB] |= 1ull << (pt->pev[k] % DPB);
}

/* The record's own copy of the pairs and their first cycles made the
 * spliced decisions' d (pairs dropped at a router from its jt on, the
 * cone's first meetings added). */
static void patch_pairs(delta_rec *r, const sim_decisions *d, const delta_patch *pt)
{
    for (int k = 0; k < pt->ncone; k++) {
        const size_t i = (size_t)pt->cone[k];
        for (size_t port = i * NPORTS; port < (i + 1) * NPORTS; port++) {
            for (uint64_t b = r->pairs[port] & ~d->pairs[port]; b; b &= b - 1)
                r->pfirst[port * DPB + (size_t)__builtin_ctzll(b)] = INT32_MAX;
            r->pairs[port] = d->pairs[port];
        }
    }
    for (size_t k = 0; k < pt->npev; k++) r->pfirst[pt->pev[k]] = pt->pcyc[k];
}

/* The links, dfull bits, activity and snapshots the cone logged. */
static void patch_cycles(delta_rec *r, const delta_patch *pt)
{
    const size_t N = (size_t)r->nodes, W = (size_t)r->W;
    for (int64_t t = 0; t < pt->T; t++)
        for (int32_t k = pt->co[t]; k < pt->co[t + 1]; k++) {
            const pcycle *x = &pt->ce[k];
            memcpy(r->rl + ((size_t)t * N + (size_t)x->node) * 4, x->out, sizeof x->out);
            r->rf[(size_t)t * N + (size_t)x->node] = x->dfull;
            uint64_t *w = r->pact + (size_t)t * W + (size_t)x->node / 64;
            const uint64_t bit = 1ull << (x->node % 64);
            *w = x->act ? *w | bit : *w & ~bit;
        }
    for (int k = 0; k < pt->sk; k++)
        for (int32_t j = pt->so[k]; j < pt->so[k + 1]; j++) r->snap[(size_t)k * N + (size_t)pt->snode[j]] = pt->ss[j];
}

int delta_accept(delta_rec *r, sim_decisions *pd, const delta_patch *pt)
{
    if (!pt->oncone || pt->fail || pt->st != SIM_OK || !r->valid || pt->gen != r->gen) {
        r->valid = 0;
        return 0;
    }
    NOCSIM_ASSERT(pt->T <= r->T, "delta: an accepted child ends by its parent's duration");
    delta_splice_decisions(pd, r->gcyc, pd, r, pt);
    patch_pairs(r, pd, pt);
    patch_cycles(r, pt);
    memcpy(r->tails, pt->tails, sizeof *r->tails * (size_t)r->nodes * (size_t)r->S);
    r->T = pt->T;
    index_ejections(r);
    r->gen++;
    return 1;
}
