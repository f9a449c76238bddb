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

#endif
