/* gpu_none.c: the GPU entry points for a build without CUDA.
 *
 * Weak definitions: when nvcc is found, stage.mk links gpu_host.cu's object as well,
 * and its (strong) definitions take their place. Without it, every GPU variant reports
 * "not built with CUDA" and is skipped (exit status 77 when asked for by name).
 */
#include <stdio.h>

#include "gpu.h"

__attribute__((weak)) int gf_gpu_open(int device, char *name, size_t namelen)
{
    (void)device;
    snprintf(name, namelen, "not built with CUDA (no nvcc when it was built)");
    return -1;
}

__attribute__((weak)) double gf_gpu_copy_gbps(size_t bytes)
{
    (void)bytes;
    return 0;
}

__attribute__((weak)) int gf_gpu_encode(enum gf_gpu_kernel kind, const gf_gpu_field *f, int k,
                                        int rows, const uint8_t *coef, const uint8_t *const *in,
                                        uint8_t *const *out, size_t len,
                                        const timer_rule *rule, gf_gpu_timing *kernel_t,
                                        gf_gpu_timing *e2e_t, char *shape, size_t shapelen,
                                        char *err, size_t errlen)
{
    (void)kind; (void)f; (void)k; (void)rows; (void)coef; (void)in; (void)out; (void)len;
    (void)rule; (void)kernel_t; (void)e2e_t; (void)shape; (void)shapelen;
    snprintf(err, errlen, "not built with CUDA");
    return -1;
}
