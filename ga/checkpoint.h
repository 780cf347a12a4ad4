/* A GA run's complete state as one compressed blob: parameters, traffic,
 * random generator, ranges, baselines, population and the signatures
 * recorded.  Resuming from it continues exactly as the run would have. */
#ifndef NOCSIM_GA_CHECKPOINT_H
#define NOCSIM_GA_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "ga/ga.h"

int ga_checkpoint_save(const ga *g, uint8_t **blob, size_t *len, char *err, size_t errlen);
/* Only the simulation context of a blob: parameters, traffic name and
 * destinations (*dest malloc'd, caller frees; traffic of 256 bytes). */
int ga_checkpoint_peek(const uint8_t *blob, size_t len, ga_params *gp, sim_params *sp, int32_t **dest,
                       char *traffic, char *err, size_t errlen);
/* Build a GA from a blob (threads <= 0: as saved). */
ga *ga_checkpoint_load(const uint8_t *blob, size_t len, int threads, char *err, size_t errlen);

#endif
