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
 * fast engine calls it on every grant (sim/fast.c), the reference engine and
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
/* Fill tab[(r << 5) | requests] for every rank r and every non-empty request
 * set (bit d: direction d requests) with the grant qsel_pick and
 * qsel_update_order make: the rank after it, and the winning direction << 8.
 * tab has QSEL_NRANKS * 32 entries; those of an empty request set are 0. */
void qsel_table(qsel_update how, uint16_t *tab);

#endif
