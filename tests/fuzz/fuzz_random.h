/* The random driver of a fuzz target built with -DFUZZ_RANDOM_MAIN, which
 * make check runs for a budget of seconds where libFuzzer is not wanted:
 * the target's LLVMFuzzerTestOneInput fed the inputs of seeds SEED, SEED+1,
 * ..., each up to cap - 1 bytes drawn by splitmix64 from its seed, so that
 * `TARGET 0 S` runs the input of seed S again. */
#ifndef NOCSIM_TESTS_FUZZ_RANDOM_H
#define NOCSIM_TESTS_FUZZ_RANDOM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "util/rng.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_RANDOM_MAX_CAP 1024

/* Inputs for argv[1] seconds (default 5) from seed argv[2] (default 1),
 * inputs shorter than cap (at most FUZZ_RANDOM_MAX_CAP); *current is the
 * seed being run, for the target's failure message, and *first the first.
 * Returns how many inputs ran. */
static inline long fuzz_random_feed(int argc, char **argv, size_t cap, long long *current, uint64_t *first)
{
    const double seconds = argc > 1 ? atof(argv[1]) : 5;
    const uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint8_t buf[FUZZ_RANDOM_MAX_CAP];
    if (cap > sizeof buf) cap = sizeof buf;
    long runs = 0;
    do {
        uint64_t st = seed + (uint64_t)runs;
        size_t len = (size_t)(rng_splitmix64(&st) % cap);
        for (size_t k = 0; k < len; k++) buf[k] = (uint8_t)rng_splitmix64(&st);
        *current = (long long)(seed + (uint64_t)runs);
        LLVMFuzzerTestOneInput(buf, len);
        runs++;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
    *first = seed;
    return runs;
}

#endif
