/* harness.h: 06's machinery (harness/), for main.c's stage_info. */
#ifndef STRASSEN_HARNESS_H
#define STRASSEN_HARNESS_H

#include "bench.h"

/* main.c's table, which --errors and --fold-c change */
extern gemm_variant strassen_variants[];
extern const int strassen_nvariants;

/* backend.c: the CPU's backend, with --vs classic's baseline and --fold-c's names */
extern const bench_backend strassen_backend;
void strassen_vs_classic(void); /* --vs classic: classic is the baseline */

/* options.c: stage_info.extra_option for --cutoff, --vs, --errors, --fold-c (STRASSEN_HELP); the
 * header's title (filled before main, again after --cutoff) */
int strassen_option(bench_opts *o, const char *opt, const char *val);
extern char strassen_title[];
#define STRASSEN_HELP                                                                             \
    "  --cutoff N            a Strassen level only where min(M,N,K) >= N (default: strassen.c)\n" \
    "  --vs classic          baseline = classic (05's kernel), timed alternately, not OpenBLAS\n" \
    "  --errors              every variant checked normwise with c = 1 (the error table)\n" \
    "  --fold-c last|every|none  how reloaded_* adds a product to several quadrants of C\n"

/* breakdown.c: --breakdown (stage_mode.run, own CSV columns) */
int strassen_breakdown(const stage_info *st, bench_opts *o);

#endif
