/* gpu_kernels.cuh: chapter 11's GPU kernels (../gpu_tiles.cu), as the host code
 * (gpu_host.cu) launches them. */
#ifndef GF_GPU_KERNELS_CUH
#define GF_GPU_KERNELS_CUH

#include <stddef.h>
#include <stdint.h>

#define THREADS 256

__global__ void k_tables(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, size_t pitch,
                         size_t len, int k, int rows, const uint8_t *__restrict__ clog,
                         const uint8_t *__restrict__ log_g, const uint8_t *__restrict__ exp_g);

typedef void rect_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, size_t pitch,
                         size_t ncols, int j0, int nj, int rows, int ngroups,
                         const uint32_t *__restrict__ wtab, int cshift, int accumulate);
extern rect_kernel *const k_rect_g[3];      /* k_rect_g[G] = k_rect<G>, G = 1, 2 */

typedef void affine_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out,
                           size_t pitch, size_t ncols, int k, int rows,
                           const uint32_t *__restrict__ kc);
extern affine_kernel *const k_affine_p[9];  /* k_affine_p[P] = k_affine<P>, P = 1 .. 8 */

#endif
