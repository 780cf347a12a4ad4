/* Experiment files for open-loop runs (see ol_config.h): BookSim2's keys
 * mapped to nocsim's options.  docs/config.md is this table in words. */
#include "sim/ol_config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/olnet.h"
#include "sim/openloop.h"
#include "util/keyfile.h"
#include "util/parse.h"
#include "util/quote.h"

typedef enum {
    BK_RENAME,   /* the value goes to option `ours` as it is */
    BK_FIXED,    /* nocsim models one value (`accepted`, '|' between spellings) */
    BK_SPECIAL   /* translated below (k, rates, packet mixes, warm-up, traffic, process) */
} bk_kind;

typedef struct {
    const char *key;
    bk_kind kind;
    const char *ours;      /* BK_RENAME: our option */
    const char *accepted;  /* BK_FIXED */
    int approx;            /* 1: taken, but nocsim's meaning differs (docs/config.md) */
    const char *instead;   /* BK_FIXED: what nocsim does, for a refused value */
} bk_key;

#define ALLOC "nocsim arbitrates by its model's queue selection and VC selection (--arb); BookSim2's " \
              "islip with alloc_iters 1 stands for it"

static const bk_key bk_keys[] = {
    { "topology", BK_RENAME, "topology", NULL, 0, NULL },
    { "k", BK_SPECIAL, "size", NULL, 0, NULL },
    { "n", BK_FIXED, NULL, "2", 0, "nocsim's networks are two-dimensional, k x k (--size WxH for a rectangle)" },
    { "c", BK_FIXED, NULL, "1", 0, "nocsim has one node per router" },
    { "routing_function", BK_RENAME, "routing", NULL, 0, NULL },
    { "num_vcs", BK_RENAME, "vcs", NULL, 0, NULL },
    { "vc_buf_size", BK_RENAME, "buffer", NULL, 0, NULL },
    { "wait_for_tail_credit", BK_FIXED, NULL, "0", 0,
      "nocsim frees an output VC as soon as the tail flit has gone through" },
    { "use_noc_latency", BK_FIXED, NULL, "0", 0, "nocsim's links take one cycle" },
    { "router", BK_FIXED, NULL, "iq", 1, "nocsim's router is input-queued" },
    /* The pipeline: router timing (pipeline_of below). */
    { "speculative", BK_SPECIAL, NULL, NULL, 0, NULL },
    { "routing_delay", BK_SPECIAL, NULL, NULL, 0, NULL },
    { "vc_alloc_delay", BK_SPECIAL, NULL, NULL, 0, NULL },
    { "sw_alloc_delay", BK_SPECIAL, NULL, NULL, 0, NULL },
    { "st_prepare_delay", BK_SPECIAL, NULL, NULL, 0, NULL },
    { "st_final_delay", BK_SPECIAL, NULL, NULL, 0, NULL },
    { "credit_delay", BK_SPECIAL, NULL, NULL, 0, NULL },
    { "vc_allocator", BK_FIXED, NULL, "islip", 1, ALLOC },
    { "sw_allocator", BK_FIXED, NULL, "islip", 1, ALLOC },
    { "alloc_iters", BK_FIXED, NULL, "1", 1, ALLOC },
    { "input_speedup", BK_FIXED, NULL, "1", 0, "nocsim's crossbar has no speedup" },
    { "output_speedup", BK_FIXED, NULL, "1", 0, "nocsim's crossbar has no speedup" },
    { "internal_speedup", BK_FIXED, NULL, "1", 0, "nocsim's router has no speedup" },
    { "classes", BK_FIXED, NULL, "1", 0, "nocsim has one traffic class" },
    { "subnets", BK_FIXED, NULL, "1", 0, "nocsim has one network" },
    { "traffic", BK_SPECIAL, "traffic", NULL, 0, NULL },
    { "injection_rate", BK_SPECIAL, "rate", NULL, 0, NULL },
    { "injection_rate_uses_flits", BK_FIXED, NULL, "0|1", 0, "0 counts packets, 1 flits" },
    { "injection_process", BK_FIXED, NULL, "bernoulli", 0,
      "nocsim's sources are bernoulli (a coin a cycle) or periodic (process = periodic)" },
    { "packet_size", BK_SPECIAL, "packet", NULL, 0, NULL },
    { "packet_size_rate", BK_SPECIAL, NULL, NULL, 0, NULL },
    { "sample_period", BK_RENAME, "batch", NULL, 0, NULL },
    { "warmup_periods", BK_SPECIAL, "warmup", NULL, 1, NULL },
    { "max_samples", BK_RENAME, "window", NULL, 1, NULL },
    { "latency_thres", BK_RENAME, "latency-limit", NULL, 1, NULL },
    { "sim_type", BK_FIXED, NULL, "latency", 0,
      "nocsim load measures latency against offered load; BookSim2's throughput mode has no counterpart" },
    { "include_queuing", BK_FIXED, NULL, "1", 0,
      "nocsim's latency counts from generation, source queueing included; network_latency, without it, "
      "is printed beside it" },
    { "seed", BK_RENAME, "seed", NULL, 1, NULL },
};
#define NKEYS (int)(sizeof bk_keys / sizeof bk_keys[0])

