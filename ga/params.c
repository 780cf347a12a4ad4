/* The GA's parameters: defaults, checks, names and the score (ga.h). */
#include <stdio.h>
#include <string.h>

#include "ga/ga.h"
#include "util/json.h"
#include "ga/ga_internal.h"
#include "sim/stacking.h"

const char *const ga_algo_names[] = { "local", "paper" };
const char *const ga_fitness_names[] = { "duration", "estimate", "te" };
const char *const ga_weight_names[] = { "genes", "groups", "mix" };
const char *const ga_ties_names[] = { "random", "age" };
const char *const ga_record_names[] = { "all", "sparse" };
const char *const ga_start_names[] = { "stacking", "timetable" };
const char *const ga_delta_names[] = { "off", "on" };
const char *const ga_key_names[] = { "none", "or", "ob", "te", "te-rev", "tb", "lb", "late", "late-lb", "tail", "late3", "late-sum" };

void ga_params_for_algo(ga_params *gp, ga_algo algo)
{
    gp->algo = algo;
    if (algo == GA_ALGO_PAPER) {
        gp->pop = 50;
        gp->children = 1;
        gp->generations = 1000;
        gp->sort_key = GA_KEY_NONE;
        gp->shift = 0;
        gp->target = 0;
        gp->record = GA_RECORD_ALL;
        gp->max_evals = 0;
        gp->start = GA_START_STACKING;
    } else {
        /* The paper's budget, 50,000 simulations (children proven to repeat
         * their parent are not simulations, so it is more generations), in
         * one lineage that keeps every child no worse than itself (one a
         * generation: two, which would keep two cores busy, lose on most
         * patterns); equal durations ordered by the packets that finish in
         * the last cycle, then the second and third last (tail); groups of
         * genes drawn by the fixed mix; a third of the children aimed at a
         * late packet; no line shifts (data/ga_study.md says why). */
        gp->pop = 1;
        gp->children = 1;
        gp->generations = GA_COUNT_MAX;
        gp->max_evals = GA_BUDGET;
        gp->sort_key = GA_KEY_TAIL;
        gp->weights = GA_WEIGHT_MIX;
        gp->shift = 0;
        gp->target = 0.3;
        gp->record = GA_RECORD_SPARSE;
        gp->start = GA_START_STACKING;
    }
}

void ga_params_default(ga_params *gp)
{
    memset(gp, 0, sizeof *gp);
    gp->algo = GA_ALGO_LOCAL;
    gp->pop = 50;
    gp->children = 1;
    gp->generations = 1000;
    gp->train = 100;
    gp->mutation = 0.05;
    gp->max_genes = 8;
    gp->target_window = 3;
    gp->crossover_interval = 10;
    gp->crossover_rate = 0.4;
    gp->ties = GA_TIES_RANDOM;
    gp->watchdog = 0;
    gp->lifetime = 0;
    gp->genes = GENE_ALL;
    gp->arb = 0;
    gp->stack_vmax = SIM_STACK_VMAX_DEFAULT;
    gp->sort_key = GA_KEY_NONE;
    gp->fitness = GA_FIT_DURATION;
    gp->estimate_slices = 2;
    gp->perturb = 0;
    gp->threads = 1;
    /* Same results, fewer instructions a child (issue 38, data/delta_ceiling.md). */
    gp->delta = GA_DELTA_ON;
    gp->seed = 1;
}

int ga_params_check(const ga_params *gp, char *err, size_t errlen)
{
    if (gp->pop < GA_POP_MIN || gp->pop > GA_POP_MAX)
        return snprintf(err, errlen, "pop %d: must be in [%d, %d]", gp->pop, GA_POP_MIN, GA_POP_MAX), -1;
    if (gp->generations < 0) return snprintf(err, errlen, "generations %d: must be >= 0", gp->generations), -1;
    if (gp->train < 0) return snprintf(err, errlen, "train %d: must be >= 0", gp->train), -1;
    if (!(gp->mutation >= GA_MUTATION_MIN && gp->mutation <= 1))
        return snprintf(err, errlen, "mutation %g: must be in [%g, 1]", gp->mutation, GA_MUTATION_MIN), -1;
    if (gp->max_genes < 1 || gp->max_genes > GA_MAX_GENES_MAX)
        return snprintf(err, errlen, "max_genes %d: must be in [1, %d]", gp->max_genes, GA_MAX_GENES_MAX), -1;
    if (gp->crossover_rate < 0 || gp->crossover_rate > 1) return snprintf(err, errlen, "crossover_rate %g: must be in [0, 1]", gp->crossover_rate), -1;
    if (!(gp->shift >= 0 && gp->shift <= 1)) return snprintf(err, errlen, "shift %g: must be in [0, 1]", gp->shift), -1;
    if (!(gp->target >= 0 && gp->target <= 1)) return snprintf(err, errlen, "target %g: must be in [0, 1]", gp->target), -1;
    if (gp->target_window < 1 || gp->target_window > GA_TARGET_WINDOW_MAX)
        return snprintf(err, errlen, "target_window %d: must be in [1, %d]", gp->target_window, GA_TARGET_WINDOW_MAX), -1;
    if (gp->watchdog > 0 && gp->lifetime > 0)
        return snprintf(err, errlen, "watchdog and lifetime exclude each other (set one of them to 0)"), -1;
    if (gp->genes == 0 || gp->genes > GENE_ALL) return snprintf(err, errlen, "genes: need at least one of V,I,C,Q"), -1;
    if (gp->arb < 0 || gp->arb >= VCSEL_NSCHEMES) return snprintf(err, errlen, "arb: must be C00-C09"), -1;
    if (gp->estimate_slices < 1 || gp->estimate_slices > SIM_MAX_SLICES)
        return snprintf(err, errlen, "estimate_slices %d: must be in [1, %d]", gp->estimate_slices, SIM_MAX_SLICES), -1;
    if (gp->perturb < 0 || gp->perturb > GA_PERTURB_MAX)
        return snprintf(err, errlen, "perturb %d: must be in [0, %d]", gp->perturb, GA_PERTURB_MAX), -1;
    if (gp->children < 1 || gp->children > GA_CHILDREN_MAX)
        return snprintf(err, errlen, "children %d: must be in [1, %d]", gp->children, GA_CHILDREN_MAX), -1;
    if ((unsigned)gp->start >= GA_START_COUNT) return snprintf(err, errlen, "start: must be stacking or timetable"), -1;
    if ((unsigned)gp->delta >= GA_DELTA_COUNT) return snprintf(err, errlen, "delta: must be off or on"), -1;
    if (gp->children > 1 && gp->perturb > 0)
        return snprintf(err, errlen, "children %d and perturb %d exclude each other (set children 1 or perturb 0)",
                        gp->children, gp->perturb), -1;
    return 0;
}

