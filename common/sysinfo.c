#include "sysinfo.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifndef GIT_REV
#define GIT_REV "unknown"
#endif

int sysinfo_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

const char *sysinfo_cpu_model(void)
{
    static char name[256];
    if (name[0])
        return name;
    snprintf(name, sizeof name, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return name;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            snprintf(name, sizeof name, "%s", colon + 2);
            name[strcspn(name, "\n")] = '\0';
            break;
        }
    }
    fclose(f);
    return name;
}

/* Bytes of cpu0's level-`level` data (or unified) cache in sysfs, 0 if it does not say. */
static long sysfs_cache(int level)
{
    for (int i = 0; i < 16; i++) {
        char path[96], type[32] = "", unit = 'B';
        int lvl = 0;
        long size = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        if (fscanf(f, "%d", &lvl) != 1)
            lvl = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%31s", type) != 1)
                type[0] = '\0';
            fclose(f);
        }
        if (lvl != level || strcmp(type, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%ld%c", &size, &unit) < 1)
                size = 0;
            fclose(f);
        }
        return size * (unit == 'K' ? 1024L : unit == 'M' ? 1048576L : 1L);
    }
    return 0;
}

/* sysfs first: glibc's sysconf gives the L3 of a whole AMD EPYC socket (256 MiB on this
 * development machine) where one instance, shared by the cores that use it, is 32 MiB. It
 * is the fallback for systems without sysfs's cache directory. */
const char *sysinfo_caches(long *l1d, long *l2, long *l3)
{
    *l1d = sysfs_cache(1);
    *l2 = sysfs_cache(2);
    *l3 = sysfs_cache(3);
    if (*l1d > 0)
        return "/sys/devices/system/cpu/cpu0/cache";
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
    *l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    *l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    *l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    *l1d = *l1d > 0 ? *l1d : 0;
    *l2 = *l2 > 0 ? *l2 : 0;
    *l3 = *l3 > 0 ? *l3 : 0;
    return *l1d > 0 ? "sysconf" : "unknown";
}

const char *sysinfo_compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}

const char *sysinfo_git_rev(void) { return GIT_REV; }

void sysinfo_utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void sysinfo_load_now(sysinfo_load *l)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    l->wall = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    struct rusage ru;
    l->self = getrusage(RUSAGE_SELF, &ru) == 0
                  ? (double)ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec +
                        (double)ru.ru_stime.tv_sec + 1e-6 * ru.ru_stime.tv_usec
                  : 0;
    l->busy = l->steal = -1;
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return;
    /* cpu  user nice system idle iowait irq softirq steal guest guest_nice (in clock ticks;
     * guest time is inside user) */
    unsigned long long v[8] = {0};
    int got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                     &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    const double tick = (double)sysconf(_SC_CLK_TCK);
    if (got < 7 || tick <= 0)
        return;
    l->busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / tick;
    l->steal = got >= 8 ? (double)v[7] / tick : 0;
}

double sysinfo_others(const sysinfo_load *a, const sysinfo_load *b, double *steal)
{
    const double dt = b->wall - a->wall;
    if (steal)
        *steal = -1;
    if (a->busy < 0 || b->busy < 0 || dt < 0.1)
        return -1;
    double others = (b->busy - a->busy - (b->self - a->self)) / dt;
    if (steal)
        *steal = (b->steal - a->steal) / dt;
    return others > 0 ? others : 0;
}

int sysinfo_self_running(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[64], buf[256];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        const size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[got] = '\0';
        /* "tid (name) S ...": the state follows the last ')' (a name may hold one) */
        const char *close = strrchr(buf, ')');
        if (close && close[1] == ' ' && close[2] == 'R')
            n++;
    }
    closedir(d);
    return n > 0 ? n : 1; /* this thread runs, whatever the reading said */
}

double sysinfo_loadavg(int *now)
{
    double avg = -1, a5, a15;
    int running = -1, total;
    FILE *f = fopen("/proc/loadavg", "r"); /* "1.05 0.98 0.95 3/512 12345" */
    if (f) {
        if (fscanf(f, "%lf %lf %lf %d/%d", &avg, &a5, &a15, &running, &total) != 5)
            running = -1;
        fclose(f);
    }
    if (now)
        *now = running;
    return avg;
}
