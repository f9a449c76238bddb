/* sysinfo.h: the facts about this machine and this build that a header or a CSV row reports,
 * each read in this one place (the stages, build/peak and the stages' own drivers all ask here). */
#ifndef SYSINFO_H
#define SYSINFO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Online cores (at least 1): the default thread count. */
int sysinfo_cores(void);

/* The "model name" line of /proc/cpuinfo ("unknown CPU" elsewhere): the CSVs' device column
 * on the CPU, and what plots/plot.py matches build/peak's ceilings to results by. */
const char *sysinfo_cpu_model(void);

/* Bytes of cpu0's level-1 data, level-2 and level-3 caches, 0 where unknown: one instance of
 * each (the L3 that the cores sharing it see, not the sum over a socket's instances), from
 * /sys/devices/system/cpu/cpu0/cache, else sysconf. Returns where they came from. */
const char *sysinfo_caches(long *l1d, long *l2, long *l3);

/* What compiled this file: "gcc 12.2.0", "clang ...". */
const char *sysinfo_compiler(void);

/* The commit the program was built from (the Makefile passes GIT_REV), "unknown" without. */
const char *sysinfo_git_rev(void);

/* The time now as 2026-11-22T04:46:48Z, the CSVs' date column. */
void sysinfo_utc_now(char *buf, size_t len);

/* How busy the machine is with other work. A reading of the CPU time the whole machine spent
 * (/proc/stat: busy, and "steal", taken by a hypervisor's other guests) and this process spent
 * (all its threads); two readings give what others used in between. */
typedef struct sysinfo_load {
    double wall, busy, steal, self; /* seconds; busy < 0: no /proc/stat here */
} sysinfo_load;
void sysinfo_load_now(sysinfo_load *l);
/* Cores kept busy by other processes between readings a and b (the machine's busy time less
 * this process's, over the wall time), with the cores stolen in *steal; -1 where it cannot
 * tell: no /proc/stat, or less than 0.1 s between the readings (the clock ticks every 10 ms). */
double sysinfo_others(const sysinfo_load *a, const sysinfo_load *b, double *steal);
/* The 1-minute load average (runnable threads, this program's included), -1 where unknown; and
 * in *now, the threads runnable at this moment, this one included (-1 where unknown): what runs
 * now, where the average lags a minute behind. */
double sysinfo_loadavg(int *now);
/* This process's threads runnable now (at least 1, the caller): what the count above holds of
 * ours. A program whose OpenMP or OpenBLAS threads still spin after a parallel region has up to
 * one a core; counted as "others", they made a quiet 16-core machine read as busy. */
int sysinfo_self_running(void);

#ifdef __cplusplus
}
#endif

#endif
