/* Delta simulation (see delta_run.h).  STUB while the GA's plumbing is
 * built beside the engine: a parent's run is the fast engine's full run and
 * its record holds nothing but validity; a child is never run on its cone
 * (delta_run_child returns 0), so every accept invalidates the record. */
#include "sim/delta_run.h"
#include "sim/closedloop.h"

#include <stdlib.h>

struct delta_engine {
    sim_params p;
    closedloop *cl;
};

struct delta_rec {
    int valid;
};

struct delta_patch {
    int cone; /* 1: a cone run */
};

int delta_supports(const sim_params *p)
{
    return p->routing == ROUTING_DOR && p->vc_rule == VCRULE_DATELINE && p->vcs == 3 && p->buffer == 4 &&
           closedloop_supports(p);
}

delta_engine *delta_engine_new(const sim_params *p, const int32_t *dest)
{
    delta_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->p = *p;
    if (!(e->cl = closedloop_new(p, dest, 0))) {
        free(e);
        return NULL;
    }
    return e;
}

void delta_engine_free(delta_engine *e)
{
    if (!e) return;
    closedloop_free(e->cl);
    free(e);
}

delta_rec *delta_rec_new(const sim_params *p)
{
    (void)p;
    return calloc(1, sizeof(delta_rec));
}
void delta_rec_free(delta_rec *r) { free(r); }
delta_patch *delta_patch_new(const sim_params *p)
{
    (void)p;
    return calloc(1, sizeof(delta_patch));
}
void delta_patch_free(delta_patch *pt) { free(pt); }
int delta_rec_valid(const delta_rec *r) { return r->valid; }
void delta_rec_invalidate(delta_rec *r) { r->valid = 0; }
size_t delta_rec_bytes(const delta_rec *r) { return sizeof *r; }

int delta_run_parent(delta_engine *e, const sim_config *c, sim_decisions *d, delta_rec *r, sim_metrics *m,
                     int64_t *tails)
{
    r->valid = 0;
    const sim_status st = closedloop_run(e->cl, c, INT64_MAX, d, CL_LEAN, m);
    if (st != SIM_OK && st != SIM_CUTOFF) return 0;
    if (st == SIM_OK && tails) closedloop_tail_cycles(e->cl, tails);
    r->valid = st == SIM_OK && d && sim_decisions_known(d);
    return 1;
}

int delta_run_child(delta_engine *e, const sim_config *pc, const delta_rec *r, const sim_config *c, int64_t cutoff,
                    delta_patch *pt, sim_metrics *m, int64_t *tails)
{
    (void)e, (void)pc, (void)r, (void)c, (void)cutoff, (void)m, (void)tails;
    pt->cone = 0;
    return 0;
}

int delta_accept(delta_rec *r, sim_decisions *pd, const delta_patch *pt)
{
    (void)pd;
    if (pt->cone) return 1;
    r->valid = 0;
    return 0;
}
