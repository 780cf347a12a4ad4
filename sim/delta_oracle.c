/* The checking build's oracle of delta runs (issue 38; make check-build,
 * -DNOCSIM_CHECK; in the release build this file is empty and its hooks in
 * sim/delta_run.c, DELTA_CHECK, are compiled out).  delta_run_child runs
 * the child in full beside its cone: a second closedloop owned by the
 * engine, stepped with olnet_step in lockstep, one cycle for each the delta
 * run steps (closedloop.c jumps over idle stretches instead, but stepping
 * an idle cycle changes nothing, and the delta run steps them too).  After
 * every cycle the cone's invariant is checked against it, and the first
 * break aborts with the cycle, the router and the rule:
 *  1. a router in the cone holds exactly the full child's state (checked at
 *     the cycle's end, and for a router that joins by its genes at the
 *     start of the cycle it joins), and the entries its patch logs for the
 *     cycle are what the full child's links carried;
 *  2. a router outside the cone behaves as the parent did: its links carry
 *     in the full child's cycle what the record's entries say, its dfull at
 *     the cycle's end is the record's, and at each snapshot's cycle its
 *     whole state is the record's snapshot (what the cone reads of it, and
 *     what a join restores, are right);
 *  3. when the run goes on to the whole network, the network handed to
 *     closedloop_run_resumed is the full child's (every router, the source
 *     mask, the packets' releases and tails, the flits in the network and
 *     injected); from there the run is closedloop's own, and the oracle
 *     stops.
 * "Exactly" is bench/delta_ceiling.c's snap_same: a FIFO's flits up to its
 * count (not its stale slots) and the requests of waiting FIFOs only.  The
 * decisions' room is not compared (the oracle records no decisions: the
 * exactness tests check them), nor, against a snapshot, a source's due
 * cycle (a snapshot has none: it is the child's release). */
#ifdef NOCSIM_CHECK
#include <stdio.h>
#include <stdlib.h>

#include "sim/delta_internal.h"

struct delta_oracle {
    closedloop *cl;
    olnet *n;          /* the full child's network (cl's) */
    uint32_t *ofl;     /* per link: the full child's entry in the cycle just stepped */
    uint8_t *out;      /* per router: outside the cone while that cycle was stepped */
};

static _Noreturn void oracle_broken(int64_t t, int i, const char *rule, const char *what)
{
    fprintf(stderr, "nocsim: delta-run invariant broken in cycle %lld at router %d: %s (%s)\n", (long long)t, i,
            rule, what);
    abort();
}

void delta_oracle_free(struct delta_oracle *o)
{
    if (!o) return;
    closedloop_free(o->cl);
    free(o->ofl);
    free(o->out);
    free(o);
}

/* The first field of two router states that differs (NULL: none), the
 * decisions' room not compared. */
static const char *state_diff(const rsnap *a, const rsnap *b)
{
    if (memcmp(a->cnt, b->cnt, DNF)) return "a FIFO's count";
    for (int f = 0; f < DNF; f++) {
        if (a->cnt[f] > DB) return "a FIFO over B flits";
        if (memcmp(a->buf + f * DB, b->buf + f * DB, sizeof *a->buf * a->cnt[f])) return "a FIFO's flits";
    }
    if (memcmp(a->route, b->route, DNF)) return "a FIFO's output VC (route)";
    if (memcmp(a->holder, b->holder, DNF)) return "an output VC's holder";
    if (a->reqm != b->reqm) return "the waiting FIFOs (reqm)";
    for (int f = 0; f < DNF; f++)
        if ((a->reqm >> f & 1) && (a->req_d[f] != b->req_d[f] || a->req_c[f] != b->req_c[f]))
            return "a waiting header's request";
    if (memcmp(a->qsi, b->qsi, DNF)) return "a queue-selection rank (qsi)";
    if (memcmp(a->pstate, b->pstate, NPORTS)) return "a port's VC-selection state (pstate)";
    if (a->dfull != b->dfull) return "dfull";
    if (a->head != b->head || a->count != b->count || a->seq != b->seq) return "the source's queue";
    if (a->vc != b->vc || a->last_vc != b->last_vc) return "the source's VCs";
    if (memcmp(a->lflits, b->lflits, sizeof a->lflits)) return "a link's load (flits)";
    return NULL;
}

/* Router i alike in the delta run's network a and the full child's b
 * (its source's due cycle included), else the rule is broken in cycle t. */
static void same_router(const olnet *a, const olnet *b, int i, int64_t t, const char *rule)
{
    rsnap x, y;
    snap_save(a, i, 0, &x);
    snap_save(b, i, 0, &y);
    const char *d = state_diff(&x, &y);
    if (!d && a->src[i].count && a->src[i].due != b->src[i].due) d = "the source's due cycle";
    if (d) oracle_broken(t, i, rule, d);
}

void delta_oracle_begin(delta_engine *e, const sim_config *c)
{
    struct delta_oracle *o = e->orc;
    if (!o) {
        const size_t N = (size_t)e->nodes;
        o = e->orc = calloc(1, sizeof *o);
        if (!o) oracle_broken(0, -1, "memory for the check", "the oracle");
        o->cl = closedloop_new(&e->p, e->dest, 0);
        o->ofl = malloc(sizeof *o->ofl * N * 4);
        o->out = calloc(N, 1);
        if (!o->cl || !o->ofl || !o->out) oracle_broken(0, -1, "memory for the check", "the oracle's engine");
    }
    o->n = closedloop_begin(o->cl, c);
}

