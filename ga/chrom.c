/* Canonical chromosome encoding and its CRC-32 signature (see chrom.h). */
#include "ga/chrom.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define HEADER 12
/* A rectangle's extra header: u16 H, u16 0. */
#define RECT_EXTRA 4

size_t chrom_grid_size(int w, int h, int vcs)
{
    size_t nodes = (size_t)w * (size_t)h;
    return HEADER + (w != h ? RECT_EXTRA : 0) + 2 * nodes + NPORTS * nodes + NPORTS * nodes * (size_t)vcs * NPORTS;
}

size_t chrom_encoded_size(int n, int vcs) { return chrom_grid_size(n, n, vcs); }

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }
static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | get16(p + 2) << 16; }

void chrom_encode(const sim_config *c, int w, uint8_t *buf)
{
    size_t nodes = (size_t)c->nodes;
    int h = c->nodes / w;
    memcpy(buf, CHROM_MAGIC, 4);
    put16(buf + 4, (uint32_t)w);
    buf[6] = (uint8_t)c->vcs;
    buf[7] = w != h;
    put32(buf + 8, c->interval);
    uint8_t *p = buf + HEADER;
    if (w != h) {
        put16(p, (uint32_t)h);
        put16(p + 2, 0);
        p += RECT_EXTRA;
    }
    for (size_t i = 0; i < nodes; i++, p += 2) put16(p, c->inject[i]);
    memcpy(p, c->scheme, NPORTS * nodes);
    p += NPORTS * nodes;
    memcpy(p, c->qorder, NPORTS * nodes * (size_t)c->vcs * NPORTS);
}

int chrom_peek(const uint8_t *buf, size_t len, int *w, int *h, int *vcs)
{
    if (len < HEADER || memcmp(buf, CHROM_MAGIC, 4) != 0 || buf[7] > 1) return -1;
    *w = *h = (int)get16(buf + 4);
    *vcs = buf[6];
    if (buf[7]) {
        if (len < HEADER + RECT_EXTRA || get16(buf + HEADER + 2) != 0) return -1;
        *h = (int)get16(buf + HEADER);
        if (*h == *w) return -1;   /* a square has one encoding */
    }
    if (*w < 2 || *h < 2 || *vcs < 1 || len != chrom_grid_size(*w, *h, *vcs)) return -1;
    return 0;
}

int chrom_decode_grid(sim_config *c, int want_w, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
    int w, h, vcs;
    if (chrom_peek(buf, len, &w, &h, &vcs))
        return snprintf(err, errlen, "not a chromosome encoding (bad magic or length)"), -1;
    if (w * h != c->nodes || vcs != c->vcs || (want_w > 0 && w != want_w)) {
        if (w == h)
            return snprintf(err, errlen, "chromosome is for a %dx%d torus with %d VCs, this run is %d nodes with %d VCs",
                            w, h, vcs, c->nodes, c->vcs), -1;
        return snprintf(err, errlen, "chromosome is for a %dx%d network with %d VCs, this run is %d nodes with %d VCs",
                        w, h, vcs, c->nodes, c->vcs), -1;
    }
    c->interval = get32(buf + 8);
    const uint8_t *p = buf + HEADER + (w != h ? RECT_EXTRA : 0);
    for (int i = 0; i < c->nodes; i++, p += 2) c->inject[i] = (uint16_t)get16(p);
    memcpy(c->scheme, p, NPORTS * (size_t)c->nodes);
    p += NPORTS * (size_t)c->nodes;
    memcpy(c->qorder, p, NPORTS * (size_t)c->nodes * (size_t)vcs * NPORTS);
    return sim_config_check(c, err, errlen);
}

int chrom_decode(sim_config *c, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
    return chrom_decode_grid(c, 0, buf, len, err, errlen);
}

uint32_t chrom_signature(const sim_config *c, int w, uint8_t *scratch)
{
    size_t len = chrom_grid_size(w, c->nodes / w, c->vcs);
    chrom_encode(c, w, scratch);
    /* zlib's crc32 takes a uInt length; chromosomes stay far below 4 GiB. */
    return (uint32_t)crc32(crc32(0L, Z_NULL, 0), scratch, (uInt)len);
}

