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
    p->net = (olnet_params){ .rp = { .n = 8, .w = 8, .h = 8, .topo = TOPO_MESH, .tie = TIE_NOWRAP,
                                     .dateline = DATELINE_ON_LINK },
                             .vc_rule = VCRULE_ANY, .vcs = SIM_DEFAULT_VCS, .buffer = SIM_DEFAULT_BUFFER,
                             .scheme = 0, .q_update = QUPDATE_TAIL };
    p->process = OL_BERNOULLI;
    p->nlen = 1;
    p->len[0] = SIM_DEFAULT_FLITS;
    p->prob[0] = 1.0;
    p->batch = 1000;
    p->warmup_min = 3;
    p->warmup_max = 20;
    p->warmup_tol = 0.05;
    p->window = 10;
    p->drain_cap = 20000;
    p->accept_tol = 0.02;
    p->latency_limit = 500.0;
}

int ol_params_check(const ol_params *p, char *err, size_t errlen)
{
    if (p->batch < 10 || p->batch > 1000000)
        return snprintf(err, errlen, "--batch %d: allowed [10, 1000000]", p->batch), -FAULT_INPUT;
    if (p->warmup_min < 1 || p->warmup_max < p->warmup_min || p->warmup_max > 10000)
        return snprintf(err, errlen, "--warmup %d:%d: allowed 1 <= MIN <= MAX <= 10000", p->warmup_min,
                        p->warmup_max), -FAULT_INPUT;
    if (p->window < 2 || p->window > 10000)
        return snprintf(err, errlen, "--window %d: allowed [2, 10000] batches", p->window), -FAULT_INPUT;
    if (p->drain_cap < 0 || p->drain_cap > 100000000)
        return snprintf(err, errlen, "--drain-cap %lld: allowed [0, 100000000]", (long long)p->drain_cap), -FAULT_INPUT;
    if (!(p->accept_tol >= 0 && p->accept_tol < 1))
        return snprintf(err, errlen, "--accept-tolerance %g: allowed [0, 1)", p->accept_tol), -FAULT_INPUT;
    if (!(p->latency_limit > 0))
        return snprintf(err, errlen, "--latency-limit %g: must be positive", p->latency_limit), -FAULT_INPUT;
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
        snprintf(err, errlen, "--packet '%s': the probabilities sum to %g, not 1", quote_str(q, sizeof q, spec), sum);
        return -FAULT_INPUT;
    }
    p->nlen = nlen;
    memcpy(p->len, len, sizeof len);
    memcpy(p->prob, prob, sizeof prob);
    return 0;
bad:
    snprintf(err, errlen,
             "--packet '%s': expected a length in [1, %d] or a mix LEN:PROB,... (at most %d lengths, each "
             "probability in (0, 1])",
             quote_str(q, sizeof q, spec), OLNET_MAX_FLITS, OL_MAX_LENGTHS);
    return -1;
}

uint64_t ol_point_seed(uint64_t seed, double rate)
{
    uint64_t s = seed ^ (uint64_t)llround(rate * 1e9) * 0x9e3779b97f4a7c15ull;
    return rng_splitmix64(&s);
}