/* At the start of cycle t, the cone's joiners by their genes just
 * restored: rule 1 for them; at a snapshot's cycle, rule 2's snapshot for
 * every router outside the cone. */
void delta_oracle_before(const delta_engine *e, const delta_rec *r, int64_t t)
{
    const struct delta_oracle *o = e->orc;
    for (int k = 0; k < e->ncone; k++) {
        const int i = e->list[k];
        if (e->pt->jt[i] == t)
            same_router(e->v.net, o->n, i, t, "a router joining the cone by its genes is not the full child's");
    }
    if (t % DK || t >= r->T) return;
    const rsnap *snap = r->snap + (size_t)(t / DK) * (size_t)e->nodes;
    for (int j = 0; j < e->nodes; j++) {
        if (e->in[j]) continue;
        rsnap x;
        snap_save(o->n, j, 0, &x);
        const char *d = state_diff(&x, &snap[j]);
        if (d) oracle_broken(t, j, "a router outside the cone is not the record's snapshot in the full child", d);
    }
}

/* The full child's cycle t: its link entries into o->ofl. */
static void oracle_step(struct delta_oracle *o, int nodes, int64_t t)
{
    olnet *f = o->n;
    const int64_t inj0 = f->cl->injected;
    const int32_t *ids;
    int nd;
    const int64_t moved = olnet_step(f, t, &ids, &nd);
    const int nmv = (int)(moved - (f->cl->injected - inj0));
    memset(o->ofl, 0, sizeof *o->ofl * (size_t)nodes * 4);
    for (int k = 0; k < nmv; k++) {
        const olfmove *m = &f->fmv[k];
        if (m->to >= 0) o->ofl[m->node * 4 + f->lport[m->lo]] = entry_of(m->x, f->lvc[m->lo]);
    }
}

/* A router's four link entries in cycle t alike (got, want), else rule. */
static void same_links(const uint32_t *got, const uint32_t *want, int64_t t, int i, const char *rule)
{
    for (int p = 0; p < 4; p++) {
        if (got[p] == want[p]) continue;
        char what[96];
        snprintf(what, sizeof what, "port %d: entry %#x, want %#x", p, (unsigned)got[p], (unsigned)want[p]);
        oracle_broken(t, i, rule, what);
    }
}

/* Cycle t stepped by the delta run (its joiners at the cycle's end in
 * e->jl): the full child steps it too; rule 2's links and dfull, then rule
 * 1 for the cone. */
void delta_oracle_after(const delta_engine *e, const delta_rec *r, int64_t t)
{
    struct delta_oracle *o = e->orc;
    const size_t N = (size_t)e->nodes;
    oracle_step(o, e->nodes, t);
    const uint32_t *rl = r->rl + (size_t)t * N * 4;
    const uint16_t *rf = r->rf + (size_t)t * N;
    for (int k = 0; k < e->nj; k++) o->out[e->jl[k]] = 1;
    for (size_t j = 0; j < N; j++) {
        if (!e->in[j] || o->out[j])
            same_links(o->ofl + j * 4, rl + j * 4, t, (int)j, "a router outside the cone sends what the record does not");
        if (e->in[j]) /* what the cone's patch logs it sent (a joiner's: the record's) */
            same_links(e->cfl + j * 4, o->ofl + j * 4, t, (int)j, "a cone router sends what the full child does not");
        o->out[j] = 0;
        if (!e->in[j] && o->n->dfull[j] != rf[j])
            oracle_broken(t, (int)j, "a router outside the cone ends the cycle with dfull bits not the record's",
                          "dfull");
    }
    for (int k = 0; k < e->ncone; k++)
        same_router(e->v.net, o->n, e->list[k], t, "a cone router is not the full child's at the cycle's end");
}

/* Rule 3: the delta run goes on to the whole network at the start of cycle
 * t, its network (and `injected` flits so far) handed over. */
void delta_oracle_whole(const delta_engine *e, int64_t t, int64_t injected)
{
    const olnet *n = e->v.net, *f = e->orc->n;
    const char *rule = "the network handed to the whole-network run is not the full child's";
    for (int i = 0; i < e->nodes; i++) {
        same_router(n, f, i, t, rule);
        if ((n->srcm[i / 64] ^ f->srcm[i / 64]) >> (i % 64) & 1) oracle_broken(t, i, rule, "the source mask");
        const int32_t id0 = e->v.first[i];
        for (int s = 0; id0 >= 0 && s < e->S; s++) {
            if (n->pk[id0 + s].t_gen != f->pk[id0 + s].t_gen) oracle_broken(t, i, rule, "a packet's release");
            if (n->pk[id0 + s].t_done != f->pk[id0 + s].t_done) oracle_broken(t, i, rule, "a packet's tail cycle");
        }
    }
    if (n->in_net != f->in_net) oracle_broken(t, -1, rule, "the flits in the network");
    if (injected != f->cl->injected) oracle_broken(t, -1, rule, "the flits injected");
}
#endif
