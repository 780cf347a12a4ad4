/* xoshiro256** with splitmix64 seeding (public-domain algorithms by Blackman
 * and Vigna), written out here so results do not depend on the C library. */
#include "cc/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cc_rng_seed(cc_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t cc_rng_next(cc_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int cc_rng_below(cc_rng *r, int n)
{
    /* Multiply-shift: bias is below 2^-32 for the small n used here. */
    return (int)(((cc_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

double cc_rng_unit(cc_rng *r)
{
    return (double)(cc_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