static const bk_key *bk_find(const char *key)
{
    for (int i = 0; i < NKEYS; i++)
        if (!strcmp(bk_keys[i].key, key)) return &bk_keys[i];
    return NULL;
}

/* Keys both simulators spell alike: they alone do not make a file BookSim2's. */
static int shared_name(const char *key)
{
    return !strcmp(key, "topology") || !strcmp(key, "traffic") || !strcmp(key, "seed");
}

/* What pass one learns of the whole file: BookSim2's keys whose meaning
 * depends on others. */
/* BookSim2's router pipeline, its keys and their defaults (BookSim2's own,
 * commit 28f4329), in this order. */
enum { PL_SPECULATIVE, PL_ROUTING, PL_VC_ALLOC, PL_SW_ALLOC, PL_ST_PREPARE, PL_ST_FINAL, PL_CREDIT, PL_KEYS };
static const char *const pipeline_keys[PL_KEYS] = { "speculative", "routing_delay", "vc_alloc_delay", "sw_alloc_delay",
                                                     "st_prepare_delay", "st_final_delay", "credit_delay" };
static const int pipeline_defaults[PL_KEYS] = { 0, 1, 1, 1, 0, 1, 0 };

typedef struct {
    int booksim;              /* a BookSim2-only key is present */
    int pipe[PL_KEYS];        /* the pipeline's values, BookSim2's defaults where not given */
    const keyfile_item *pipe_item[PL_KEYS]; /* where each was given (NULL: not) */
    const keyfile_item *first; /* the file's first item (settings the file implies name it) */
    int own_timing;           /* the file sets one of our four delays itself */
    int own_vc_alloc;         /* the file sets vc-alloc itself */
    int uses_flits;           /* injection_rate_uses_flits (BookSim2's default 0) */
    int has_self;             /* the file sets our `self` */
    const keyfile_item *sizes, *size_rates;
} file_facts;

static int fail(char *err, size_t errlen, const char *name, const keyfile_item *it, const char *why)
{
    char q[QUOTE_BUF];
    snprintf(err, errlen, "%s, line %ld: %s = %s: %s", name, it->line, it->key, quote_str(q, sizeof q, it->value), why);
    return -FAULT_INPUT;
}

static int same_value(const char *a, const char *b)
{
    double x, y;
    if (parse_real(a, -1e300, 1e300, &x) == PARSE_OK && parse_real(b, -1e300, 1e300, &y) == PARSE_OK) return x == y;
    return !strcmp(a, b);
}

/* Whether value is one of accepted's '|'-separated spellings. */
static int accepted(const char *accepted, const char *value)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", accepted);
    for (char *save = NULL, *t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save))
        if (same_value(t, value)) return 1;
    return 0;
}

static int add(ol_config *c, const char *name, const char *value, const keyfile_item *it)
{
    ol_setting *s = realloc(c->set, ((size_t)c->n + 1) * sizeof *s);
    if (!s) return -FAULT_RESOURCE;
    c->set = s;
    char *v = strdup(value);
    if (!v) return -FAULT_RESOURCE;
    c->set[c->n++] = (ol_setting){ name, v, it->key, it->line, 0 };
    return 0;
}

static void note_approx(ol_config *c, const char *key)
{
    if (strstr(c->approx, key)) return;
    size_t n = strlen(c->approx);
    snprintf(c->approx + n, sizeof c->approx - n, "%s%s", n ? ", " : "", key);
}

/* "8" or "{1,8}" (one level of braces) into out[0..*n-1], at most max
 * numbers.  -1 when it is not such a list. */
