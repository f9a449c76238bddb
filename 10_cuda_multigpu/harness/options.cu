/* options.cu: 10's stage options: the tiled variants' parameters (--tile, --kblock, --streams,
 * --device-mem), cuBLASXt's block (--xt-block) and the files a run writes besides its CSV (--stats,
 * --timeline). */
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "multigpu.h"

/* "24G", "512M", "3.5G", "800K" or bytes */
static double parse_bytes(const char *what, const char *val)
{
    char *end = NULL;
    double v = strtod(val, &end);
    if (end == val || v <= 0)
        cli_die("%s: '%s' is not a size (e.g. 24G, 512M)", what, val);
    double unit = 1;
    if (*end == 'K' || *end == 'k')
        unit = 1024.0, end++;
    else if (*end == 'M' || *end == 'm')
        unit = 1048576.0, end++;
    else if (*end == 'G' || *end == 'g')
        unit = 1073741824.0, end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end)
        cli_die("%s: '%s' is not a size (e.g. 24G, 512M)", what, val);
    return v * unit;
}

/* --timeline: a file the runs will write, refused now, not after the first run has taken
 * minutes; opened to append, so that a run that never writes it (no GPU here: exit 77) leaves
 * an existing file as it was and a new one not made. (--stats is opened here too, by
 * cli_csv_open, with its header checked.) */
static const char *writable(const char *what, const char *path)
{
    struct stat st;
    const int existed = stat(path, &st) == 0;
    FILE *f = fopen(path, "a");
    if (!f)
        cli_die("%s: cannot open %s for writing", what, path);
    fclose(f);
    if (!existed)
        remove(path);
    return path;
}

int mg_option(bench_opts *o, const char *opt, const char *val)
{
    (void)o;
    if (!strcmp(opt, "--tile") || !strcmp(opt, "--kblock") || !strcmp(opt, "--streams") ||
        !strcmp(opt, "--device-mem") || !strcmp(opt, "--xt-block") || !strcmp(opt, "--stats") ||
        !strcmp(opt, "--timeline")) {
        if (!val)
            cli_die("%s needs a value", opt);
        if (!strcmp(opt, "--tile"))
            mg.tile = (int)cli_long(opt, val, 1, 1 << 20);
        else if (!strcmp(opt, "--kblock"))
            mg.kblock = (int)cli_long(opt, val, 1, 1 << 24);
        else if (!strcmp(opt, "--streams"))
            mg.streams = (int)cli_long(opt, val, 1, MG_MAX_STREAMS);
        else if (!strcmp(opt, "--device-mem"))
            mg.device_mem = parse_bytes(opt, val);
        else if (!strcmp(opt, "--xt-block"))
            mg.xt_block = (int)cli_long(opt, val, 64, 1 << 16);
        else if (!strcmp(opt, "--stats"))
            mg.stats = cli_csv_open(opt, val, MG_STATS_HEADER);
        else
            mg.timeline = writable(opt, val);
        return 2;
    }
    return 0;
}

int mg_finish(void) { return cli_csv_close(mg.stats); }
