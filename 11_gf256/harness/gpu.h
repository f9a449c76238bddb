/* gpu.h: chapter 11's GPU kernels (../gpu_tiles.cu) as the C driver calls them, through their
 * host code (gpu_host.cu).
 *
 * The two .cu files are built and linked only when nvcc is found (stage.mk); gpu_none.c holds
 * weak stand-ins that report "not built with CUDA", which the real ones replace at link time.
 */
#ifndef GF_GPU_H
#define GF_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "timer.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gf_gpu_kernel {
    GF_GPU_TABLES, /* one byte per thread, log/exp tables in shared memory */
    GF_GPU_RECT,   /* run-time tile shape, 4 bytes per word, product tables of words */
    GF_GPU_AFFINE, /* the affine map of gfni.c in integer instructions: no tables */
};

/* What the kernels need from the field: log/exp tables and the 256 x 256 products,
 * all computed on the host by gf256.c. */
typedef struct gf_gpu_field {
    const uint8_t *log, *exp, *mul;
} gf_gpu_field;

typedef struct gf_gpu_timing {
    double ms_median, ms_min;
    int reps;
} gf_gpu_timing;

/* Pick the device: 0 and its name; -1 with the reason in name where there is none to pick (no
 * device, no CUDA: the GPU variants are skipped); -2 where `device` is past the machine's
 * devices (a mistake in the command line: run.c refuses it). */
int gf_gpu_open(int device, char *name, size_t namelen);

/* Device-to-device cudaMemcpy of `bytes`, best of 10: (bytes read + bytes written) / s / 1e9. */
double gf_gpu_copy_gbps(size_t bytes);

/* out = coef x in over len bytes on the GPU (rows x k matrix, host buffers in and out):
 * upload, one run, download. When rule is not NULL, also time (into kernel_t and e2e_t) the
 * kernel alone on resident data, then host-to-device copy + kernel + device-to-host copy from
 * pinned host memory, each as many times as the rule says (common/timer.h). shape gets a few
 * words on the launch (tile shape). Returns 0, or -1 with a message in err (e.g. not enough
 * device memory). */
int gf_gpu_encode(enum gf_gpu_kernel kind, const gf_gpu_field *f, int k, int rows,
                  const uint8_t *coef, const uint8_t *const *in, uint8_t *const *out, size_t len,
                  const timer_rule *rule, gf_gpu_timing *kernel_t, gf_gpu_timing *e2e_t,
                  char *shape, size_t shapelen, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
