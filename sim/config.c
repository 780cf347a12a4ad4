/* Simulation parameters and the evolvable per-router configuration. */
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>

#include "util/rng.h"

void sim_params_default(sim_params *p)
{
    memset(p, 0, sizeof *p);
    p->n = SIM_DEFAULT_N;
    p->vcs = SIM_DEFAULT_VCS;
    p->buffer = SIM_DEFAULT_BUFFER;
    p->flits = SIM_DEFAULT_FLITS;
    p->slices = 1;
    p->tie = TIE_NOWRAP;
    p->dateline = DATELINE_ON_LINK;
    p->q_update = QUPDATE_TAIL;
    p->slot_reuse = SLOT_NEXT_CYCLE;
    p->input_limit = INPUT_PER_VC;
    p->self = SELF_SKIP;
    p->deadlock_cycles = 1000;
    p->max_cycles = 100000000;
    p->routing = ROUTING_DOR;
    p->selection = SELECT_CREDITS;
    p->route_seed = sim_route_seed(0);
}

uint64_t sim_route_seed(uint64_t seed)
{
    uint64_t rs = seed ^ 0x526f757465730000ull; /* "Routes": as sim/openloop.c's open-loop runs */
    return rng_splitmix64(&rs);
}

int sim_params_check(const sim_params *p, char *err, size_t errlen)
{
    if ((p->n < SIM_MIN_N || p->n > SIM_MAX_N || p->n % 2) && p->h && p->h != p->n)
        return snprintf(err, errlen, "size %dx%d: the width must be even, in [%d, %d]", p->n, p->h, SIM_MIN_N,
                        SIM_MAX_N), -1;
    if (p->n < SIM_MIN_N || p->n > SIM_MAX_N || p->n % 2)
        return snprintf(err, errlen, "size %d: must be even, in [%d, %d]", p->n, SIM_MIN_N, SIM_MAX_N), -1;
    if (p->h && (p->h < 2 || p->h > SIM_MAX_N || (p->topo == TOPO_TORUS && p->h % 2)))
        return snprintf(err, errlen, "size %dx%d: the height must be in [2, %d]%s", p->n, p->h, SIM_MAX_N,
                        p->topo == TOPO_TORUS ? " and even on a torus" : ""), -1;
    if ((unsigned)p->routing >= ROUTING_COUNT || (unsigned)p->selection >= SELECT_COUNT)
        return snprintf(err, errlen, "routing %d / selection %d: allowed 0..%d / 0..%d", (int)p->routing,
                        (int)p->selection, ROUTING_COUNT - 1, SELECT_COUNT - 1), -1;
    if (p->topo == TOPO_TORUS && p->vc_rule == VCRULE_ANY && p->routing == ROUTING_DOR)
        return snprintf(err, errlen, "vc_rule any: only on a mesh (a torus needs its datelines), or under "
                                     "routing dor2, valiant or min-adaptive"), -1;
    if (p->routing != ROUTING_DOR) {
        const route_params rp = sim_route_params(p);
        if (p->vcs < 1 || p->vcs > SIM_MAX_VCS)
            return snprintf(err, errlen, "vcs %d: must be in [1, %d]", p->vcs, SIM_MAX_VCS), -1;
        if (routing_check(p->routing, &rp, p->vc_rule, p->vcs, err, errlen)) return -1;
    }
    if (p->topo == TOPO_TORUS && p->routing == ROUTING_DOR && (p->vcs < 3 || p->vcs > SIM_MAX_VCS))
        return snprintf(err, errlen, "vcs %d: must be in [3, %d] (datelines need 3)", p->vcs, SIM_MAX_VCS), -1;
    if (p->vcs < 1 || p->vcs > SIM_MAX_VCS)
        return snprintf(err, errlen, "vcs %d: must be in [1, %d]", p->vcs, SIM_MAX_VCS), -1;
    if (p->buffer < 1 || p->buffer > 255)
        return snprintf(err, errlen, "buffer %d: must be in [1, 255]", p->buffer), -1;
    if (p->flits < 2 || p->flits > SIM_MAX_FLITS)
        return snprintf(err, errlen, "flits %d: must be in [2, %d]", p->flits, SIM_MAX_FLITS), -1;
    if (p->slices < 1 || p->slices > SIM_MAX_SLICES)
        return snprintf(err, errlen, "slices %d: must be in [1, %d]", p->slices, SIM_MAX_SLICES), -1;
    if (p->deadlock_cycles < 1)
        return snprintf(err, errlen, "deadlock_cycles %d: must be >= 1", p->deadlock_cycles), -1;
    return 0;
}

sim_config *sim_config_new(int nodes, int vcs, int scheme, uint32_t interval)
{
    sim_config *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->nodes = nodes;
    c->vcs = vcs;
    c->interval = interval;
    c->inject = calloc((size_t)nodes, sizeof *c->inject);
    c->scheme = malloc((size_t)nodes * NPORTS);
    c->qorder = malloc((size_t)nodes * NPORTS * (size_t)vcs * NPORTS);
    if (!c->inject || !c->scheme || !c->qorder) {
        sim_config_free(c);
        return NULL;
    }
    memset(c->scheme, scheme, (size_t)nodes * NPORTS);
    size_t lists = (size_t)nodes * NPORTS * (size_t)vcs;
    for (size_t k = 0; k < lists; k++)
        for (int j = 0; j < NPORTS; j++) c->qorder[k * NPORTS + (size_t)j] = (uint8_t)j;
    return c;
}

void sim_config_free(sim_config *c)
{
    if (!c) return;
    free(c->inject);
    free(c->scheme);
    free(c->qorder);
    free(c);
}

void sim_config_copy(sim_config *dst, const sim_config *src)
{
    dst->interval = src->interval;
    memcpy(dst->inject, src->inject, (size_t)src->nodes * sizeof *src->inject);
    memcpy(dst->scheme, src->scheme, (size_t)src->nodes * NPORTS);
    memcpy(dst->qorder, src->qorder, (size_t)src->nodes * NPORTS * (size_t)src->vcs * NPORTS);
}

int sim_config_check(const sim_config *c, char *err, size_t errlen)
{
    for (int i = 0; i < c->nodes * NPORTS; i++)
        if (c->scheme[i] >= VCSEL_NSCHEMES)
            return snprintf(err, errlen, "scheme of node %d port %c out of range", i / NPORTS,
                            route_port_name(i % NPORTS)), -1;
    size_t lists = (size_t)c->nodes * NPORTS * (size_t)c->vcs;
    for (size_t k = 0; k < lists; k++) {
        /* Range first: a shift by a byte >= 32 is undefined, and x86 would
         * wrap it round into the permutation mask. */
        unsigned seen = 0;
        for (int j = 0; j < NPORTS; j++) {
            uint8_t q = c->qorder[k * NPORTS + (size_t)j];
            seen |= q < NPORTS ? 1u << q : 1u << NPORTS;
        }
        if (seen != (1u << NPORTS) - 1)
            return snprintf(err, errlen, "queue order of node %zu port %c vc %zu is not a permutation of NESWP",
                            k / ((size_t)c->vcs * NPORTS), route_port_name((int)(k / (size_t)c->vcs % NPORTS)),
                            k % (size_t)c->vcs), -1;
    }
    return 0;
}
