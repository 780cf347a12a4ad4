/* The project's one random-number module: splitmix64 and xoshiro256**
 * (public-domain algorithms by Blackman and Vigna), written out so that a
 * --seed gives the same results on every platform and C library.
 *
 * Conventions: the state lives in the caller's struct or variable, so there
 * is no hidden global state and concurrent runs never share a stream.
 * Nothing here allocates or fails.  The functions are static inline because
 * the GA's operators call them in their inner loops. */
#ifndef NOCSIM_UTIL_RNG_H
#define NOCSIM_UTIL_RNG_H

#include <stdint.h>

/* One splitmix64 step: advances *state by the golden-ratio increment and
 * returns the mixed value.  Used alone where a stream of a few numbers from a
 * seed is enough (random permutations of traffic, test inputs), and to seed
 * xoshiro. */
static inline uint64_t rng_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* xoshiro256** state.  Plain data: copy it to fork a stream, store it to
 * resume one. */
typedef struct { uint64_t s[4]; } rng;

/* Seed r from one 64-bit seed (four splitmix64 steps, as the authors
 * recommend, so no seed gives the all-zero state). */
static inline void rng_seed(rng *r, uint64_t seed)
{
    for (int k = 0; k < 4; k++) r->s[k] = rng_splitmix64(&seed);
}

/* The next 64 random bits; advances r. */
static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5, result = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Uniform in [0, n) for n > 0 (n == 0 returns 0), from the high 32 bits of
 * one rng_next (Lemire's multiply-shift: branch-free; the bias, below
 * n / 2^32, is irrelevant at our sizes). */
static inline uint32_t rng_below(rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [0, 1), 53 random bits from one rng_next. */
static inline double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

#endif