static int numbers(const char *v, double *out, int max, int *n)
{
    char buf[512];
    size_t len = strlen(v);
    if (len >= sizeof buf) return -1;
    if (v[0] == '{') {
        if (len < 2 || v[len - 1] != '}') return -1;
        memcpy(buf, v + 1, len - 2);
        buf[len - 2] = '\0';
    } else {
        memcpy(buf, v, len + 1);
    }
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ' || *t == '\t') t++;
        size_t tl = strlen(t);
        while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t')) t[--tl] = '\0';
        if (*n == max || parse_real(t, 0, 1e9, &out[*n]) != PARSE_OK) return -1;
        (*n)++;
    }
    return *n ? 0 : -1;
}

/* BookSim2's packet_size (and packet_size_rate, relative weights) as our
 * mix "L:P,..." into buf, and its mean length.  0 or a message. */
static int packet_mix(const file_facts *f, const char *name, char *buf, size_t len, double *mean, char *err,
                      size_t errlen)
{
    double size[OL_MAX_LENGTHS], w[OL_MAX_LENGTHS], sum = 0;
    int ns = 0, nw = 0;
    if (numbers(f->sizes->value, size, OL_MAX_LENGTHS, &ns))
        return fail(err, errlen, name, f->sizes, "expected a length or a list {L1,L2,...} of at most 8 lengths");
    for (int k = 0; k < ns; k++)
        if (size[k] < 1 || size[k] > OLNET_MAX_FLITS || size[k] != (int)size[k])
            return fail(err, errlen, name, f->sizes, "each length must be an integer in [1, 255]");
    if (f->size_rates && (numbers(f->size_rates->value, w, OL_MAX_LENGTHS, &nw) || nw != ns))
        return fail(err, errlen, name, f->size_rates, "expected one weight per packet_size");
    for (int k = 0; k < ns; k++) sum += f->size_rates ? w[k] : 1;
    if (!(sum > 0)) return fail(err, errlen, name, f->size_rates, "the weights sum to 0");
    buf[0] = '\0';
    *mean = 0;
    for (int k = 0; k < ns; k++) {
        double pr = (f->size_rates ? w[k] : 1) / sum;
        size_t n = strlen(buf);
        if (ns == 1) snprintf(buf, len, "%d", (int)size[0]);
        else snprintf(buf + n, len - n, "%s%d:%.17g", k ? "," : "", (int)size[k], pr);
        *mean += size[k] * pr;
    }
    return 0;
}

/* One of our own options, by its name: a list {a,b} is "a,b"; an empty
 * list sets nothing and is refused (file, line, key in err). */
static int own_key(ol_config *c, const keyfile_item *it, const char *name, char *err, size_t errlen)
{
    size_t len = strlen(it->value);
    if (it->value[0] != '{' || it->value[len - 1] != '}') return add(c, it->key, it->value, it);
    if (len == 2) return fail(err, errlen, name, it, "an empty list: give a value");
    char *v = strndup(it->value + 1, len - 2);
    if (!v) return -FAULT_RESOURCE;
    int rc = add(c, it->key, v, it);
    free(v);
    return rc;
}

/* Pass one: what the whole file says about keys that depend on others. */
static int facts_of(const keyfile *kf, const char *name, file_facts *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    memcpy(f->pipe, pipeline_defaults, sizeof f->pipe);
    f->first = kf->n ? &kf->items[0] : NULL;
    for (int i = 0; i < kf->n; i++) {
        const keyfile_item *it = &kf->items[i];
        if (bk_find(it->key) && !shared_name(it->key)) f->booksim = 1;
        if (!strcmp(it->key, "router-delay") || !strcmp(it->key, "switch-delay") || !strcmp(it->key, "link-delay") ||
            !strcmp(it->key, "credit-delay"))
            f->own_timing = 1;
        if (!strcmp(it->key, "vc-alloc")) f->own_vc_alloc = 1;
        for (int k = 0; k < PL_KEYS; k++) {
            int64_t v;
            if (strcmp(it->key, pipeline_keys[k])) continue;
            if (parse_int(it->value, 0, OLNET_MAX_DELAY, &v) != PARSE_OK)
                return fail(err, errlen, name, it, "expected an integer in [0, 15]");
            f->pipe[k] = (int)v;
            f->pipe_item[k] = it;
        }
        if (!strcmp(it->key, "self")) f->has_self = 1;
        if (!strcmp(it->key, "packet_size")) f->sizes = it;
        if (!strcmp(it->key, "packet_size_rate")) f->size_rates = it;
        if (!strcmp(it->key, "injection_rate_uses_flits")) {
            if (!accepted("0|1", it->value)) return fail(err, errlen, name, it, "0 counts packets, 1 flits");
            f->uses_flits = same_value(it->value, "1");
        }
    }
    if (f->size_rates && !f->sizes) return fail(err, errlen, name, f->size_rates, "needs packet_size");
    return 0;
}

