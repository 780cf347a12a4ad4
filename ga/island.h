/* The island model for one GA run over several processes (paper 000's HGSA
 * exchanges solutions between a master and its slaves the same way): each
 * island evolves its own population, and every `every` generations sends its
 * best chromosome to the next island of a ring and takes in the one it
 * receives, which replaces the island's worst member when it is no worse
 * (strictly better under --algo paper, whose replacement is strict).
 *
 * The exchange itself is MPI (ga_island_run, built with `make MPI=1`); the two
 * functions below are what an island gives and takes, usable and testable
 * without MPI. */
#ifndef NOCSIM_GA_ISLAND_H
#define NOCSIM_GA_ISLAND_H

#include <stddef.h>
#include <stdint.h>

#include "ga/ga.h"
#include "util/fault.h"

/* Bytes of one migrant: the canonical encoding of a chromosome of g. */
size_t ga_island_size(const ga *g);
/* Write g's best chromosome into buf (ga_island_size bytes). */
void ga_island_emigrant(const ga *g, uint8_t *buf);
/* Evaluate the chromosome in buf, consider it for the best and the synonyms
 * (it is recorded like any other chromosome of this generation), and let it
 * replace the worst member of the population when it is no worse.  Returns 1
 * if it replaced a member, 0 if not, -FAULT_INTERNAL if buf is not a
 * chromosome of this network (err says why; nothing changed: the islands run
 * one program, so it is a bug). */
NOCSIM_MUST_USE
int ga_island_immigrant(ga *g, const uint8_t *buf, size_t len, char *err, size_t errlen);

#ifdef NOCSIM_MPI
/* Run g (started with ga_start) to its end as one island of MPI_COMM_WORLD:
 * generations in lock step (the run stops everywhere when any island is
 * done or stop() returns non-zero), an exchange every `every` generations, and at the
 * end every island's best sent to rank 0 and taken in there, so that rank 0's
 * run holds the best of all.  progress (may be NULL) is called on rank 0
 * after each generation.  Returns 0, 1 if stopped by *stop, a negative fault
 * as ga_step's (err).  stop may be NULL. */
NOCSIM_MUST_USE
int ga_island_run(ga *g, int every, int (*stop)(void), void (*progress)(const ga *g, void *ctx),
                  void *ctx, char *err, size_t errlen);
#endif

#endif
