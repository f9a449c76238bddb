/* sweep.h: 03's own driver: --tile LIST, the cache sizes in the header, one bench_run
 * per tile size. */
#ifndef SWEEP_H
#define SWEEP_H

#include "bench.h"
#include "../tiling.h"

/* Like bench_main, but the variants from first_tiled on run once per --tile value
 * (their rows named "tiled/64" when --tile is given); the ones before run once. */
int tile_sweep_main(const stage_info *st, int first_tiled, int argc, char **argv);

/* stage_info.extra_option for --tile LIST (every value 1..1024); TILE_HELP for --help. */
int tile_option(bench_opts *o, const char *opt, const char *val);
#define TILE_STRINGIFY(x) #x
#define TILE_TEXT(x) TILE_STRINGIFY(x)
#define TILE_HELP "  --tile LIST           block edges T to run, e.g. 16,32,64,128,256 (default " \
                  TILE_TEXT(TILE_DEFAULT) ");\n" \
                  "                        with --tile, rows are named tiled/16, tiled/32, ...\n"

#endif