/* ---- a signature from another's ----
 *
 * For two messages of one length, CRC-32 (zlib's: initial and final value
 * all ones) is affine: crc(A) ^ crc(B) = L(A ^ B), with L the CRC of
 * initial and final value 0, which is linear.  A ^ B is zero but for the
 * bytes that differ; leading zeros leave L unchanged, and each trailing
 * zero byte multiplies it by x^8 modulo the polynomial.  So a block D of k
 * bytes that differ at offset o of an n-byte message contributes
 * L(D) x^(8 (n - o - k)): crc32_combine_op shifts by a power that
 * crc32_combine_gen computes, and L(D) is crc(D) ^ crc(k zero bytes). */

typedef struct {
    uint32_t crc;
    size_t total;   /* the encoding's length */
} sigacc;

static void sig_block(sigacc *a, size_t off, const uint8_t *d, size_t k)
{
    static const uint8_t zero[8];
    const uLong lin = crc32(0L, d, (uInt)k) ^ crc32(0L, zero, (uInt)k);
    a->crc ^= (uint32_t)crc32_combine_op(lin, 0L, crc32_combine_gen((z_off_t)(a->total - off - k)));
}

/* The block of k <= 8 bytes at a + i (the base's, made b's) against b + i. */
static void sig_block_at(sigacc *acc, size_t off, uint8_t *a, const uint8_t *b, size_t i, size_t k)
{
    uint8_t d[8];
    size_t any = 0;
    for (size_t j = 0; j < k; j++) any |= d[j] = a[i + j] ^ b[i + j];
    if (!any) return;
    sig_block(acc, off + i, d, k);
    memcpy(a + i, b + i, k);
}

/* The bytes a[0 .. len) (the base's, made b's) and b[0 .. len), encoded
 * at offset off, in blocks of eight: a block that differs anywhere enters
 * whole (its equal bytes XOR to zero).  Four blocks are compared at once:
 * nearly all are equal. */
static void sig_bytes(sigacc *acc, size_t off, uint8_t *a, const uint8_t *b, size_t len)
{
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        uint64_t x[4], y[4];
        memcpy(x, a + i, 32);
        memcpy(y, b + i, 32);
        if (!((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3]))) continue;
        for (size_t q = 0; q < 32; q += 8) sig_block_at(acc, off, a, b, i + q, 8);
    }
    for (; i < len; i += 8) sig_block_at(acc, off, a, b, i, len - i < 8 ? len - i : 8);
}

/* Two little-endian fields of n bytes (2 or 4, encoded as put32's first n),
 * x the base's, y c's. */
static void sig_field(sigacc *acc, size_t off, uint32_t x, uint32_t y, size_t n)
{
    uint8_t d[4];
    put32(d, x ^ y);
    sig_block(acc, off, d, n);
}

uint32_t chrom_signature_follow(sim_config *base, uint32_t base_crc, const sim_config *c, int w)
{
    const size_t nodes = (size_t)c->nodes;
    const int h = c->nodes / w;
    sigacc acc = { base_crc, chrom_grid_size(w, h, c->vcs) };
    if (base->interval != c->interval) {
        sig_field(&acc, 8, base->interval, c->interval, 4);
        base->interval = c->interval;
    }
    size_t off = HEADER + (w != h ? RECT_EXTRA : 0);
    for (size_t i = 0; i < nodes; i++)
        if (base->inject[i] != c->inject[i]) {
            sig_field(&acc, off + 2 * i, base->inject[i], c->inject[i], 2);
            base->inject[i] = c->inject[i];
        }
    off += 2 * nodes;
    sig_bytes(&acc, off, base->scheme, c->scheme, NPORTS * nodes);
    off += NPORTS * nodes;
    sig_bytes(&acc, off, base->qorder, c->qorder, NPORTS * nodes * (size_t)c->vcs * NPORTS);
    return acc.crc;
}
