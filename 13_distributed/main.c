/* 13_distributed: one GEMM over many processes, SUMMA on MPI and NCCL against ScaLAPACK's PSGEMM.
 * Launched by mpirun, one rank per core (or per group of cores with --threads, or per GPU for
 * summa_nccl):
 *
 *   make stage13
 *   mpirun -np 4 13_distributed/distributed --grid 2x2 --nb 256 --sizes 2048,4096
 *   mpirun -np 16 --bind-to core 13_distributed/distributed --grid 4x4 -m 8192 --threads 1
 *   mpirun -np 2 13_distributed/distributed --bench-comm --csv comm.csv   (alpha and beta)
 *   python3 13_distributed/cost_model.py results/h100/13_distributed.csv   (the model)
 * As root, mpirun wants --allow-run-as-root; the scripts pass it (and -q: one line on errors).
 *
 * The variants: summa and summa_overlap (distributed.c), local_only (layout.c), the GPU ones
 * (nccl.cu). The harness (harness/dist_main.c, an MPI program's bench_main) times every variant
 * alternately with ScaLAPACK's PSGEMM on the same blocks and grid, and checks it as stage 10
 * does: sampled rows in double precision, against the inputs as the ranks hold them, gathered to
 * rank 0; C poisoned on every rank first. Rank 0 prints; a time is the slowest rank's, from a
 * common start (a barrier). A GPU variant runs where every rank of a node has a GPU of its own.
 */
#include "distributed.h"
#include "harness/harness.h"

static const variant variants[] = {
    {"summa", "SUMMA: MPI_Bcast of A's panel along process rows and B's along columns, "
              "then 05's gemm_simd", summa},
    {"summa_overlap", "SUMMA with panel k+1's MPI_Ibcast in flight while panel k multiplies "
                      "(two buffers)", summa_overlap},
    {"local_only", "summa's local products alone, no broadcasts (zero panels): the compute "
                   "under load; not checked", local_only, .unchecked = 1},
    {"summa_nccl", "SUMMA on GPUs: ncclBroadcast on row and column communicators on a stream "
                   "of their own, 09's gemm_warptile", .gpu = GPU_SUMMA_WARPTILE},
    {"summa_nccl_cublas", "summa_nccl with cuBLAS SGEMM (FP32, no TF32) as the local product",
     .gpu = GPU_SUMMA_CUBLAS},
    {"warptile_alone", "09's gemm_warptile on the whole product in one call, no SUMMA "
                       "(1x1 grid only): summa_nccl's yardstick", .gpu = GPU_ALONE_WARPTILE,
     .one_rank = 1},
    {"cublas_alone", "cuBLAS SGEMM on the whole product in one call (1x1 grid only)",
     .gpu = GPU_ALONE_CUBLAS, .one_rank = 1},
    {"local_only_gpu", "summa_nccl's local products alone, no broadcasts (random panels): the "
                       "GPUs' compute on the grid; not checked", .gpu = GPU_LOCAL_ONLY,
     .unchecked = 1},
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