/* A BK_SPECIAL key into our settings. */
static int special(ol_config *c, const file_facts *f, const keyfile_item *it, const char *name, char *err,
                   size_t errlen)
{
    char buf[512];
    double x;
    if (!strcmp(it->key, "k")) return add(c, "size", it->value, it);
    if (!strcmp(it->key, "traffic")) {
        if (it->value[0] == '{' && f->booksim)
            return fail(err, errlen, name, it, "a list (one pattern per traffic class): nocsim has one class; "
                                               "several patterns, one curve each, are `traffic = a,b`");
        if (it->value[0] == '{') return own_key(c, it, name, err, errlen);
        int rc = add(c, "traffic", it->value, it);
        /* BookSim2's patterns address the node itself where they say so. */
        return rc || !f->booksim || f->has_self ? rc : add(c, "self", "send", it);
    }
    if (!strcmp(it->key, "warmup_periods")) {
        int64_t w;
        if (parse_int(it->value, 1, OL_WARMUP_MAX, &w) != PARSE_OK)
            return fail(err, errlen, name, it, "expected an integer in [1, 10000]");
        snprintf(buf, sizeof buf, "%lld:%lld", (long long)w,
                 (long long)(w > OL_DEFAULT_WARMUP_MAX ? w : OL_DEFAULT_WARMUP_MAX));
        note_approx(c, it->key);
        return add(c, "warmup", buf, it);
    }
    if (!strcmp(it->key, "packet_size")) {
        double mean;
        int rc = packet_mix(f, name, buf, sizeof buf, &mean, err, errlen);
        return rc ? rc : add(c, "packet", buf, it);
    }
    if (!strcmp(it->key, "packet_size_rate")) return 0; /* with packet_size */
    for (int k = 0; k < PL_KEYS; k++)
        if (!strcmp(it->key, pipeline_keys[k])) return 0; /* pipeline_of, after every key */
    /* injection_rate: flits per node and cycle, or packets (BookSim2's default). */
    if (f->uses_flits) return add(c, "rate", it->value, it);
    double mean = SIM_DEFAULT_FLITS;
    if (f->sizes) {
        int rc = packet_mix(f, name, buf, sizeof buf, &mean, err, errlen);
        if (rc) return rc;
    }
    if (parse_real(it->value, 0, 1, &x) != PARSE_OK || x <= 0)
        return fail(err, errlen, name, it, "expected packets per node and cycle in (0, 1]");
    snprintf(buf, sizeof buf, "%.17g", x * mean);
    return add(c, "rate", buf, it);
}

/* Pass two: one item into settings. */
static int translate(ol_config *c, const file_facts *f, const keyfile_item *it, const char *name, char *err,
                     size_t errlen)
{
    const bk_key *k = bk_find(it->key);
    char msg[700];
    if (!k) return own_key(c, it, name, err, errlen);
    if (k->approx) note_approx(c, k->key);
    switch (k->kind) {
    case BK_FIXED:
        if (accepted(k->accepted, it->value)) return 0;
        snprintf(msg, sizeof msg, "%s (taken: %s)", k->instead, k->accepted);
        return fail(err, errlen, name, it, msg);
    case BK_RENAME:
        if (it->value[0] == '{')
            return fail(err, errlen, name, it, "a list (one value per traffic class): nocsim has one class");
        return add(c, k->ours, it->value, it);
    case BK_SPECIAL:
        break;
    }
    return special(c, f, it, name, err, errlen);
}

/* BookSim2's iq router pipeline as router timing [R-TM-5]: a header's
 * routing and allocation stages (routing_delay + vc_alloc_delay +
 * sw_alloc_delay, the larger allocation alone when speculative) less the
 * one the model's cycle stands for (D), the switch traversal (S =
 * st_final_delay), the channel (L = 1, use_noc_latency 0), and a credit's
 * channel beside credit_delay (C = credit_delay + 1).  Checked against
 * BookSim2's lone packets (docs/model.md): the reference pipeline, and
 * routing_delay 1, vc_alloc_delay 2, speculative 1 and credit_delay 2 each
 * alone, give BookSim2's latencies exactly at 1 and 3 hops; sw_alloc_delay
 * and st_final_delay other than 1, or st_prepare_delay other than 0, do not
 * (BookSim2 adds stages the four delays have no counterpart for) and are
 * refused. */
