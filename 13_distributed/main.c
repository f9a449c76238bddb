/* 13_distributed: one GEMM over many processes. Launched by mpirun, one rank per core (or per
 * group of cores with --threads, or per GPU for summa_nccl):
 *
 *   make stage13
 *   mpirun -np 4 13_distributed/distributed --grid 2x2 --nb 256 --sizes 2048,4096
 *   mpirun -np 16 --bind-to core 13_distributed/distributed --grid 4x4 -m 8192 --threads 1
 *   mpirun -np 2 13_distributed/distributed --bench-comm --csv comm.csv   (alpha and beta)
 *   lab/13_distributed/bench-host.sh OUTDIR   (the chapter's runs, on the 16-core GPU host)
 * As root, mpirun wants --allow-run-as-root; the scripts pass it (and -q: one line on errors).
 *
 * Every variant is timed alternately with ScaLAPACK's PSGEMM on the same blocks and grid, and
 * checked as stage 10 checks: sampled rows in double precision, against the inputs as the
 * ranks hold them, gathered to rank 0; C poisoned on every rank first (harness.c). Rank 0
 * prints; a time is the slowest rank's, from a common start (a barrier).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../05_simd/simd.h"
#include "baseline_blas.h"
#include "bench.h"
#include "harness/comm_bench.h"
#include "csv.h"
#include "harness/harness.h"
#include "cpu_features.h"
#include "sysinfo.h"


static const variant variants[] = {
    {"summa", "SUMMA: MPI_Bcast of A's panel along process rows and B's along columns, "
              "then 05's gemm_simd", summa},
    {"summa_overlap", "SUMMA with panel k+1's MPI_Ibcast in flight while panel k multiplies "
                      "(two buffers)", summa_overlap},
    {"local_only", "summa's local products alone, no broadcasts (zero panels): the compute "
                   "under load; not checked", local_only, 0, 1},
    {"summa_nccl", "SUMMA on GPUs: ncclBroadcast on row and column communicators on a stream "
                   "of their own, 09's gemm_warptile", NULL, GPU_SUMMA_WARPTILE},
    {"summa_nccl_cublas", "summa_nccl with cuBLAS SGEMM (FP32, no TF32) as the local product",
     NULL, GPU_SUMMA_CUBLAS},
    {"warptile_alone", "09's gemm_warptile on the whole product in one call, no SUMMA "
                       "(1x1 grid only): summa_nccl's yardstick", NULL, GPU_ALONE_WARPTILE, 0, 1},
    {"cublas_alone", "cuBLAS SGEMM on the whole product in one call (1x1 grid only)", NULL,
     GPU_ALONE_CUBLAS, 0, 1},
    {"local_only_gpu", "summa_nccl's local products alone, no broadcasts (random panels): the "
                       "GPUs' compute on the grid; not checked", NULL, GPU_LOCAL_ONLY, 1},
};

static const dist_stage stage = {
    .stage = "13_distributed",
    .title = "SUMMA on MPI against ScaLAPACK's PSGEMM",
    .gpu_title = "SUMMA on MPI and NCCL against ScaLAPACK's PSGEMM", /* where a rank has a GPU */
    .default_sizes = "1024,2048",
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
};

int main(int argc, char **argv) { return dist_main(&stage, argc, argv); }
