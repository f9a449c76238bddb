/* nccl_none.c: the GPU part's stand-ins, for a build without nvcc or NCCL. nccl.cu, when it is
 * linked in, defines the same functions strongly and these weak ones are dropped. */
#include "gpu.h"

#include <stdlib.h>

#define WEAK __attribute__((weak))

#ifndef DIST_NO_GPU_WHY
#define DIST_NO_GPU_WHY "built without NCCL or nvcc (the Makefile looks in NCCL_HOME, the CUDA toolkit and Python's nvidia/nccl)"
#endif

WEAK const char *gpu_missing(void) { return DIST_NO_GPU_WHY; }
WEAK int gpu_devices(void) { return 0; }
WEAK int gpu_init(const dist_grid *g, int device_offset, int always_pack, const char **why)
{
    (void)g, (void)device_offset, (void)always_pack;
    *why = DIST_NO_GPU_WHY;
    return 77;
}
WEAK const char *gpu_device_name(void) { return "none"; }
WEAK const char *gpu_library_names(void) { return "none"; }
WEAK const char *gpu_compiler(void) { return "none"; }
WEAK void gpu_setup(const dist_grid *g, const dist_problem *p) { (void)g, (void)p; abort(); }
WEAK void gpu_put_c(const dist_problem *p) { (void)p; abort(); }
WEAK void gpu_get_c(const dist_problem *p) { (void)p; abort(); }
WEAK void gpu_run(const dist_grid *g, const dist_problem *p, enum gpu_kernel which)
{
    (void)g, (void)p, (void)which;
    abort();
}
WEAK void gpu_teardown(void) {}
WEAK void gpu_trace_next(void) {}
WEAK int gpu_trace_spans(const dist_grid *g, const dist_problem *p, double **spans)
{
    (void)g, (void)p;
    *spans = NULL;
    return 0;
}
WEAK void gpu_bcast_us(const dist_grid *g, int comm, long bytes, int reps, double *median, double *min)
{
    (void)g, (void)comm, (void)bytes, (void)reps;
    *median = *min = 0;
}
