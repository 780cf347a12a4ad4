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
#include "util/fault.h"
#include "util/rng.h"
#include "cc/schedule.h"

typedef struct cc_enc cc_enc;

/* Most tested moves one mutation makes (it makes 1..this many, uniformly).
 * Broadcast moves are small (one delivery's source or path), and a tree
 * repaired by restoration needs several at once to change shape; scatter
 * moves already re-place a message at its best (step, path), so two suffice.
 * These are the values the former CC_MOVES environment knob defaulted to. */
#define CC_ENC_MOVES_BC 16
#define CC_ENC_MOVES_SC 2

/* steps: the target number of steps S.  neighbour_only (broadcasts): every
 * delivery is a one-hop transfer from an informed neighbour, as in SF.  Such
 * a schedule is also a WH schedule of the same length, and for WH all-to-all
 * broadcast it is the space worth searching: there the bound leaves almost no
 * channel-steps spare, so every delivery must be (nearly) one hop anyway
 * (paper 000: "WH AAB can be served best by SF-oriented HGSA"). */
/* *out is the new encoding (free with cc_enc_free; pb and paths must outlive
 * it), or NULL: CC_EINPUT when a scatter message has no route, CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_enc_new(const cc_problem *pb, const cc_paths *paths, int steps, bool neighbour_only, cc_enc **out, char *err, size_t errlen);
void cc_enc_free(cc_enc *e);
/* A second encoding of the same problem, paths, S and mode (its own scratch
 * space, so two threads can evaluate at once).  CC_OK or CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_enc_clone(const cc_enc *e, cc_enc **out, char *err, size_t errlen);

int cc_enc_nvar(const cc_enc *e);
const int *cc_enc_card(const cc_enc *e);
int cc_enc_gene_width(const cc_enc *e);   /* variables per gene: 2 or 3 */

void cc_enc_random(cc_enc *e, int *x, rng *r);
/* Repair x in place and return its conflict count (0 = a valid schedule in
 * the target number of steps). */
long cc_enc_eval(cc_enc *e, int *x, rng *r);
/* The mutation of paper 002: pick a communication (preferably one in
 * conflict) and test its alternatives — other paths, other informed sources
 * (broadcast), swapped time slots (scatter) — keeping the least conflicting. */
void cc_enc_mutate(cc_enc *e, int *x, rng *r);
/* The same with 1..maxmoves tested moves (cc_enc_mutate uses
 * CC_ENC_MOVES_BC / CC_ENC_MOVES_SC): a population method wants big jumps,
 * a local search single moves. */
void cc_enc_mutate_n(cc_enc *e, int *x, rng *r, int maxmoves);
/* Turn x, evaluated last by cc_enc_eval, into a schedule (appends to out).
 * CC_OK, or CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_enc_decode(cc_enc *e, const int *x, cc_schedule *out);
/* The target step count S it was built for. */
int cc_enc_steps(const cc_enc *e);

/* A hook the front end uses for its progress line: fn(ctx, evaluations so
 * far) every CC_ENC_PROGRESS_EVERY calls of cc_enc_eval on e (the
 * algorithm's evaluations: those inside cc_enc_mutate_n do not count) (not on its
 * clones, so it runs in the caller's thread only).  fn NULL: none. */
#define CC_ENC_PROGRESS_EVERY 256
typedef void (*cc_enc_progress_fn)(void *ctx, long evals);
void cc_enc_set_progress(cc_enc *e, cc_enc_progress_fn fn, void *ctx);

#endif
