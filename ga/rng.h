/* The GA's random numbers: xoshiro256** seeded through splitmix64.  One
 * generator per GA run, used only by the thread that drives the generations,
 * so a run's result depends on its seed and not on the number of threads. */
#ifndef NOCSIM_GA_RNG_H
#define NOCSIM_GA_RNG_H

#include <stdint.h>

typedef struct { uint64_t s[4]; } ga_rng;

static inline uint64_t ga_rng_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void ga_rng_seed(ga_rng *r, uint64_t seed)
{
    for (int k = 0; k < 4; k++) r->s[k] = ga_rng_splitmix(&seed);
}

static inline uint64_t ga_rng_next(ga_rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5, result = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift; the tiny bias is
 * irrelevant at GA sizes and keeps it branch-free). */
static inline uint32_t ga_rng_below(ga_rng *r, uint32_t n)
{
    return (uint32_t)(((ga_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [0, 1). */
static inline double ga_rng_unit(ga_rng *r) { return (double)(ga_rng_next(r) >> 11) * 0x1.0p-53; }

#endif