static int pipeline_of(ol_config *c, const file_facts *f, const char *name, char *err, size_t errlen)
{
    static const int fitted[PL_KEYS] = { -1, -1, -1, 1, 0, 1, -1 };
    for (int k = 0; k < PL_KEYS; k++)
        if (fitted[k] >= 0 && f->pipe[k] != fitted[k])
            return fail(err, errlen, name, f->pipe_item[k],
                        "nocsim's router timing matches BookSim2's pipeline with sw_alloc_delay 1, "
                        "st_prepare_delay 0 and st_final_delay 1; set router-delay, switch-delay, link-delay and "
                        "credit-delay instead (docs/config.md)");
    const int va = f->pipe[PL_VC_ALLOC], sa = f->pipe[PL_SW_ALLOC];
    if (va < 1) return fail(err, errlen, name, f->pipe_item[PL_VC_ALLOC], "at least 1 (BookSim2 refuses 0)");
    const int alloc = f->pipe[PL_SPECULATIVE] ? (va > sa ? va : sa) : va + sa;
    const int D = f->pipe[PL_ROUTING] + alloc - 1, C = f->pipe[PL_CREDIT] + 1;
    const keyfile_item *at = f->first; /* messages name the first pipeline key given, else the file's first */
    for (int k = PL_KEYS - 1; k >= 0; k--)
        if (f->pipe_item[k]) at = f->pipe_item[k];
    if (D > OLNET_MAX_DELAY || C > OLNET_MAX_DELAY)
        return fail(err, errlen, name, at, "the pipeline is longer than nocsim's delays allow (15 cycles each)");
    char d[16], cc[16];
    snprintf(d, sizeof d, "%d", D);
    snprintf(cc, sizeof cc, "%d", C);
    const int first = c->n, implied = 1;
    int rc = add(c, "router-delay", d, at);
    if (!rc) rc = add(c, "switch-delay", "1", at);
    if (!rc) rc = add(c, "link-delay", "1", at);
    if (!rc) rc = add(c, "credit-delay", cc, f->pipe_item[PL_CREDIT] ? f->pipe_item[PL_CREDIT] : at);
    int given = 0;
    for (int k = 0; k < PL_KEYS; k++) given |= f->pipe_item[k] != NULL;
    for (int k = first; !rc && k < c->n; k++) c->set[k].implied = implied && !given;
    return rc;
}

static int convert(const keyfile *kf, const char *name, ol_config *c, char *err, size_t errlen)
{
    file_facts f;
    int rc = facts_of(kf, name, &f, err, errlen);
    for (int i = 0; !rc && i < kf->n; i++) rc = translate(c, &f, &kf->items[i], name, err, errlen);
    if (!rc && f.booksim && !f.own_timing) rc = pipeline_of(c, &f, name, err, errlen);
    /* BookSim2's VC allocator goes round a port's VCs [R-VC-6] (open-loop
     * runs alone: implied). */
    if (!rc && f.booksim && !f.own_vc_alloc && !(rc = add(c, "vc-alloc", "rotate", f.first))) c->set[c->n - 1].implied = 1;
    if (rc == -FAULT_RESOURCE) snprintf(err, errlen, "%s: out of memory", name);
    return rc;
}

static int start(ol_config *c, keyfile **kf)
{
    memset(c, 0, sizeof *c);
    *kf = calloc(1, sizeof **kf);
    c->priv = *kf;
    return *kf ? 0 : -FAULT_RESOURCE;
}

int ol_config_read(const char *path, const char *name, ol_config *c, char *err, size_t errlen)
{
    keyfile *kf;
    if (start(c, &kf)) return snprintf(err, errlen, "%s: out of memory", name), -FAULT_RESOURCE;
    int rc = keyfile_read(path, name, kf, err, errlen);
    return rc ? rc : convert(kf, name, c, err, errlen);
}

int ol_config_parse(const char *text, const char *name, ol_config *c, char *err, size_t errlen)
{
    keyfile *kf;
    if (start(c, &kf)) return snprintf(err, errlen, "%s: out of memory", name), -FAULT_RESOURCE;
    int rc = keyfile_parse(text, name, kf, err, errlen);
    return rc ? rc : convert(kf, name, c, err, errlen);
}

void ol_config_free(ol_config *c)
{
    for (int i = 0; i < c->n; i++) free(c->set[i].value);
    free(c->set);
    if (c->priv) keyfile_free(c->priv);
    free(c->priv);
    memset(c, 0, sizeof *c);
}
