/* one_gpu_standin.c: a stand-in for nccl.cu on a node with one GPU, for the stage's tests
 * (tests/stages/13_distributed.sh) on machines without one. In the stage's program it compiles
 * to nothing; stage.mk compiles it again with DIST_ONE_GPU_STANDIN defined and links it with the
 * CPU build into build/test/13_distributed/one_gpu, where its strong definitions replace
 * nccl_none.c's weak ones: the program sees one CUDA device, and gpu_init refuses more ranks on
 * a node than GPUs, as nccl.cu does. Only --bench-comm runs on it: its NCCL timings are a
 * constant. */
#ifdef DIST_ONE_GPU_STANDIN
#include "gpu.h"

#include <stdio.h>

const char *gpu_missing(void) { return NULL; }
int gpu_devices(void) { return 1; }

int gpu_init(const dist_grid *g, int device_offset, int always_pack, const char **why)
{
    static char msg[160];
    (void)always_pack;
    MPI_Comm node;
    int on_node;
    MPI_Comm_split_type(g->all, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
    if (device_offset + on_node <= gpu_devices())
        return 0;
    snprintf(msg, sizeof msg, "the stand-in GPU takes one rank: %d ranks on this node from "
             "--device %d", on_node, device_offset);
    *why = msg;
    return 2;
}

const char *gpu_device_name(void) { return "a stand-in GPU"; }

void gpu_bcast_us(const dist_grid *g, int comm, long bytes, int reps, double *median, double *min)
{
    (void)g, (void)comm, (void)bytes, (void)reps;
    *median = *min = 1.0;
}
#endif