int ga_setup_check(const ga_params *gp, const sim_params *sp, char *err, size_t errlen)
{
    if (ga_params_check(gp, err, errlen) || sim_params_check(sp, err, errlen)) return -1;
    if (gp->interval && gp->interval < (uint32_t)sp->flits)
        return snprintf(err, errlen, "interval: %u is below the packet length %d (allowed: >= %d)", gp->interval,
                        sp->flits, sp->flits), -1;
    return 0;
}

const char *ga_genes_name(unsigned genes, char *buf)
{
    const char *names = "VICQ";
    char *p = buf;
    for (int k = 0; k < 4; k++)
        if (genes & (1u << k)) {
            if (p != buf) *p++ = ',';
            *p++ = names[k];
        }
    *p = '\0';
    return buf;
}

json_t *ga_params_json(const ga_params *gp)
{
    char genes[8];
    return json_pack("{s:s, s:i, s:i, s:i, s:i, s:f, s:i, s:s, s:f, s:f, s:i, s:i, s:f, s:i, s:s, s:i, s:i, s:s, s:s, "
                     "s:I, s:i, s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:I}",
                     "algo", ga_algo_names[gp->algo], "pop", gp->pop, "children", gp->children,
                     "generations", gp->generations, "train", gp->train, "mutation", gp->mutation,
                     "max_genes", gp->max_genes, "weights", ga_weight_names[gp->weights], "shift", gp->shift,
                     "target", gp->target, "target_window", gp->target_window,
                     "crossover_interval", gp->crossover_interval, "crossover_rate", gp->crossover_rate,
                     "crossover_pairs", gp->crossover_pairs, "ties", ga_ties_names[gp->ties], "watchdog", gp->watchdog,
                     "lifetime", gp->lifetime, "genes", ga_genes_name(gp->genes, genes), "arb", vcsel_name(gp->arb),
                     "interval", (json_int_t)gp->interval, "stack_vmax", gp->stack_vmax,
                     "sort_key", ga_key_names[gp->sort_key], "record", ga_record_names[gp->record],
                     "start", ga_start_names[gp->start],
                     "fitness", ga_fitness_names[gp->fitness], "estimate_slices", gp->estimate_slices,
                     "perturb", gp->perturb, "max_evals", (json_int_t)gp->max_evals, "ga_seed", (json_int_t)gp->seed);
}

int ga_score_lean(const ga_params *gp)
{
    if (gp->fitness != GA_FIT_DURATION) return 0;
    switch (gp->sort_key) {
    case GA_KEY_NONE: case GA_KEY_LATE: case GA_KEY_TAIL: case GA_KEY_LATE3: case GA_KEY_LATE_SUM: return 1;
    default: return 0;
    }
}

int64_t ga_score(const ga_params *gp, const sim_metrics *m)
{
    if (m->status != SIM_OK) return GA_SCORE_INF;
    int64_t primary = m->duration, sec = 0;
    if (gp->fitness == GA_FIT_ESTIMATE) primary = m->te * (gp->estimate_slices - 1) + m->duration;
    else if (gp->fitness == GA_FIT_TE) primary = m->te;
    switch (gp->sort_key) {
    case GA_KEY_OR:     sec = m->or_; break;
    case GA_KEY_OB:     sec = m->ob; break;
    case GA_KEY_TE:     sec = m->te; break;
    case GA_KEY_TE_REV: sec = ((int64_t)1 << GA_KEY_BITS) - 1 - m->te; break;
    case GA_KEY_TB:     sec = m->ib + m->ob; break;
    case GA_KEY_LB:     sec = m->lb; break;
    case GA_KEY_LATE:   sec = m->late; break;
    case GA_KEY_LATE_LB: sec = (m->late < 255 ? m->late : 255) << 16 | (m->lb < 65535 ? m->lb : 65535); break;
    case GA_KEY_TAIL:   sec = m->tail_profile; break;
    case GA_KEY_LATE3:  sec = (m->tail_profile >> 16 & 255) + (m->tail_profile >> 8 & 255) + (m->tail_profile & 255); break;
    case GA_KEY_LATE_SUM: sec = m->late_sum; break;
    default:            sec = 0; break;
    }
    if (sec < 0) sec = 0;
    if (sec >= ((int64_t)1 << GA_KEY_BITS)) sec = ((int64_t)1 << GA_KEY_BITS) - 1;
    /* Metrics (from a checkpoint, say) too large to shift are no better than a failure. */
    if (primary < 0 || primary >= (GA_SCORE_INF >> GA_KEY_BITS)) return GA_SCORE_INF;
    return (primary << GA_KEY_BITS) | sec;
}
