/* The search space of a GA run and the operators that move in it.
 *
 * Paper operators (Appendix A.3): random initialisation over the full
 * ranges, mutation that redraws a ratio of the evolved genes over their full
 * range, uniform crossover that copies genes of one parent into the other.
 * Local operators (the default search): mutate a few genes by small steps,
 * and only genes that can change the outcome. */
#ifndef NOCSIM_GA_OPERATORS_H
#define NOCSIM_GA_OPERATORS_H

#include <stdint.h>

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
} ga_effective;

/* Walk every packet's route once.  Returns NULL on allocation failure. */
ga_effective *ga_effective_new(const sim_params *p, const int32_t *dest);
void ga_effective_free(ga_effective *e);

/* Paper: every evolved gene uniform over its range, fixed genes at their
 * fixed values. */
void ga_init_random(sim_config *c, const ga_space *sp, rng *r);
/* Paper mutation: redraw round(ratio x evolved genes) genes (at least one),
 * each picked uniformly among all evolved genes. */
void ga_mutate_paper(sim_config *c, const ga_space *sp, double ratio, rng *r);
/* How a local mutation picks its genes: uniformly among all effective genes,
 * or first one of the evolved groups (V, I, C, Q) with effective genes,
 * uniformly, then a gene in it. */
typedef enum { GA_WEIGHT_GENES = 0, GA_WEIGHT_GROUPS } ga_weighting;

/* Local mutation: k genes among the effective ones; V and I move by +-1..3,
 * a scheme changes to another, a queue order swaps two competing inputs. */
void ga_mutate_local(sim_config *c, const ga_space *sp, const ga_effective *e, int k, ga_weighting w, rng *r);
/* Uniform crossover: each evolved gene of a takes b's value with
 * probability rate (a Q list is one gene). */
void ga_crossover(sim_config *a, const sim_config *b, const ga_space *sp, double rate, rng *r);
/* Number of evolved genes (V counts one, each Q list one). */
int64_t ga_gene_count(const sim_config *c, const ga_space *sp);

#endif
