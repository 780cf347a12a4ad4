/* How many packets finish in the last few cycles of a run, and when: a
 * measure of how close a configuration is to finishing a cycle earlier, used
 * to break ties between equal durations.  Tail ejections arrive in cycle
 * order, so a ring of per-cycle counts over the last `w` cycles is exact for
 * any window up to w. */
#ifndef NOCSIM_TAILWIN_H
#define NOCSIM_TAILWIN_H

#include <stdint.h>

#define TAILWIN_MAX 256 /* >= sim_late_sum_window (sim.h) */

typedef struct {
    int w;
    int64_t t[TAILWIN_MAX];
    int32_t n[TAILWIN_MAX];
} tailwin;

static inline void tailwin_reset(tailwin *tw, int w)
{
    tw->w = w < 1 ? 1 : w > TAILWIN_MAX ? TAILWIN_MAX : w;
    for (int k = 0; k < tw->w; k++) { tw->t[k] = -1; tw->n[k] = 0; }
}

static inline void tailwin_add(tailwin *tw, int64_t t)
{
    int k = (int)(t % tw->w);
    if (tw->t[k] != t) { tw->t[k] = t; tw->n[k] = 0; }
    tw->n[k]++;
}

/* Tails ejected in cycles last-w+1 .. last (w at most the ring's). */
static inline int64_t tailwin_count(const tailwin *tw, int64_t last, int w)
{
    int64_t c = 0;
    for (int k = 0; k < tw->w; k++)
        if (tw->t[k] >= 0 && tw->t[k] > last - w) c += tw->n[k];
    return c;
}

/* The sum of the ejection cycles of the tails ejected in cycles last-w+1 ..
 * last (w at most the ring's). */
static inline int64_t tailwin_sum(const tailwin *tw, int64_t last, int w)
{
    int64_t s = 0;
    for (int k = 0; k < tw->w; k++)
        if (tw->t[k] >= 0 && tw->t[k] > last - w) s += tw->t[k] * tw->n[k];
    return s;
}

/* Tails ejected in cycles last, last-1 and last-2, packed 8 bits each (the
 * last cycle highest, counts above 255 clamped), so that comparing the packed
 * values compares the three counts lexicographically. */
static inline int64_t tailwin_profile(const tailwin *tw, int64_t last)
{
    int64_t p = 0;
    for (int64_t d = 0; d < 3; d++) {
        int64_t c = 0;
        for (int k = 0; k < tw->w; k++)
            if (tw->t[k] == last - d) c = tw->n[k];
        p = (p << 8) | (c > 255 ? 255 : c);
    }
    return p;
}

#endif
