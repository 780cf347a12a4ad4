/* The router's two arbitration steps, as named, table-driven arbiters.
 *
 * VC selection (output multiplexer): ten schemes C00-C09, each a start VC and
 * a search direction, picks one of the ready VCs of an output port.
 * Queue selection (crossbar): an evaluation order of the five input
 * directions per output VC; the first requesting direction wins and the order
 * is updated round-robin fashion. */
#ifndef NOCSIM_ARBITER_H
#define NOCSIM_ARBITER_H

#include <stdint.h>

#define VCSEL_NSCHEMES 10

/* Name "C00".."C09" of a scheme (a static string); "C??" when out of range. */
const char *vcsel_name(int scheme);
/* Scheme number of a name "C00".."C09"; -1 if it is none of them. */
int vcsel_parse(const char *name);

/* Pick a VC among the bits of `ready` (bit c = VC c may send) with `scheme`,
 * given the VC granted last on this port.  Returns -1 if ready is 0. */
int vcsel_pick(int scheme, unsigned ready, int last, int vcs);

/* VC selection as a state machine, for engines that keep a port's state in
 * a byte: state = scheme * vcs + the VC granted last.  Fills
 * tab[(state << vcs) | ready] for every state and every ready set of vcs
 * VCs with the state after the grant vcsel_pick makes (unchanged for an
 * empty set) and, in bits 8 and up, the VC granted (the last one for an
 * empty set).  tab has VCSEL_NSCHEMES * vcs << vcs entries. */
void vcsel_table(int vcs, uint16_t *tab);

/* The P input VC a source puts a new packet into under the any-VC rule:
 * the next VC after `last` (its previous packet's), round robin over vcs,
 * whose bit is set in `room` (it has a free slot); -1 if none has. */
static inline int inject_vc_next(unsigned room, int last, int vcs)
{
    for (int k = 1; k <= vcs; k++) {
        int v = last + k < vcs ? last + k : last + k - vcs;
        if (room >> v & 1) return v;
    }
    return -1;
}

/* How a queue-selection order changes after a grant [choice]. */
typedef enum {
    QUPDATE_TAIL = 0, /* the winning entry moves to the tail (default) */
    QUPDATE_ROTATE,   /* the list rotates so the entry after the winner leads */
} qsel_update;

/* The first direction in order[0..4] whose bit is set in `requests`, as an
 * index into order; -1 if none requests.  Inline, as qsel_update_order: the
 * open-loop fast path calls it on every grant. */
static inline int qsel_pick(const uint8_t order[5], unsigned requests)
{
    for (int j = 0; j < 5; j++)
        if (requests & (1u << order[j])) return j;
    return -1;
}
/* Apply the round-robin update after entry `pos` of order won.  Inline: the
 * reference engines call it on every grant (sim/sim.c, sim/olnet.c) and
 * the proofs (sim/decisions.c) too. */
static inline void qsel_update_order(uint8_t order[5], int pos, qsel_update how)
{
    const uint8_t w = order[pos];
    if (how == QUPDATE_TAIL) {
        for (int k = pos; k < 4; k++) order[k] = order[k + 1];
        order[4] = w;
    } else {
        uint8_t tmp[5];
        for (int k = 0; k < 5; k++) tmp[k] = order[(pos + 1 + k) % 5];
        for (int k = 0; k < 5; k++) order[k] = tmp[k];
    }
}

/* An order as a number: the rank of the permutation among the 120 of five
 * directions, so a queue-selection order fits in a byte and one look-up in a
 * table (qsel_table) does a whole grant. */
#define QSEL_NRANKS 120
/* The rank (0 .. QSEL_NRANKS - 1) of order[0..4]; -1 if order is not a
 * permutation of 0..4. */
int qsel_rank(const uint8_t order[5]);
/* The order of rank r (0 .. QSEL_NRANKS - 1) into order[0..4]. */
void qsel_unrank(int r, uint8_t order[5]);
/* An order's first four entries as a number below QSEL_NINDEX (base 5),
 * which with qsel_rank_table's table gives its rank in one look-up: what a
 * run's set-up does for every output VC of the network. */
#define QSEL_NINDEX 625
static inline unsigned qsel_index(const uint8_t order[5])
{
    return ((order[0] * 5u + order[1]) * 5u + order[2]) * 5u + order[3];
}
/* Fill tab[qsel_index(order)] with qsel_rank(order) for every permutation
 * order of 0..4 (the other entries: 0).  tab has QSEL_NINDEX entries. */
void qsel_rank_table(uint8_t *tab);
/* Fill tab[(r << 5) | requests] for every rank r and every non-empty request
 * set (bit d: direction d requests) with the grant qsel_pick and
 * qsel_update_order make: the rank after it, and the winning direction << 8.
 * tab has QSEL_NRANKS * 32 entries; those of an empty request set are 0. */
void qsel_table(qsel_update how, uint16_t *tab);

#endif
