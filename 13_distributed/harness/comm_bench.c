/* comm_bench.c: what a message costs, for the cost model (../cost_model.py): the time of
 * n bytes is about alpha + beta*n, alpha the latency, beta the seconds per byte. A broadcast
 * among q ranks costs more than one message: the model fits its own line per communicator. */
#include "comm_bench.h"

#include <stdio.h>
#include <stdlib.h>

#include "baseline_blas.h"
#include "bench.h"
#include "cli.h"
#include "csv.h"
#include "gpu.h"
#include "sysinfo.h"
#include "timer.h"

const char *comm_csv_header =
    "stage,transport,op,ranks,bytes,reps,us_median,us_min,gbytes_s,device,git,date";

#define MAX_BYTES (32L << 20)
#define NCCL_MAX_BYTES (512L << 20) /* NCCL's rows go on to a panel's size: NVLink's slope */
#define MAX_REPS 200

/* Enough repetitions for a stable median without spending long on the large sizes. */
static int reps_for(long bytes)
{
    long r = (64L << 20) / (bytes > 1 ? bytes : 1);
    return r < 5 ? 5 : r > MAX_REPS ? MAX_REPS : (int)r;
}

static void emit(csv_file *csv, const char *transport, const char *op, int ranks, long bytes,
                 int reps, double med, double min, const char *device)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me != 0)
        return;
    const double gbs = med > 0 ? bytes / (med * 1e3) : 0;
    printf("%-6s %-10s %5d %10ld %5d %12.2f %12.2f %9.3f\n", transport, op, ranks, bytes, reps,
           med, min, gbs);
    fflush(stdout);
    if (csv) {
        char date[32], dev[128], err[360];
        sysinfo_utc_now(date, sizeof date);
        csv_field(dev, sizeof dev, device);
        if (csv_appendf(csv, err, sizeof err, "13_distributed,%s,%s,%d,%ld,%d,%.3f,%.3f,%.4f,%s,%s,%s",
                        transport, op, ranks, bytes, reps, med, min, gbs, dev, sysinfo_git_rev(),
                        date) != 0) {
            fprintf(stderr, "%s: --csv %s\n", cli_prog, err);
            MPI_Abort(MPI_COMM_WORLD, 2); /* (rank 0 alone writes: the others wait in a collective) */
        }
    }
}

/* One message there and back between ranks 0 and 1; half the round trip, in microseconds. */
static void pingpong(char *buf, long bytes, int reps, double *t)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        if (me == 0) {
            MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == 1) {
            MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
        t[r] = 0.5e6 * (MPI_Wtime() - t0);
        MPI_Bcast(&t[r], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
}

/* A broadcast from the communicator's rank 0, every communicator of its kind at once; the
 * slowest rank's time from a common start, in microseconds. */
static void bcast(char *buf, long bytes, int reps, MPI_Comm comm, double *t)
{
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, comm);
        double us = 1e6 * (MPI_Wtime() - t0);
        MPI_Allreduce(&us, &t[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
}

void comm_bench(const dist_grid *g, csv_file *out, int gpu, const char *no_gpu, int fixed_reps)
{
    int me, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    csv_file *csv = me == 0 ? out : NULL;
    char *buf = malloc(MAX_BYTES);
    double *t = malloc(sizeof(double) * MAX_REPS);
    if (!buf || !t)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (long i = 0; i < MAX_BYTES; i++)
        buf[i] = (char)i;
    if (me == 0)
        printf("== 13_distributed --bench-comm: %d ranks, grid %dx%d ==\n%-6s %-10s %5s %10s "
               "%5s %12s %12s %9s\n", nranks, g->nprow, g->npcol, "via", "op", "ranks", "bytes",
               "reps", "us median", "us min", "GB/s");
    if (me == 0 && !gpu && no_gpu)
        printf("nccl   skipped: %s\n", no_gpu);
    const char *cpu = sysinfo_cpu_model();
    struct { const char *op; MPI_Comm comm; int ranks, nccl_comm; } kinds[] = {
        {"bcast_all", MPI_COMM_WORLD, nranks, 0},
        {"bcast_row", g->row, g->npcol, 1},
        {"bcast_col", g->col, g->nprow, 2},
    };
    for (long bytes = 8; bytes <= (gpu ? NCCL_MAX_BYTES : MAX_BYTES); bytes *= 4) {
        const int reps = fixed_reps > 0 ? (fixed_reps < MAX_REPS ? fixed_reps : MAX_REPS) : reps_for(bytes);
        const int mpi = bytes <= MAX_BYTES; /* (past it, NCCL's rows only) */
        if (nranks >= 2 && mpi) {
            pingpong(buf, bytes, reps, t);
            const double mn = timer_min(t, reps), md = timer_median(t, reps);
            emit(csv, "mpi", "pingpong", 2, bytes, reps, md, mn, cpu);
        }
        for (int k = 0; k < 3; k++) {
            if (k > 0 && (kinds[k].ranks == nranks || kinds[k].ranks < 2))
                continue; /* a 1 x P or P x 1 grid: the same as bcast_all, or one rank: no message */
            if (mpi) {
                bcast(buf, bytes, reps, kinds[k].comm, t);
                const double mn = timer_min(t, reps), md = timer_median(t, reps);
                emit(csv, "mpi", kinds[k].op, kinds[k].ranks, bytes, reps, md, mn, cpu);
            }
            if (gpu) {
                double gmd, gmn;
                gpu_bcast_us(g, kinds[k].nccl_comm, bytes, reps, &gmd, &gmn);
                emit(csv, "nccl", kinds[k].op, kinds[k].ranks, bytes, reps, gmd, gmn,
                     gpu_device_name());
            }
        }
    }
    free(buf);
    free(t);
}
