/* options.c: 06's stage options (--cutoff, --vs, --errors, --fold-c) and the header's title. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

#include "../../05_simd/simd.h" /* microkernel_best */
#include "../strassen.h"
#include "cli.h"

char strassen_title[256];

/* The header's title: the kernel under every variant, the cutoff (again after --cutoff) */
static void describe(void)
{
    snprintf(strassen_title, sizeof strassen_title,
             "Strassen and Winograd on 05's packed kernel (%s), cutoff %d; GFLOP/s = 2MNK/time "
             "for every variant",
             microkernel_best()->name,
             strassen_cutoff > 0 ? strassen_cutoff : strassen_default_cutoff);
}

/* Before main: --help prints the title. */
__attribute__((constructor)) static void describe_at_start(void) { describe(); }

int strassen_option(bench_opts *o, const char *opt, const char *val)
{
    (void)o;
    if (!strcmp(opt, "--cutoff")) {
        if (!val)
            cli_die("--cutoff: expects a size (a level of Strassen needs min(M,N,K) >= it)");
        strassen_cutoff = (int)cli_long("--cutoff", val, 1, 1L << 30);
        describe();
        return 2;
    }
    if (!strcmp(opt, "--vs")) {
        if (!val || strcmp(val, "classic") != 0)
            cli_die("--vs: expects 'classic' (without it the baseline is OpenBLAS)");
        strassen_vs_classic();
        return 2;
    }
    if (!strcmp(opt, "--errors")) {
        for (int v = 0; v < strassen_nvariants; v++) {
            strassen_variants[v].err_c = 1.0;
            strassen_variants[v].normwise = 1;
        }
        return 1;
    }
    if (!strcmp(opt, "--fold-c")) {
        static const char *names[] = {[FOLD_LAST] = "last", [FOLD_EVERY] = "every",
                                      [FOLD_NONE] = "none"};
        for (int f = 0; f < 3; f++)
            if (val && !strcmp(val, names[f])) {
                reloaded_fold = f;
                return 2;
            }
        cli_die("--fold-c: expects last, every or none");
    }
    return 0;
}
