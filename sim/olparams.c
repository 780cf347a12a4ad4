/* Open-loop parameters (see openloop.h): the defaults, their ranges, the
 * packet-length mix and a point's seed.  Kept apart from openloop.c's run
 * so that each file stays one subject. */
#include "sim/openloop.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/olreport.h"
#include "util/parse.h"
#include "util/quote.h"

void ol_params_default(ol_params *p)
{
    memset(p, 0, sizeof *p);
    p->net = (olnet_params){ .rp = { .n = OL_DEFAULT_SIDE, .w = OL_DEFAULT_SIDE, .h = OL_DEFAULT_SIDE,
                                     .topo = TOPO_MESH, .tie = TIE_NOWRAP, .dateline = DATELINE_ON_LINK },
                             .vc_rule = VCRULE_ANY, .vcs = SIM_DEFAULT_VCS, .buffer = SIM_DEFAULT_BUFFER,
                             .scheme = 0, .q_update = QUPDATE_TAIL };
    p->process = OL_BERNOULLI;
    p->nlen = 1;
    p->len[0] = SIM_DEFAULT_FLITS;
    p->prob[0] = 1.0;
    p->batch = OL_DEFAULT_BATCH;
    p->warmup_min = OL_DEFAULT_WARMUP_MIN;
    p->warmup_max = OL_DEFAULT_WARMUP_MAX;
    p->warmup_tol = OL_DEFAULT_WARMUP_TOL;
    p->window = OL_DEFAULT_WINDOW;
    p->drain_cap = OL_DEFAULT_DRAIN_CAP;
    p->accept_tol = OL_DEFAULT_ACCEPT_TOL;
    p->latency_limit = OL_DEFAULT_LATENCY_LIMIT;
}

int ol_params_check(const ol_params *p, char *err, size_t errlen)
{
    if (p->batch < OL_BATCH_MIN || p->batch > OL_BATCH_MAX)
        return snprintf(err, errlen, "batch %d: allowed [%d, %d]", p->batch, OL_BATCH_MIN, OL_BATCH_MAX), -FAULT_INPUT;
    if (p->warmup_min < 1 || p->warmup_max < p->warmup_min || p->warmup_max > OL_WARMUP_MAX)
        return snprintf(err, errlen, "warmup_min %d, warmup_max %d: allowed 1 <= min <= max <= %d", p->warmup_min,
                        p->warmup_max, OL_WARMUP_MAX), -FAULT_INPUT;
    if (!(p->warmup_tol >= 0 && p->warmup_tol <= 1))
        return snprintf(err, errlen, "warmup_tol %g: allowed [0, 1]", p->warmup_tol), -FAULT_INPUT;
    if (p->window < OL_WINDOW_MIN || p->window > OL_WINDOW_MAX)
        return snprintf(err, errlen, "window %d: allowed [%d, %d] batches", p->window, OL_WINDOW_MIN, OL_WINDOW_MAX),
               -FAULT_INPUT;
    if (p->drain_cap < 0 || p->drain_cap > OL_DRAIN_CAP_MAX)
        return snprintf(err, errlen, "drain_cap %lld: allowed [0, %d]", (long long)p->drain_cap, OL_DRAIN_CAP_MAX),
               -FAULT_INPUT;
    if (!(p->accept_tol >= 0 && p->accept_tol < 1))
        return snprintf(err, errlen, "accept_tol %g: allowed [0, 1)", p->accept_tol), -FAULT_INPUT;
    if (!(p->latency_limit >= OL_LATENCY_LIMIT_MIN && p->latency_limit <= OL_LATENCY_LIMIT_MAX))
        return snprintf(err, errlen, "latency_limit %g: allowed [%g, %g]", p->latency_limit, OL_LATENCY_LIMIT_MIN,
                        OL_LATENCY_LIMIT_MAX), -FAULT_INPUT;
    return ol_params_check_extras(p, err, errlen);
}

double ol_mean_length(const ol_params *p)
{
    double m = 0;
    for (int k = 0; k < p->nlen; k++) m += p->len[k] * p->prob[k];
    return m;
}

int ol_parse_packet_mix(ol_params *p, const char *spec, char *err, size_t errlen)
{
    char q[QUOTE_BUF];
    int64_t v;
    if (parse_int(spec, 1, OLNET_MAX_FLITS, &v) == PARSE_OK) {
        p->nlen = 1;
        p->len[0] = (int)v;
        p->prob[0] = 1.0;
        return 0;
    }
    int nlen = 0, len[OL_MAX_LENGTHS];
    double prob[OL_MAX_LENGTHS], sum = 0;
    const char *s = spec;
    while (*s) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        char item[64];
        if (n == 0 || n >= sizeof item || nlen == OL_MAX_LENGTHS) goto bad;
        memcpy(item, s, n);
        item[n] = '\0';
        char *colon = strchr(item, ':');
        if (!colon) goto bad;
        *colon = '\0';
        double pr;
        if (parse_int(item, 1, OLNET_MAX_FLITS, &v) != PARSE_OK) goto bad;
        if (parse_real(colon + 1, 0.0, 1.0, &pr) != PARSE_OK || pr <= 0) goto bad;
        len[nlen] = (int)v;
        prob[nlen++] = pr;
        sum += pr;
        s += n;
        if (*s == ',') {
            s++;
            if (!*s) goto bad;
        }
    }
    if (nlen == 0) goto bad;
    if (fabs(sum - 1.0) > 1e-9) {
        snprintf(err, errlen, "'%s': the probabilities sum to %g, not 1", quote_str(q, sizeof q, spec), sum);
        return -FAULT_INPUT;
    }
    p->nlen = nlen;
    memcpy(p->len, len, sizeof len);
    memcpy(p->prob, prob, sizeof prob);
    return 0;
bad:
    snprintf(err, errlen,
             "'%s': expected a length in [1, %d] or a mix LEN:PROB,... (at most %d lengths, each "
             "probability in (0, 1])",
             quote_str(q, sizeof q, spec), OLNET_MAX_FLITS, OL_MAX_LENGTHS);
    return -1;
}

uint64_t ol_point_seed(uint64_t seed, double rate)
{
    uint64_t s = seed ^ (uint64_t)llround(rate * 1e9) * 0x9e3779b97f4a7c15ull;
    return rng_splitmix64(&s);
}
