/* A GA run's complete state as one compressed blob: parameters, traffic,
 * random generator, ranges, baselines, population and the signatures
 * recorded.  Resuming from it continues exactly as the run would have.
 *
 * A blob is signed: the CRC-32 of its decoded bytes ends it, and peek and
 * load refuse a blob whose contents do not give its signature ("database is
 * damaged: checkpoint: its contents give CRC-32 X, its signature says Y")
 * before reading any field, so an edit that stays in range is refused too.
 * A blob read back is untrusted input (it comes from a file): peek and load
 * also check every field's range as they read it (parameters as ga_params_check
 * and sim_params_check, each destination, RNG state, counters, metrics,
 * every chromosome's genes, each score against its metrics, the exact
 * length) and refuse anything else with "database is damaged: checkpoint:
 * <field> = <value>, outside [lo, hi]" (or "out of memory ..."), never
 * using a bad value.  A blob saved before ga_start ran (the first
 * checkpoint of a run) has space.genes == 0 and generation 0. */
#ifndef NOCSIM_GA_CHECKPOINT_H
#define NOCSIM_GA_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "ga/ga.h"
#include "util/fault.h"

/* Failures have the kinds of util/fault.h: -FAULT_RESOURCE (memory),
 * -FAULT_IO (a damaged blob: "database is damaged: checkpoint: ..."),
 * -FAULT_INPUT (a blob of an earlier format: another version resumes it),
 * -FAULT_INTERNAL (zlib refused to compress). */
NOCSIM_MUST_USE
int ga_checkpoint_save(const ga *g, uint8_t **blob, size_t *len, char *err, size_t errlen);
/* Only the simulation context of a blob: parameters, traffic name and
 * destinations (*dest malloc'd, caller frees; traffic of 256 bytes). */
NOCSIM_MUST_USE
int ga_checkpoint_peek(const uint8_t *blob, size_t len, ga_params *gp, sim_params *sp, int32_t **dest,
                       char *traffic, char *err, size_t errlen);
/* Build a GA from a blob (threads <= 0: as saved); *kind (may be NULL) on
 * failure. */
NOCSIM_MUST_USE
ga *ga_checkpoint_load(const uint8_t *blob, size_t len, int threads, fault_kind *kind, char *err, size_t errlen);

#endif
