/* helpers.cuh: the small device helpers of 09_cuda_registers' kernels, yours in exercise.cu too.
 *
 *   rows_are_16B_aligned   may a matrix be read and written as float4?
 *   load4_guarded          four consecutive elements of a row, zeros outside the matrix
 *   store4                 four results to C (alpha, beta; only the columns inside C)
 *   cp_async4, cp_async16  global -> shared memory copies that the thread does not wait for,
 *   cp_async_commit,       grouped, and waited for a group at a time (sm_80 and later)
 *   cp_async_wait<n>
 */
#ifndef HELPERS_CUH
#define HELPERS_CUH

#include <stdint.h>

#include "cuda_harness.cuh"

#define SMEM_DEFAULT_MAX 49152 /* a block may use more shared memory only after an opt-in */
#define PAD_A 4 /* floats added to each row of the transposed A tile (the chapter says why) */

/* float4 loads and stores need 16-byte aligned addresses: the matrix's first element and
 * every row (ld a multiple of 4 floats). Otherwise (e.g. --pad 5) the scalar path is taken. */
static inline bool rows_are_16B_aligned(const float *p, int ld)
{
    return ld % 4 == 0 && (uintptr_t)p % 16 == 0;
}

/* Four consecutive elements (row, col..col+3) of a rows x cols matrix, zeros outside it. */
__device__ __forceinline__ float4 load4_guarded(const float *p, int ld, int row, int col,
                                                int rows, int cols)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row < rows) {
        const float *r = p + (size_t)row * ld;
        if (col + 0 < cols) v.x = r[col + 0];
        if (col + 1 < cols) v.y = r[col + 1];
        if (col + 2 < cols) v.z = r[col + 2];
        if (col + 3 < cols) v.w = r[col + 3];
    }
    return v;
}

/* C[row][col..col+3] = alpha*v + beta*C (C not read when beta == 0), for the columns < N;
 * one 16-byte store when all four are inside and the rows are aligned. */
__device__ __forceinline__ void store4(float *C, int ldc, int row, int col, int N, float4 v,
                                       float alpha, float beta, bool vec)
{
    float *c = C + (size_t)row * ldc + col;
    if (vec && col + 3 < N) {
        float4 r = make_float4(alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w);
        if (beta != 0.0f) {
            float4 o = *reinterpret_cast<const float4 *>(c);
            r.x += beta * o.x; r.y += beta * o.y; r.z += beta * o.z; r.w += beta * o.w;
        }
        *reinterpret_cast<float4 *>(c) = r;
        return;
    }
    if (col + 0 < N) gemm_store(c + 0, alpha, v.x, beta);
    if (col + 1 < N) gemm_store(c + 1, alpha, v.y, beta);
    if (col + 2 < N) gemm_store(c + 2, alpha, v.z, beta);
    if (col + 3 < N) gemm_store(c + 3, alpha, v.w, beta);
}

/* cp.async (sm_80 and later): a copy from global to shared memory that does not pass through
 * registers and does not make the thread wait. src_bytes 0 copies nothing and fills the
 * destination with zeros: the edge of a matrix costs no branch. */
__device__ __forceinline__ void cp_async4(float *smem, const float *gmem, bool inside)
{
#ifdef GEMM_BELOW_SM80 /* (never launched there: async_pipeline needs sm_80, main.cu) */
    __trap();
#else
    unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(gmem),
                 "r"(inside ? 4 : 0)
                 : "memory");
#endif
}
__device__ __forceinline__ void cp_async16(float *smem, const float *gmem)
{
#ifdef GEMM_BELOW_SM80
    __trap();
#else
    unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem) : "memory");
#endif
}
/* The copies issued since the last commit form one group; wait until at most n groups are
 * still in flight. */
__device__ __forceinline__ void cp_async_commit()
{
#ifndef GEMM_BELOW_SM80
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int n> __device__ __forceinline__ void cp_async_wait()
{
#ifndef GEMM_BELOW_SM80
    asm volatile("cp.async.wait_group %0;\n" ::"n"(n) : "memory");
#endif
}

#endif
