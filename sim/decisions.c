/* A run's decisions and the test that a changed configuration repeats them
 * (see decisions.h). */
#include "sim/decisions_rec.h"

#include <stdlib.h>
#include <string.h>

#include "router/route.h"

/* Grants are kept for networks whose lists fit 24 bits and whose record
 * stays below 64 MB; a packet's header is granted once per router on its
 * route, at most n + 1 of them on an n x n torus. */
#define GRANT_MAX ((size_t)1 << 24)

/* The most hops a route of p's network takes: half of each ring on a
 * torus, a side less one in each dimension on a mesh. */
static int max_hops(const sim_params *p)
{
    int w = p->n, h = sim_height(p);
    return p->topo == TOPO_MESH ? w + h - 2 : w / 2 + h / 2;
}

sim_decisions *sim_decisions_new(const sim_params *p)
{
    sim_decisions *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->n = p->n;
    d->nodes = sim_nodes(p);
    d->V = p->vcs;
    d->S = p->slices;
    d->qup = p->q_update;
    size_t nodes = (size_t)d->nodes, npk = nodes * (size_t)d->S;
    size_t lists = nodes * NPORTS * (size_t)d->V, grants = npk * (size_t)(max_hops(p) + 1);
    if (lists < GRANT_MAX && grants <= GRANT_MAX) {
        d->cap = grants;
        if (!(d->grant = malloc(grants * sizeof *d->grant))) goto fail;
    }
    if (d->V <= 4 && !(d->pairs = calloc(nodes * NPORTS, sizeof *d->pairs))) goto fail;
    d->entered = malloc(npk * sizeof *d->entered);
    d->could = malloc(npk * sizeof *d->could);
    d->room = malloc(nodes * sizeof *d->room);
    if (!d->entered || !d->could || !d->room) goto fail;
    return d;
fail:
    sim_decisions_free(d);
    return NULL;
}

void sim_decisions_free(sim_decisions *d)
{
    if (!d) return;
    free(d->grant);
    free(d->pairs);
    free(d->entered);
    free(d->could);
    free(d->room);
    free(d);
}

int sim_decisions_known(const sim_decisions *d) { return d->known; }
void sim_decisions_clear(sim_decisions *d) { d->known = 0; }

void sim_decisions_start(sim_decisions *d)
{
    size_t nodes = (size_t)d->nodes;
    d->known = 0;
    d->ngrant = 0;
    d->overflow = 0;
    if (d->pairs) memset(d->pairs, 0, nodes * NPORTS * sizeof *d->pairs);
    memset(d->entered, -1, nodes * (size_t)d->S * sizeof *d->entered);
    memset(d->room, 0, nodes * sizeof *d->room);
}

/* Does every packet's header enter when it did, with releases
 * slice * interval + inject[i] of child?  all: check every source (the
 * interval changed), else only those whose inject changed. */
static int same_injections(const sim_decisions *d, const sim_config *parent, const sim_config *child, int all)
{
    for (int i = 0; i < d->nodes; i++) {
        if (!all && child->inject[i] == parent->inject[i]) continue;
        for (int s = 0; s < d->S; s++) {
            size_t k = (size_t)i * (size_t)d->S + (size_t)s;
            if (d->entered[k] < 0) break; /* sends nothing */
            int64_t r = (int64_t)s * child->interval + child->inject[i];
            if ((r > d->could[k] ? r : d->could[k]) != d->entered[k]) return 0;
        }
    }
    return 1;
}

/* Does every VC selection of port k pick the same VC under child's scheme? */
static int same_vc_picks(const sim_decisions *d, size_t k, int old, int new)
{
    if (!d->pairs) return 0;
    const unsigned ready_mask = (1u << d->V) - 1;
    for (uint64_t b = d->pairs[k]; b; b &= b - 1) {
        unsigned bit = (unsigned)__builtin_ctzll(b), last = bit >> d->V, ready = bit & ready_mask;
        if (vcsel_pick(new, ready, (int)last, d->V) != vcsel_pick(old, ready, (int)last, d->V)) return 0;
    }
    return 1;
}

/* Lists whose queue-selection order changed, at most this many (more: no
 * verdict, which costs only a simulation). */
#define MAX_CHANGED_LISTS 32

/* Does every grant of the changed lists go the same way when replayed with
 * child's orders and their round-robin updates? */
static int same_grants(const sim_decisions *d, const sim_config *parent, const sim_config *child)
{
    size_t lists = (size_t)d->nodes * NPORTS * (size_t)d->V, changed[MAX_CHANGED_LISTS];
    uint8_t order[MAX_CHANGED_LISTS][NPORTS];
    uint64_t filter = 0; /* bit list % 64 of every changed list */
    int nc = 0;
    for (size_t l = 0; l < lists; l++) {
        if (!memcmp(parent->qorder + l * NPORTS, child->qorder + l * NPORTS, NPORTS)) continue;
        if (nc == MAX_CHANGED_LISTS) return 0;
        changed[nc] = l;
        memcpy(order[nc++], child->qorder + l * NPORTS, NPORTS);
        filter |= 1ull << (l & 63);
    }
    for (size_t k = 0; nc && k < d->ngrant; k++) {
        uint32_t e = d->grant[k];
        size_t l = e >> 8;
        if (!(filter >> (l & 63) & 1)) continue;
        int j = 0;
        while (j < nc && changed[j] != l) j++;
        if (j == nc) continue;
        int pos = qsel_pick(order[j], e >> 3 & 31);
        if (pos < 0 || order[j][pos] != (e & 7)) return 0;
        qsel_update_order(order[j], pos, d->qup);
    }
    return 1;
}

int sim_decisions_repeat(const sim_decisions *d, const sim_config *parent, const sim_config *child)
{
    if (!d->known || parent->nodes != d->nodes || child->nodes != d->nodes || parent->vcs != d->V ||
        child->vcs != d->V)
        return 0;
    int all = child->interval != parent->interval;
    if (!same_injections(d, parent, child, all)) return 0;
    for (size_t k = 0; k < (size_t)d->nodes * NPORTS; k++)
        if (child->scheme[k] != parent->scheme[k] && !same_vc_picks(d, k, parent->scheme[k], child->scheme[k]))
            return 0;
    return same_grants(d, parent, child);
}
