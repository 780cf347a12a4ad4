/* Traffic matrices for open-loop runs (synth.h's matrix:PATH).  A file is
 * either
 *   - "src dst rate" lines: node ids in [0, nodes-1] (node = y * w + x), a
 *     rate in [0, 1]; pairs not listed send nothing; or
 *   - a rate matrix: `nodes` lines of `nodes` rates, line i the rates of
 *     source i to destinations 0, 1, ...
 * told apart by the first line that is not blank or a comment ('#' starts
 * one): three fields are a triple (a matrix row has at least four).
 * The rates are taken as given, not normalised: at a point of rate R a
 * source i sends R x m[i][j] flits/cycle to j, so a row's sum (at most 1)
 * is its source's share of the point's rate and --rate 1 replays the
 * matrix's own rates.  A source whose row is all zero sends nothing.
 * A pair given twice, a rate out of [0, 1], a row summing above 1 (by more
 * than 1e-9) and, unless self is SYNTH_SELF_SEND, a node sending to itself
 * are refused with the file, the line and the allowed range. */
#ifndef NOCSIM_TRAFFIC_MATRIX_H
#define NOCSIM_TRAFFIC_MATRIX_H

#include <stddef.h>
#include <stdio.h>

#include "traffic/synth.h"
#include "util/fault.h"

/* Fill s's matrix fields (its w, h, nodes and self set; its matrix fields
 * NULL) from the file at path, or from f (name for messages).  0, or -1
 * with one line in err and *kind (may be NULL): FAULT_INPUT (the file
 * cannot be opened, a bad line), FAULT_IO (a read error), FAULT_RESOURCE. */
NOCSIM_MUST_USE
int synth_load_matrix(synth *s, const char *path, fault_kind *kind, char *err, size_t errlen);
NOCSIM_MUST_USE
int synth_read_matrix(synth *s, FILE *f, const char *name, fault_kind *kind, char *err, size_t errlen);

#endif
