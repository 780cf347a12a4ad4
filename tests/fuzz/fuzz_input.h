/* The fuzz targets' reading of their input as a stream of choices: each
 * choice takes the next byte (two when its range needs them), and once the
 * input is used up a generator seeded by its length goes on, so every
 * input, however short, drives a whole case. */
#ifndef NOCSIM_TESTS_FUZZ_INPUT_H
#define NOCSIM_TESTS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

typedef struct {
    const uint8_t *data;
    size_t size, at;
    uint64_t state;   /* the generator past the end */
} input;

/* A value in [0, range) from the next byte(s), or from the generator past
 * the end. */
static inline unsigned take(input *in, unsigned range)
{
    unsigned v;
    if (in->at < in->size) {
        v = in->data[in->at++];
        if (range > 256 && in->at < in->size) v = v << 8 | in->data[in->at++];
    } else {
        v = (unsigned)rng_splitmix64(&in->state);
    }
    return v % range;
}

#endif
