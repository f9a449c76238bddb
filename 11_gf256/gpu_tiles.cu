/* gpu_tiles.cu: 11_gf256 on the GPU, a small coding matrix times a very wide matrix of bytes,
 * in three shapes of a thread's work (the host code that sizes and launches them, with their
 * tables, is harness/gpu_host.cu).
 *
 *   gpu_tables  one thread per byte column; log and exp tables in shared memory. The
 *               direct translation of the scalar kernel: byte loads, two dependent table
 *               lookups per product.
 *   gpu_rect    each thread takes 16 bytes (a uint4) of every chunk and keeps 4 output rows
 *               per 32-bit accumulator word. The tables hold words: T_j[x] packs the products
 *               c(r,j)*x of four rows r, so one lookup serves four rows. The tile (rows per
 *               block, copies of the tables against bank conflicts, blocks per SM) is chosen
 *               at run time from k, m and the device, in dynamic shared memory.
 *   gpu_affine  no tables: the 8x8 bit-matrix product of gfni.c in integer instructions.
 *               Bit b of every byte of a word, as 0/1 bytes, times the byte c*2^b gives that
 *               bit's share of c*x in every byte at once (no carries), XOR the eight shares.
 *
 * Data live in one device buffer per side, chunk j at in + j*pitch, pitch a multiple of 16
 * with the padding zero: a thread's 16-byte load never crosses a chunk's end, and padding
 * bytes encode to padding the host never copies back. Every kernel handles any length.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "harness/gpu_kernels.cuh"

/* __byte_perm on the device; the same selection on the host. */
__host__ __device__ static inline uint32_t bperm(uint32_t x, uint32_t y, uint32_t s)
{
#ifdef __CUDA_ARCH__
    return __byte_perm(x, y, s);
#else
    uint64_t v = (uint64_t)y << 32 | x;
    uint32_t r = 0;
    for (int n = 0; n < 4; n++)
        r |= (uint32_t)(v >> (8 * ((s >> (4 * n)) & 7)) & 0xff) << (8 * n);
    return r;
#endif
}

/* ---- gpu_tables ------------------------------------------------------------------------ */

/* clog[i*k + j] = log of coef(i, j), or 255 for a zero coefficient. */
__global__ void __launch_bounds__(THREADS) k_tables(const uint8_t *__restrict__ in,
                                                    uint8_t *__restrict__ out, size_t pitch,
                                                    size_t len, int k, int rows,
                                                    const uint8_t *__restrict__ clog,
                                                    const uint8_t *__restrict__ log_g,
                                                    const uint8_t *__restrict__ exp_g)
{
    extern __shared__ uint8_t sm[];
    uint8_t *slog = sm, *sexp = sm + 256, *sclog = sm + 768;
    for (int t = threadIdx.x; t < 256; t += blockDim.x)
        slog[t] = log_g[t];
    for (int t = threadIdx.x; t < 512; t += blockDim.x)
        sexp[t] = exp_g[t];
    for (int t = threadIdx.x; t < rows * k; t += blockDim.x)
        sclog[t] = clog[t];
    __syncthreads();
    for (size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x; b < len;
         b += (size_t)gridDim.x * blockDim.x)
        for (int i = 0; i < rows; i++) {
            unsigned acc = 0;
            for (int j = 0; j < k; j++) {
                unsigned x = in[j * pitch + b], c = sclog[i * k + j];
                if (x != 0 && c != 255)
                    acc ^= sexp[slog[x] + c];
            }
            out[i * pitch + b] = (uint8_t)acc;
        }
}

/* ---- gpu_rect ---------------------------------------------------------------------------- */

/* acc[t] holds, for byte t of a word, the products of 4 rows (row r in byte r). Turn four
 * such words into one word per row: a 4x4 byte transpose in 8 byte permutes. */
__host__ __device__ static inline void transpose4(const uint32_t a[4], uint32_t row[4])
{
    uint32_t lo01 = bperm(a[0], a[1], 0x5140), hi01 = bperm(a[0], a[1], 0x7362);
    uint32_t lo23 = bperm(a[2], a[3], 0x5140), hi23 = bperm(a[2], a[3], 0x7362);
    row[0] = bperm(lo01, lo23, 0x5410);
    row[1] = bperm(lo01, lo23, 0x7632);
    row[2] = bperm(hi01, hi23, 0x5410);
    row[3] = bperm(hi01, hi23, 0x7632);
}

/* Tables in shared memory: for input j (of this launch's slice) and row group g of the
 * block, 256 words, each stored `copies` times side by side: thread t reads copy
 * t % copies, which spreads a warp's random lookups over more banks. */
