/* timer.h: a monotonic clock and the statistics the harness reports. */
#ifndef TIMER_H
#define TIMER_H

#include <stdlib.h>
#include <time.h>

/* Seconds on CLOCK_MONOTONIC: never jumps with NTP or the wall clock. */
static inline double timer_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int timer_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n samples (sorts them in place). The median, not the mean:
 * one run slowed by another process on a shared machine does not move it. */
static inline double timer_median(double *t, int n)
{
    if (n <= 0)
        return 0.0;
    qsort(t, (size_t)n, sizeof(double), timer_cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static inline double timer_min(const double *t, int n)
{
    double m = n > 0 ? t[0] : 0.0;
    for (int i = 1; i < n; i++)
        if (t[i] < m)
            m = t[i];
    return m;
}

/* How many timed runs (DESIGN.md, "Timing"): exactly reps when reps > 0, else runs until they
 * add up to min_ms, at most max_reps of them. */
typedef struct timer_rule {
    int reps;
    double min_ms;
    int max_reps;
} timer_rule;

/* A first run this long is timed once: the warm-up is the sample (a 10 s run is not repeated). */
#define TIMER_WARMUP_IS_SAMPLE_MS 1000.0

/* One run of what is timed; returns its time in ms. */
typedef double timer_run_fn(void *arg);

/* Time run(arg) by rule r, each run followed by one of base(base_arg) when base is not NULL, so
 * that the two are compared run for run on a machine whose speed drifts over minutes. warm_ms:
 * the untimed first run (the checked one), or 0; without --reps, one of
 * TIMER_WARMUP_IS_SAMPLE_MS or more is the only sample, and base runs once beside it.
 * t[i] and tb[i] (room for the larger of reps and max_reps) get the i-th pair; returns how many. */
static inline int timer_alternate(const timer_rule *r, double warm_ms, timer_run_fn *run,
                                  void *arg, timer_run_fn *base, void *base_arg, double *t,
                                  double *tb)
{
    if (!r->reps && warm_ms >= TIMER_WARMUP_IS_SAMPLE_MS) {
        t[0] = warm_ms;
        if (base)
            tb[0] = base(base_arg);
        return 1;
    }
    int n = 0, want = r->reps ? r->reps : r->max_reps;
    double total = 0;
    while (n < want && (r->reps || total < r->min_ms)) {
        t[n] = run(arg);
        total += t[n];
        if (base)
            tb[n] = base(base_arg);
        n++;
    }
    return n;
}

#endif
