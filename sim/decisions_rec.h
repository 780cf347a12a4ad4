/* How an engine writes a sim_decisions record (see decisions.h): the
 * record's layout and the calls the fast engine makes while it runs.  Only
 * sim/decisions.c, the engine (sim/olnet_fast.c, sim/closedloop.c) and
 * tests/test_decisions.c (which compares records) include this. */
#ifndef NOCSIM_SIM_DECISIONS_REC_H
#define NOCSIM_SIM_DECISIONS_REC_H

#include <stddef.h>
#include <stdint.h>

#include "router/arbiter.h"
#include "sim/decisions.h"

struct sim_decisions {
    int n, nodes, V, S;
    qsel_update qup;
    int known;
    /* Queue selection: every grant in order, list << 8 | requesting
     * directions << 3 | direction granted (list = (node * NPORTS + d) * V +
     * vc, as sim_config's qorder).  cap 0: not kept (too many lists or
     * grants for this network); overflow: a run made more grants than cap. */
    uint32_t *grant;
    size_t ngrant, cap;
    int overflow;
    /* VC selection: per output port (node * NPORTS + d) a bit per pair (VC
     * granted last, ready VCs) met with two or more VCs ready (one ready VC
     * is picked by every scheme), at last << V | ready; NULL when V > 4. */
    uint64_t *pairs;
    /* Injection, per packet (source * S + slice): the cycle its header
     * entered the P FIFO (-1: never sent) and the first cycle the source
     * could have injected it; per source, that cycle for its next packet
     * (-1: its P FIFO is full, the first pop decides). */
    int32_t *entered, *could;
    int32_t *room;
};

/* Start of a run: nothing recorded, every source free to inject from cycle 0. */
void sim_decisions_start(sim_decisions *d);
/* End of a run with status st. */
static inline void sim_decisions_end(sim_decisions *d, int ok) { d->known = ok && d->cap && !d->overflow; }

static inline void sim_decisions_grant(sim_decisions *d, size_t list, unsigned dirs, unsigned granted)
{
    if (d->ngrant < d->cap) d->grant[d->ngrant++] = (uint32_t)list << 8 | dirs << 3 | granted;
    else d->overflow = 1;
}

/* A VC selection at port (node * NPORTS + d) among two or more ready VCs:
 * `last` granted before, `ready`. */
static inline void sim_decisions_vcsel(sim_decisions *d, size_t port, unsigned last, unsigned ready)
{
    if (d->pairs) d->pairs[port] |= 1ull << (last << d->V | ready);
}

/* Source i's header of slice s entered in cycle t. */
static inline void sim_decisions_header(sim_decisions *d, int i, int s, int64_t t)
{
    size_t k = (size_t)i * (size_t)d->S + (size_t)s;
    d->entered[k] = (int32_t)t;
    d->could[k] = d->room[i];
}

/* Source i's tail entered in cycle t, leaving its P FIFO full or not. */
static inline void sim_decisions_tail(sim_decisions *d, int i, int64_t t, int full)
{
    d->room[i] = full ? -1 : (int32_t)(t + 1);
}

/* Source i's full P FIFO popped in cycle t: it has room from t + 1. */
static inline void sim_decisions_room(sim_decisions *d, int i, int64_t t)
{
    if (d->room[i] < 0) d->room[i] = (int32_t)(t + 1);
}

#endif
