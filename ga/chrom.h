/* A chromosome is a sim_config: the interval V, injection timings I[i],
 * VC-selection schemes C[i][d] and queue-selection orders Q[i][d][c].
 *
 * Canonical encoding (what is signed with CRC-32 and stored), all integers
 * little-endian, independent of the platform, for a network W wide and H
 * high (N x N: W = H = N):
 *   bytes 0-3   "NCG1"
 *   u16         W (the torus size N of a square), u8 vcs,
 *   u8          0 for a square, 1 for a rectangle (W != H)
 *   u32         V
 *   u16, u16    only for a rectangle: H, then 0
 *   u16 x W*H   I[i], node order (node = y * W + x)
 *   u8  x 5WH   C[i][d], d in N E S W P order, value 0-9 for C00-C09
 *   u8  x 5WH*vcs*5  Q[i][d][c][j], direction codes N=0 E=1 S=2 W=3 P=4
 * A square's bytes are those of every earlier version (byte 7 was reserved
 * as 0), so its signature is unchanged.  The signature is zlib's crc32() of
 * these bytes [R-GA-GENE-1]. */
#ifndef NOCSIM_GA_CHROM_H
#define NOCSIM_GA_CHROM_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"
#include "util/fault.h"

#define CHROM_MAGIC "NCG1"

/* Bytes of the encoding for an n x n torus with vcs VCs.  Cannot fail. */
size_t chrom_encoded_size(int n, int vcs);
/* Bytes of the encoding for a network w wide and h high.  Cannot fail. */
size_t chrom_grid_size(int w, int h, int vcs);
/* Encode c (of a network w wide and c->nodes / w high) into buf, which the
 * caller provides with chrom_grid_size(w, c->nodes / w, c->vcs) bytes.
 * Cannot fail. */
void chrom_encode(const sim_config *c, int w, uint8_t *buf);
/* Read the header of len bytes at buf into *w, *h and *vcs.  Returns 0, or
 * -1 if the bytes are no chromosome (bad magic, a bad shape byte, or a length
 * that does not match the header's size); *w, *h and *vcs are then
 * unspecified. */
NOCSIM_MUST_USE
int chrom_peek(const uint8_t *buf, size_t len, int *w, int *h, int *vcs);
/* Decode len bytes at buf into c, which the caller sized for the run.
 * Returns 0, or -1 with a message in err when the bytes are no chromosome,
 * were encoded for another network size or VC count (c unchanged), or hold a
 * value out of range (the first bad field is named; c is then partly
 * overwritten).  A chromosome of the same node count but another shape is
 * refused only through w (chrom_decode_grid). */
NOCSIM_MUST_USE
int chrom_decode(sim_config *c, const uint8_t *buf, size_t len, char *err, size_t errlen);
/* chrom_decode that also refuses a chromosome whose width is not w. */
NOCSIM_MUST_USE
int chrom_decode_grid(sim_config *c, int w, const uint8_t *buf, size_t len, char *err, size_t errlen);
/* CRC-32 of c's canonical encoding (c of a network w wide, c->nodes / w
 * high); scratch is the caller's buffer of chrom_grid_size bytes,
 * overwritten.  Cannot fail. */
uint32_t chrom_signature(const sim_config *c, int w, uint8_t *scratch);
/* chrom_signature(c, w) from base_crc, the signature of base (of c's
 * shape: nodes, VCs, w), which is made equal to c on the way: the genes
 * that differ cost a few thousand instructions each, against the ~50,000
 * of encoding and signing a 16x16 chromosome (21 KB) whole.  For a
 * sequence of chromosomes that differ in few genes.  Cannot fail. */
uint32_t chrom_signature_follow(sim_config *base, uint32_t base_crc, const sim_config *c, int w);

#endif
