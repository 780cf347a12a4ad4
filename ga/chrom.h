/* A chromosome is a sim_config: the interval V, injection timings I[i],
 * VC-selection schemes C[i][d] and queue-selection orders Q[i][d][c].
 *
 * Canonical encoding (what is signed with CRC-32 and stored), all integers
 * little-endian, independent of the platform:
 *   bytes 0-3   "NCG1"
 *   u16         N (torus size), u8 vcs, u8 0
 *   u32         V
 *   u16 x N^2   I[i], node order
 *   u8  x 5N^2  C[i][d], d in N E S W P order, value 0-9 for C00-C09
 *   u8  x 5N^2*vcs*5  Q[i][d][c][j], direction codes N=0 E=1 S=2 W=3 P=4
 * The signature is zlib's crc32() of these bytes. */
#ifndef NOCSIM_GA_CHROM_H
#define NOCSIM_GA_CHROM_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"
#include "util/fault.h"

#define CHROM_MAGIC "NCG1"

/* Bytes of the encoding for an n x n torus with vcs VCs.  Cannot fail. */
size_t chrom_encoded_size(int n, int vcs);
/* Encode c (of an n x n torus) into buf, which the caller provides with
 * chrom_encoded_size(n, c->vcs) bytes.  Cannot fail. */
void chrom_encode(const sim_config *c, int n, uint8_t *buf);
/* Read the header of len bytes at buf into *n and *vcs.  Returns 0, or -1
 * if the bytes are no chromosome (bad magic, or a length that does not match
 * the header's size); *n and *vcs are then unspecified. */
NOCSIM_MUST_USE
int chrom_peek(const uint8_t *buf, size_t len, int *n, int *vcs);
/* Decode len bytes at buf into c, which the caller sized for the run.
 * Returns 0, or -1 with a message in err when the bytes are no chromosome,
 * were encoded for another torus size or VC count (c unchanged), or hold a
 * value out of range (the first bad field is named; c is then partly
 * overwritten). */
NOCSIM_MUST_USE
int chrom_decode(sim_config *c, const uint8_t *buf, size_t len, char *err, size_t errlen);
/* CRC-32 of c's canonical encoding; scratch is the caller's buffer of
 * chrom_encoded_size(n, c->vcs) bytes, overwritten.  Cannot fail. */
uint32_t chrom_signature(const sim_config *c, int n, uint8_t *scratch);

#endif
