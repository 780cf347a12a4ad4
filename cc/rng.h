/* A small deterministic PRNG (xoshiro256**, seeded through splitmix64) kept in
 * a struct, so every search is reproducible from its --seed and no state is
 * shared between concurrent runs. */
#ifndef NOCSIM_CC_RNG_H
#define NOCSIM_CC_RNG_H

#include <stdint.h>

typedef struct { uint64_t s[4]; } cc_rng;

void cc_rng_seed(cc_rng *r, uint64_t seed);
uint64_t cc_rng_next(cc_rng *r);
/* Uniform integer in [0, n); n must be > 0. */
int cc_rng_below(cc_rng *r, int n);
/* Uniform double in [0, 1). */
double cc_rng_unit(cc_rng *r);

#endif
