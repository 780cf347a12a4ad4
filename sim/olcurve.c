/* Latency-throughput curves and saturation throughput (see openloop.h):
 * many independent points on threads.  A point's seed depends only on the
 * run's seed and its rate, so results never depend on the thread count or
 * on which other rates were asked. */
#include "sim/openloop.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const ol_params *p;
    const synth *s;
    const double *rates;
    int n;
    uint64_t seed;
    int stop_at_saturation;
    ol_stop_fn stop;
    ol_progress_fn progress;
    void *ctx;
    ol_point *out;
    char *state;          /* per point: 0 not run, 1 running, 2 done */
    pthread_mutex_t lock;
    int next;
    int first_sat;        /* lowest saturated index so far, n if none */
    int failed, stopped;   /* failed: the first failing point's negative fault kind */
    char err[256];
} curve;

static void *worker(void *arg)
{
    curve *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        int k = c->next;
        int go = k < c->n && k <= c->first_sat && !c->failed && !c->stopped && !stopped_now(c->stop);
        if (go) {
            c->next++;
            c->state[k] = 1;
        }
        pthread_mutex_unlock(&c->lock);
        if (!go) return NULL;
        ol_point pt;
        char err[256];
        int rc = ol_run_point(c->p, c->s, c->rates[k], ol_point_seed(c->seed, c->rates[k]), c->stop, &pt, err,
                              sizeof err);
        pthread_mutex_lock(&c->lock);
        if (rc < 0) {
            if (!c->failed) {
                snprintf(c->err, sizeof c->err, "%s", err);
                c->failed = rc;
            }
        } else if (rc > 0) {
            c->stopped = 1;
        } else {
            c->out[k] = pt;
            c->state[k] = 2;
            if (pt.saturated && c->stop_at_saturation && k < c->first_sat) c->first_sat = k;
            if (c->progress) c->progress(&pt, k, c->ctx);
        }
        pthread_mutex_unlock(&c->lock);
    }
}

int ol_curve(const ol_params *p, const synth *s, const double *rates, int n, uint64_t seed, int threads,
             int stop_at_saturation, ol_stop_fn stop, ol_progress_fn progress, void *ctx, ol_point *out,
             int *done, char *err, size_t errlen)
{
    *done = 0;
    curve c = { .p = p, .s = s, .rates = rates, .n = n, .seed = seed, .stop_at_saturation = stop_at_saturation,
                .stop = stop, .progress = progress, .ctx = ctx, .out = out, .first_sat = n };
    c.state = calloc((size_t)n + 1, 1);
    if (!c.state) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    if (pthread_mutex_init(&c.lock, NULL)) {
        free(c.state);
        return snprintf(err, errlen, "cannot create a lock"), -FAULT_RESOURCE;
    }
    if (threads < 1) threads = 1;
    if (threads > n) threads = n > 0 ? n : 1;
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    int started = 0;
    if (tid)
        for (; started < threads; started++)
            if (pthread_create(&tid[started], NULL, worker, &c)) break;
    if (started == 0) worker(&c); /* no thread could be made: run here */
    for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
    free(tid);
    pthread_mutex_destroy(&c.lock);
    int last = c.first_sat < n ? c.first_sat + 1 : n;
    while (*done < last && c.state[*done] == 2) (*done)++;
    /* The points dropped give back their reports (issue 37). */
    for (int k = *done; k < n; k++)
        if (c.state[k] == 2) {
            ol_report_free(out[k].report);
            out[k].report = NULL;
        }
    free(c.state);
    if (c.failed) return snprintf(err, errlen, "%s", c.err), c.failed;
    return (c.stopped || stopped_now(stop)) && *done < last ? 1 : 0;
}

int ol_saturation(const ol_params *p, const synth *s, double lo, double hi, double precision, uint64_t seed,
                  ol_stop_fn stop, ol_point *sat, char *err, size_t errlen)
{
    memset(sat, 0, sizeof *sat);
    if (lo > 0) {
        int rc = ol_run_point(p, s, lo, ol_point_seed(seed, lo), stop, sat, err, errlen);
        if (rc) return rc;
    }
    while (hi - lo > precision) {
        double mid = 0.5 * (lo + hi);
        ol_point pt;
        int rc = ol_run_point(p, s, mid, ol_point_seed(seed, mid), stop, &pt, err, errlen);
        if (rc) return rc;
        if (pt.saturated) {
            hi = mid;
            ol_report_free(pt.report);
        } else {
            lo = mid;
            ol_report_free(sat->report);
            *sat = pt;
        }
    }
    return 0;
}
