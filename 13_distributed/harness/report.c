/* report.c: stage 13's results on rank 0: a row of the table on stdout and in the CSV (the
 * counterpart of common/bench.c's). */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "csv.h"
#include "sysinfo.h"

/* ------------------------------------------------------------ the CSV */

const char *csv_header =
    "stage,variant,m,n,k,grid,ranks,threads,nb,reps,ms_median,ms_min,gflops,baseline,"
    "baseline_gflops,max_err_ratio,check,device,compiler,git,date";
csv_file *rows_csv;

/* Rank 0: the CSV opened (created, or its header checked) before any work, through
 * common/csv.c: a row is written whole or not at all; "-" is standard output. NULL if path
 * can take our rows, else why not (one line). */
const char *csv_begin(const char *path, const char *header)
{
    static char why[400];
    char err[360];
    rows_csv = csv_open(path, header, err, sizeof err);
    if (rows_csv)
        return NULL;
    snprintf(why, sizeof why, "--csv %s", err);
    return why;
}

/* Rank 0, at the end: 0, or 2 with one line if the file could not be closed. */
int csv_end(void)
{
    char err[360];
    if (!rows_csv || csv_close(rows_csv, err, sizeof err) == 0)
        return rows_csv = NULL, 0;
    rows_csv = NULL;
    fflush(stdout);
    fprintf(stderr, "%s: --csv %s\n", cli_prog, err);
    return 2;
}

/* device, compiler: where the row ran (the CPU or the GPU) and what built it. A row that cannot
 * be written (a full disk) ends the run: one line, exit 2, on every rank. */
void csv_row(const bench_opts *o, const row *r, const char *device, const char *compiler)
{
    int bad = 0;
    char err[360] = "";
    if (me == 0 && rows_csv) {
        char date[32], gflops[32] = "", base[32] = "", errr[32] = "", dev[256], comp[128];
        csv_field(dev, sizeof dev, device);
        csv_field(comp, sizeof comp, compiler);
        sysinfo_utc_now(date, sizeof date);
        const double g = bench_gflops(o, r->s, r->ms_median), bg = bench_gflops(o, r->s, r->base_ms);
        if (g >= 0) /* (none where alpha = 0: bench.h) */
            snprintf(gflops, sizeof gflops, "%.3f", g);
        if (r->base_ms > 0 && bg >= 0)
            snprintf(base, sizeof base, "%.3f", bg);
        if (r->checked)
            snprintf(errr, sizeof errr, "%.3g", r->vr.max_err_ratio);
        bad = csv_appendf(rows_csv, err, sizeof err,
                          "13_distributed,%s,%d,%d,%d,%s,%d,%d,%d,%d,%.6f,%.6f,%s,%s,%s,%s,%s,%s,"
                          "%s,%s,%s", r->variant, r->s->m, r->s->n, r->s->k, grid_name, nranks,
                          r->threads, grid.nb, r->reps, r->ms_median, r->ms_min,
                          gflops, r->base_ms > 0 ? "psgemm" : "", base, errr,
                          r->checked ? (r->vr.pass ? "PASS" : "FAIL") : "-", dev, comp,
                          sysinfo_git_rev(), date) != 0;
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, grid.all);
    if (bad) {
        if (me == 0)
            fprintf(stderr, "%s: --csv %s\n", cli_prog, err);
        exit(2);
    }
}

void print_row(const bench_opts *o, const row *r)
{
    if (me != 0)
        return;
    const double g = bench_gflops(o, r->s, r->ms_median);
    char ratio[32] = "-", err[32] = "-", gflops[32] = "-", per_core[32] = "-";
    if (g >= 0) { /* (none where alpha = 0: bench.h) */
        snprintf(gflops, sizeof gflops, "%.2f", g);
        snprintf(per_core, sizeof per_core, "%.2f", g / (nranks * r->threads));
    }
    if (r->base_ms > 0)
        snprintf(ratio, sizeof ratio, "%.2fx", r->base_ms / r->ms_median);
    if (r->checked)
        snprintf(err, sizeof err, "%.1e", r->vr.rel_err);
    printf("%-18s %6d %6d %6d %5s %3d %10.3f %10s %9s %10s %8s  %s\n", r->variant, r->s->m,
           r->s->n, r->s->k, grid_name, r->threads, r->ms_median, gflops, per_core, ratio, err,
           r->checked ? (r->vr.pass ? "PASS" : "FAIL") : "-");
    fflush(stdout);
}
