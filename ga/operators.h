/* The search space of a GA run and the operators that move in it.
 *
 * Paper operators (Appendix A.3): random initialisation over the full
 * ranges, mutation that redraws a ratio of the evolved genes over their full
 * range, uniform crossover that copies genes of one parent into the other.
 * Local operators (the default search): mutate a few genes by small steps,
 * and only genes that can change the outcome.
 *
 * Conventions: a chromosome is a sim_config sized for the run (c->nodes,
 * c->vcs); the operators change it in place, only through its evolved genes
 * (sp->genes), and leave every value inside its range (V in [vmin, vmax], I
 * in [0, imax], schemes 0..9, each Q list a permutation of 0..4).  All
 * randomness comes from the caller's generator, so the same generator state
 * gives the same result.  The operators cannot fail. */
#ifndef NOCSIM_GA_OPERATORS_H
#define NOCSIM_GA_OPERATORS_H

#include <stdint.h>

#include "util/fault.h"
#include "util/rng.h"
#include "sim/sim.h"

enum { GENE_V = 1, GENE_I = 2, GENE_C = 4, GENE_Q = 8, GENE_ALL = 15 };

/* Ranges of the evolved genes and the values of the fixed ones. */
typedef struct {
    unsigned genes;            /* GENE_* bits that evolve */
    uint32_t vmin, vmax;       /* l_c <= V <= T_e - l_c */
    uint16_t imax;             /* 0 <= I <= t_d0 - l_c */
    uint32_t v_fixed;          /* V when GENE_V does not evolve */
    int c_fixed;               /* scheme when GENE_C does not evolve */
} ga_space;

/* Genes that can change the outcome for a given traffic: injection timings
 * of nodes that send; schemes of ports that carry two or more VCs; queue
 * orders of output VCs that two or more input directions can request. */
typedef struct {
    int nsenders, nports, nqlists;
    int32_t *senders;    /* node ids */
    int32_t *ports;      /* node * NPORTS + d */
    int32_t *qlists;     /* (node * NPORTS + d) * vcs + c */
    uint8_t *qinputs;    /* per qlist: bit mask of the input directions */
    int width;           /* the network's width (its rows, for ga_shift_line) */
} ga_effective;

/* The effective genes of traffic dest[] (sim_nodes(p) entries, read only
 * during the call) under p's routing choices, found by walking every packet's
 * route once.  Returns a new object for ga_effective_free, or NULL when
 * memory runs out. */
NOCSIM_MUST_USE
ga_effective *ga_effective_new(const sim_params *p, const int32_t *dest);
/* Free e and its arrays.  e may be NULL. */
void ga_effective_free(ga_effective *e);

/* Paper initialisation: every evolved gene uniform over its full range;
 * fixed genes at their fixed values (V = v_fixed, I = 0, schemes c_fixed,
 * Q the identity order N,E,S,W,P). */
void ga_init_random(sim_config *c, const ga_space *sp, rng *r);
/* Paper mutation: redraw max(1, round(ratio x ga_gene_count)) genes, each
 * picked uniformly (with repetition) among all evolved genes and redrawn
 * over its full range (so it may keep its value).  Nothing changes when no
 * gene evolves. */
void ga_mutate_paper(sim_config *c, const ga_space *sp, double ratio, rng *r);
/* How a local mutation picks its genes: uniformly among all effective genes,
 * or first one of the evolved groups (V, I, C, Q) with effective genes,
 * uniformly, then a gene in it. */
typedef enum { GA_WEIGHT_GENES = 0, GA_WEIGHT_GROUPS, GA_WEIGHT_MIX, GA_WEIGHT_COUNT } ga_weighting;

/* Local mutation: k steps, each on one gene picked (with repetition) among
 * the effective genes of the evolved groups, V counting as one: V and an
 * I[i] move by +-1..3 and are clamped to their range; a scheme changes to
 * another scheme; a Q list swaps the positions of two of its competing input
 * directions (e->qinputs), the other entries staying in place.  Genes that
 * are not effective never change.  Nothing changes when k <= 0 or no
 * effective gene evolves. */
void ga_mutate_local(sim_config *c, const ga_space *sp, const ga_effective *e, int k, ga_weighting w, rng *r);
/* The same moves, each gene's group (V, I, C, Q) drawn first with
 * probabilities proportional to mix[0..3] among the evolved groups with
 * effective genes, then a gene of it uniformly.  Returns the groups moved as
 * a bit mask (bit g for group g), 0 if no group can move (nothing changes). */
int ga_mutate_local_mix(sim_config *c, const ga_space *sp, const ga_effective *e, int k, const double mix[4], rng *r);
/* Shift the injection timings of every sender in the row or the column
 * (drawn) of a random sender by the same step of +-1..3, each clamped to
 * [0, imax].  Nothing changes when I does not evolve or nobody sends. */
void ga_shift_line(sim_config *c, const ga_space *sp, const ga_effective *e, rng *r);
/* A move aimed at the end of the parent's run: among the packets whose tail
 * ejected in the last `window` cycles of it (tails: the parent's
 * sim_tail_cycles, `packets` entries src * slices + slice, -1 for none),
 * draw one uniformly and move its source's injection timing earlier by
 * 1..3, clamped at 0.  Only the packets that finish last decide the
 * duration, and most random moves touch none of them.  Returns 1 when a
 * packet was drawn, 0 (nothing drawn, c unchanged) when I does not evolve or
 * no packet was sent. */
int ga_advance_late(sim_config *c, const ga_space *sp, const int64_t *tails, int64_t packets, int slices, int window,
                    rng *r);
/* Uniform crossover: each evolved gene of a takes b's value with
 * probability rate (a Q list is one gene: it is copied whole); a and b must
 * have the same size; b is not changed. */
void ga_crossover(sim_config *a, const sim_config *b, const ga_space *sp, double rate, rng *r);
/* Number of evolved genes of c: V counts one, each I[i] one, each port's
 * scheme one, each Q list one. */
int64_t ga_gene_count(const sim_config *c, const ga_space *sp);

#endif
