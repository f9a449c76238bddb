/* breakdown.c: 06 --breakdown, where the time of each variant goes: the additions (mat_add,
 * mat_acc) and the bytes they move, reloaded_*'s packing; no check, no baseline. */
#include "harness.h"

#include <stdio.h>

#include "../strassen.h"
#include "cli.h"
#include "csv.h"
#include "matrix.h"
#include "sysinfo.h"
#include "timer.h"

/* For each size and variant: the median of the whole call and of the time spent in the
 * additions, and the bytes those moved. One CSV row per measurement (its own header). */
int strassen_breakdown(const stage_info *st, bench_opts *o)
{
    struct csv_file *csv = NULL;
    if (o->csv)
        csv = cli_csv_open("--csv", o->csv,
                           "stage,variant,m,n,k,threads,cutoff,reps,ms_total,ms_additions,"
                           "add_gbytes,add_gbs,ms_packing_t0,device,git");
    char device[256];
    csv_field(device, sizeof device, sysinfo_cpu_model());
    const int cut = strassen_cutoff > 0 ? strassen_cutoff : strassen_default_cutoff;
    printf("== 06_strassen --breakdown: where the time goes (cutoff %d) ==\n", cut);
    printf("%-16s %6s %6s %6s %3s %10s %10s %6s %9s %8s %12s\n", "variant", "M", "N", "K",
           "thr", "ms total", "ms adds", "share", "GB adds", "GB/s", "ms packing*");
    strassen_profile = 1;
    for (int ti = 0; ti < o->nthreads; ti++) {
        st->backend->set_threads(o->threads[ti]);
        for (int si = 0; si < o->nshapes; si++) {
            const gemm_shape *s = &o->shapes[si];
            float *A = matrix_alloc(s->m, s->k), *B = matrix_alloc(s->k, s->n),
                  *C = matrix_alloc(s->m, s->n);
            if (!A || !B || !C)
                cli_die("size %dx%dx%d: cannot allocate the matrices", s->m, s->n, s->k);
            matrix_fill_random(A, s->m, s->k, s->k, o->seed + 3 * (uint64_t)si);
            matrix_fill_random(B, s->k, s->n, s->n, o->seed + 3 * (uint64_t)si + 1);
            for (int v = 0; v < st->nvariants; v++) {
                if (!o->selected[v])
                    continue;
                gemm_fn *fn = st->variants[v].fn;
                const int reps = o->reps ? o->reps : 3;
                double total[64], adds[64], pack[64], bytes = 0;
                fn(s->m, s->n, s->k, o->alpha, A, s->k, B, s->n, o->beta, C, s->n); /* warm-up */
                for (int r = 0; r < reps && r < 64; r++) {
                    strassen_add_seconds = strassen_add_bytes = reloaded_pack_seconds = 0;
                    const double t0 = timer_now();
                    fn(s->m, s->n, s->k, o->alpha, A, s->k, B, s->n, o->beta, C, s->n);
                    total[r] = 1e3 * (timer_now() - t0);
                    adds[r] = 1e3 * strassen_add_seconds;
                    pack[r] = 1e3 * reloaded_pack_seconds;
                    bytes = strassen_add_bytes;
                }
                const int n = reps < 64 ? reps : 64;
                const double mt = timer_median(total, n), ma = timer_median(adds, n),
                             mp = timer_median(pack, n);
                printf("%-16s %6d %6d %6d %3d %10.2f %10.2f %5.1f%% %9.3f %8.2f %12.2f\n",
                       st->variants[v].name, s->m, s->n, s->k, o->threads[ti], mt, ma,
                       100 * ma / mt, bytes / 1e9, ma > 0 ? bytes / 1e6 / ma : 0.0, mp);
                fflush(stdout);
                if (csv)
                    cli_csv_row(csv,
                                "06_strassen,%s,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.4f,%.3f,%.3f,%s,%s",
                                st->variants[v].name, s->m, s->n, s->k, o->threads[ti], cut, n, mt,
                                ma, bytes / 1e9, ma > 0 ? bytes / 1e6 / ma : 0.0, mp, device,
                                sysinfo_git_rev());
            }
            matrix_free(A);
            matrix_free(B);
            matrix_free(C);
        }
    }
    printf("* ms packing: reloaded_* only, thread 0's time in its packing of A and B\n");
    fflush(stdout);
    return cli_csv_close(csv);
}
