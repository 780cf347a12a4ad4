/* Chromosome encodings of paper 002 and their problem-specific operators.
 *
 * Scatter (OAS/AAS/MNS), a direct encoding: per message (path index, step).
 * Broadcast (OAB/AAB/MNB), an indirect encoding: per delivery (origin ->
 * receiver) the (source node, path index, step) that brings it there.
 *
 * A chromosome is a flat int vector of variables; variable i takes values in
 * [0, card[i]), which is all a univariate model or a GA needs to know.
 * Evaluation repairs the vector in place (Lamarckian): restoration for
 * broadcasts, acceleration for the K-port limit. */
#ifndef NOCSIM_CC_ENCODING_H
#define NOCSIM_CC_ENCODING_H

#include "cc/paths.h"
#include "cc/problem.h"
#include "cc/rng.h"
#include "cc/schedule.h"

typedef struct cc_enc cc_enc;

/* steps: the target number of steps S. */
cc_enc *cc_enc_new(const cc_problem *pb, const cc_paths *paths, int steps, char err[CC_ERRLEN]);
void cc_enc_free(cc_enc *e);

int cc_enc_nvar(const cc_enc *e);
const int *cc_enc_card(const cc_enc *e);
int cc_enc_gene_width(const cc_enc *e);   /* variables per gene: 2 or 3 */

void cc_enc_random(cc_enc *e, int *x, cc_rng *r);
/* Repair x in place and return its conflict count (0 = a valid schedule in
 * the target number of steps). */
long cc_enc_eval(cc_enc *e, int *x, cc_rng *r);
/* The mutation of paper 002: pick a communication (preferably one in
 * conflict) and test its alternatives — other paths, other informed sources
 * (broadcast), swapped time slots (scatter) — keeping the least conflicting. */
void cc_enc_mutate(cc_enc *e, int *x, cc_rng *r);
/* Turn an evaluated x into a schedule (appends to out). */
bool cc_enc_decode(cc_enc *e, const int *x, cc_schedule *out);

#endif
