/* The pictures part: PNG images written with libpng (link-activity maps) and
 * curves drawn by gnuplot (interval sweeps, GA convergence, run scatter,
 * open-loop latency curves).
 *
 * Conventions
 * - Functions that can fail take (char *err, size_t errlen) and write one
 *   line there (no newline) naming the file or the value and the cause.
 * - They return VIZ_OK, VIZ_BADINPUT (the caller's input cannot give a
 *   picture: an unwritable output path, a link range outside the network, a
 *   series too short to draw) or VIZ_FAIL (a run-time failure: out of memory,
 *   a failed write, gnuplot missing or failing).
 * - A picture is written to a temporary file beside its destination and
 *   renamed into place only when complete: on any failure no file is left. */
#ifndef NOCSIM_VIZ_H
#define NOCSIM_VIZ_H

#include "util/fault.h"

/* The values are util/fault.h's kinds: a result is its own fault_kind
 * (VIZ_FAIL is counted as I/O: both it and memory are run-time failures). */
enum { VIZ_OK = FAULT_NONE, VIZ_BADINPUT = FAULT_INPUT, VIZ_FAIL = FAULT_IO };
/* util/outfile.h's results pass through unchanged. */
#include "util/outfile.h"
_Static_assert((int)OUTFILE_OK == (int)VIZ_OK && (int)OUTFILE_BADINPUT == (int)VIZ_BADINPUT && (int)OUTFILE_FAIL == (int)VIZ_FAIL,
               "outfile and viz results differ");

#endif
