/* A GA run's complete state as one compressed blob: parameters, traffic,
 * random generator, ranges, baselines, population and the signatures
 * recorded.  Resuming from it continues exactly as the run would have. */
#ifndef NOCSIM_GA_CHECKPOINT_H
#define NOCSIM_GA_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "ga/ga.h"

int ga_checkpoint_save(const ga *g, uint8_t **blob, size_t *len, char *err, size_t errlen);
/* Build a GA from a blob (threads <= 0: as saved). */
ga *ga_checkpoint_load(const uint8_t *blob, size_t len, int threads, char *err, size_t errlen);

#endif
