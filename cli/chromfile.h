/* Chromosome files: the configuration text format (sim/config_file.c) with
 * a versioned header saying where the chromosome comes from.  `nocsim export`
 * and `nocsim ga --save-best` write them; `--config` and `replay --file`
 * read them back, checking the network size, VC count and every range. */
#ifndef NOCSIM_CHROMFILE_H
#define NOCSIM_CHROMFILE_H

#include <stdint.h>
#include <stdio.h>

#include "sim/sim.h"
#include "util/fault.h"

typedef struct {
    const char *traffic;
    const char *topology;                /* "torus" or "mesh"; NULL reads as torus */
    int slices, flits;
    int64_t run, chromosome, duration;   /* 0 / -1 when unknown */
    uint32_t crc;
} chromfile_meta;

/* Write to path ("-" = stdout) through a temporary file renamed into place
 * (util/outfile.h), so a failed write leaves no partial file.  The traffic
 * name is escaped (util/quote.h) so the header stays three lines.  Returns 0,
 * or -1 with one line in err ("PATH: why"). */
NOCSIM_MUST_USE
int chromfile_write(const char *path, const sim_config *c, int n, const chromfile_meta *meta, char *err, size_t errlen);

/* Read a --config / --file over c (sized for an n x n torus).  A plain
 * configuration file is applied as it is; a chromosome file (first line
 * SIM_CHROM_HEADER) must be complete and its genes must give the signature
 * its header names; a file that sets nothing (empty, only comments or blank
 * lines) holds no chromosome and is refused.  Returns 0, or a negative fault
 * (util/fault.h: -FAULT_INPUT for the file and what it says, -FAULT_IO for
 * a read error, -FAULT_RESOURCE for memory) with one line in err naming the
 * file (and line) and what is wrong; c may then be partly overwritten. */
NOCSIM_MUST_USE
int chromfile_load(sim_config *c, int n, const char *path, char *err, size_t errlen);
/* chromfile_load from an open stream (not closed here); name for messages. */
NOCSIM_MUST_USE
int chromfile_read(sim_config *c, int n, FILE *f, const char *name, char *err, size_t errlen);

#endif
