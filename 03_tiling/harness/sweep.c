/* sweep.c: 03's driver. bench_main runs every variant once; here the blocked variants
 * run once per --tile value, each value announced with what its blocks weigh against
 * this machine's caches, which the header prints as read from the system. */
#include "sweep.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edges.h"
#include "matrix.h"
#include "sysinfo.h"
#include "../tiling.h"

#define MAX_TILES 16
#define MAX_TILE 1024 /* three 1024 x 1024 blocks are 12 MiB: past any L2 there is to find */

static int tiles[MAX_TILES], ntiles; /* ntiles 0: no --tile, the default alone */

int tile_option(bench_opts *o, const char *opt, const char *val)
{
    (void)o;
    if (strcmp(opt, "--tile") != 0)
        return 0;
    if (!val)
        cli_die("--tile needs a value");
    cli_check_list("--tile", val);
    char *copy = strdup(val);
    if (!copy)
        cli_die("out of memory");
    ntiles = 0;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (ntiles == MAX_TILES)
            cli_die("--tile: at most %d tile sizes", MAX_TILES);
        tiles[ntiles++] = (int)cli_long("--tile", t, 1, MAX_TILE);
    }
    free(copy);
    if (ntiles == 0)
        cli_die("--tile: no tile size given");
    return 2;
}

static const char *bytes_text(long bytes, char *buf, size_t len)
{
    if (bytes <= 0)
        snprintf(buf, len, "?");
    else if (bytes < 1024)
        snprintf(buf, len, "%ld B", bytes);
    else if (bytes < 1048576)
        snprintf(buf, len, "%g KiB", bytes / 1024.0);
    else
        snprintf(buf, len, "%g MiB", bytes / 1048576.0);
    return buf;
}

/* The smallest cache that holds `bytes`. */
static const char *fits_in(long bytes)
{
    long l1d, l2, l3;
    sysinfo_caches(&l1d, &l2, &l3);
    return bytes <= l1d ? "fits L1d" : bytes <= l2 ? "fits L2" : bytes <= l3 ? "fits L3" : "fits no cache";
}

static void (*backend_header)(FILE *f, const bench_opts *o);

static void header_with_caches(FILE *f, const bench_opts *o)
{
    backend_header(f, o);
    long l1d, l2, l3;
    char a[32], b[32], c[32];
    const char *from = sysinfo_caches(&l1d, &l2, &l3);
    fprintf(f, "%-10s L1d %s, L2 %s, L3 %s (cpu0, from %s)\n", "caches", bytes_text(l1d, a, sizeof a),
            bytes_text(l2, b, sizeof b), bytes_text(l3, c, sizeof c), from);
    fprintf(f, "%-10s ", "tiles");
    for (int t = 0; t < ntiles; t++)
        fprintf(f, "%s%d", t ? "," : "", tiles[t]);
    fprintf(f, " (--tile T: blocks of T x T floats, 4*T*T bytes)\n");
}

/* The table, once per tile: the variants before first_tiled once, the blocked ones once per
 * --tile value. Returns 1 if a check failed, else 0. */
static int run_tiles(const stage_info *st, int first_tiled, int tile_given, bench_opts *o)
{
    bench_print_header(st, o);

    int *chosen = o->selected, *run_now = calloc((size_t)st->nvariants, sizeof(int));
    gemm_variant *named = malloc(sizeof(gemm_variant) * (size_t)st->nvariants);
    char(*names)[64] = malloc(64 * (size_t)st->nvariants);
    if (!run_now || !named || !names)
        cli_die("out of memory");
    int passed = 0, failed = 0, p, any = 0;

    /* the variants that have no tile: once */
    for (int v = 0; v < st->nvariants; v++)
        any |= run_now[v] = v < first_tiled && chosen[v];
    o->selected = run_now;
    if (any) {
        failed += bench_run(st, o, &p);
        passed += p;
    }
    /* the blocked ones: once per tile; named tiled/64 when --tile chose the tile, so that
     * a CSV row always says which tile it was measured with */
    stage_info per_tile = *st;
    per_tile.variants = named;
    for (int t = 0; t < ntiles; t++) {
        tile_size = tiles[t];
        any = 0;
        for (int v = 0; v < st->nvariants; v++) {
            named[v] = st->variants[v];
            any |= run_now[v] = v >= first_tiled && chosen[v];
            if (v >= first_tiled && tile_given) {
                snprintf(names[v], 64, "%s/%d", st->variants[v].name, tile_size);
                named[v].name = names[v];
            }
        }
        if (!any)
            break;
        long block = 4L * tile_size * tile_size;
        char a[32], b[32];
        printf("-- tile %d: one block %s (%s), blocks of A, B and C %s (%s)\n", tile_size,
               bytes_text(block, a, sizeof a), fits_in(block), bytes_text(3 * block, b, sizeof b),
               fits_in(3 * block));
        failed += bench_run(&per_tile, o, &p);
        passed += p;
    }
    bench_print_tally(passed, failed);
    o->selected = chosen;
    free(run_now);
    free(named);
    free(names);
    return failed ? 1 : 0;
}

/* bench_main's sequence (every argument checked, then the CSV opened, then the backend started,
 * and the CSV closed on every path: a run that ends before its first row leaves no file), with
 * run_tiles for the table and the caches in the header. */
int tile_sweep_main(const stage_info *base, int first_tiled, int argc, char **argv)
{
    bench_backend backend = *base->backend;
    backend_header = backend.print_header;
    backend.print_header = header_with_caches;
    stage_info st = *base;
    st.backend = &backend;

    bench_opts o;
    cli_parse(&st, argc, argv, &o);
    const int tile_given = ntiles > 0;
    if (!tile_given)
        tiles[ntiles++] = TILE_DEFAULT;
    bench_check_sizes(&o);
    bench_open_csv(&o);
    int rc = backend.init(&o);
    if (rc == 0 && o.edges) { /* with the first tile */
        tile_size = tiles[0];
        rc = edges_main(&st, &o);
    } else if (rc == 0) {
        rc = run_tiles(&st, first_tiled, tile_given, &o);
    }
    fflush(stdout);
    int csv_rc = bench_close_csv(&o);
    free(o.selected);
    free(o.shapes);
    return csv_rc ? csv_rc : rc;
}
