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