template <int G>
__global__ void __launch_bounds__(THREADS) k_rect(const uint8_t *__restrict__ in,
                                                  uint8_t *__restrict__ out, size_t pitch,
                                                  size_t ncols, int j0, int nj, int rows,
                                                  int ngroups, const uint32_t *__restrict__ wtab,
                                                  int cshift, int accumulate)
{
    extern __shared__ uint32_t stab[];
    const int copies = 1 << cshift, g0 = blockIdx.y * G;
    for (int t = threadIdx.x; t < nj * G * 256; t += blockDim.x) {
        int j = t / (G * 256), g = t / 256 % G, x = t & 255;
        uint32_t w = g0 + g < ngroups ? wtab[((size_t)(j0 + j) * ngroups + g0 + g) * 256 + x] : 0;
        for (int c = 0; c < copies; c++)
            stab[(t << cshift) + c] = w;
    }
    __syncthreads();
    const uint32_t *mine = stab + (threadIdx.x & (copies - 1));
    for (size_t col = (size_t)blockIdx.x * blockDim.x + threadIdx.x; col < ncols;
         col += (size_t)gridDim.x * blockDim.x) {
        uint32_t acc[G][16];
#pragma unroll
        for (int g = 0; g < G; g++)
#pragma unroll
            for (int t = 0; t < 16; t++)
                acc[g][t] = 0;
        for (int j = 0; j < nj; j++) {
            uint4 v = __ldg((const uint4 *)(in + (size_t)(j0 + j) * pitch) + col);
            const uint32_t w[4] = {v.x, v.y, v.z, v.w};
            const uint32_t *tj = mine + ((j * G * 256) << cshift);
#pragma unroll
            for (int q = 0; q < 4; q++)
#pragma unroll
                for (int t = 0; t < 4; t++) {
                    uint32_t x = bperm(w[q], 0, 0x4440 + t); /* byte t, zero-extended */
#pragma unroll
                    for (int g = 0; g < G; g++)
                        acc[g][4 * q + t] ^= tj[(g * 256 + x) << cshift];
                }
        }
#pragma unroll
        for (int g = 0; g < G; g++) {
            if (g0 + g >= ngroups)
                break;
            uint32_t rw[4][4]; /* rw[q][r]: word q of row r */
#pragma unroll
            for (int q = 0; q < 4; q++)
                transpose4(&acc[g][4 * q], rw[q]);
#pragma unroll
            for (int r = 0; r < 4; r++) {
                int row = 4 * (g0 + g) + r;
                if (row >= rows)
                    break;
                uint4 *dst = (uint4 *)(out + (size_t)row * pitch) + col;
                uint4 o = make_uint4(rw[0][r], rw[1][r], rw[2][r], rw[3][r]);
                if (accumulate) { /* a later slice of k adds to what the first wrote */
                    uint4 p = *dst;
                    o.x ^= p.x; o.y ^= p.y; o.z ^= p.z; o.w ^= p.w;
                }
                *dst = o;
            }
        }
    }
}

/* ---- gpu_affine ------------------------------------------------------------------------- */

/* kc[(i*k + j)*8 + b] = coef(i, j) * 2^b: column b of the coefficient's bit matrix. */
template <int P>
__global__ void __launch_bounds__(THREADS) k_affine(const uint8_t *__restrict__ in,
                                                    uint8_t *__restrict__ out, size_t pitch,
                                                    size_t ncols, int k, int rows,
                                                    const uint32_t *__restrict__ kc)
{
    extern __shared__ uint32_t sk[]; /* this block's P rows of kc */
    const int r0 = blockIdx.y * P;
    for (int t = threadIdx.x; t < P * k * 8; t += blockDim.x)
        sk[t] = r0 + t / (k * 8) < rows ? kc[(size_t)r0 * k * 8 + t] : 0;
    __syncthreads();
    for (size_t col = (size_t)blockIdx.x * blockDim.x + threadIdx.x; col < ncols;
         col += (size_t)gridDim.x * blockDim.x) {
        uint32_t acc[P][4];
#pragma unroll
        for (int r = 0; r < P; r++)
#pragma unroll
            for (int q = 0; q < 4; q++)
                acc[r][q] = 0;
        for (int j = 0; j < k; j++) {
            uint4 v = __ldg((const uint4 *)(in + (size_t)j * pitch) + col);
            const uint32_t w[4] = {v.x, v.y, v.z, v.w};
            uint32_t bit[4][8]; /* bit[q][b]: bit b of each byte of word q, as 0 or 1 */
#pragma unroll
            for (int q = 0; q < 4; q++)
#pragma unroll
                for (int b = 0; b < 8; b++)
                    bit[q][b] = w[q] >> b & 0x01010101u;
#pragma unroll
            for (int r = 0; r < P; r++) {
                const uint4 *c4 = (const uint4 *)(sk + (r * k + j) * 8);
                const uint4 ca = c4[0], cb = c4[1];
                const uint32_t c[8] = {ca.x, ca.y, ca.z, ca.w, cb.x, cb.y, cb.z, cb.w};
#pragma unroll
                for (int q = 0; q < 4; q++) {
                    uint32_t s = 0;
#pragma unroll
                    for (int b = 0; b < 8; b++)
                        s ^= bit[q][b] * c[b]; /* 0/1 bytes times a byte: no carries */
                    acc[r][q] ^= s;
                }
            }
        }
#pragma unroll
        for (int r = 0; r < P; r++)
            if (r0 + r < rows)
                ((uint4 *)(out + (size_t)(r0 + r) * pitch))[col] =
                    make_uint4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
    }
}

/* The instantiations the host code launches (harness/gpu_host.cu), taken here: nvcc gives a
 * template kernel's host stub internal linkage, so no other file can name k_rect<1>. */
rect_kernel *const k_rect_g[3] = {NULL, k_rect<1>, k_rect<2>};
affine_kernel *const k_affine_p[9] = {NULL,         k_affine<1>, k_affine<2>,
                                      k_affine<3>,  k_affine<4>, k_affine<5>,
                                      k_affine<6>,  k_affine<7>, k_affine<8>};
