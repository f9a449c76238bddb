/* hopper.cuh: the Hopper (sm_90a) instructions stage 12 uses, each as a small function.
 *
 *   mbarrier   a 64-bit counter in shared memory with a phase bit: init(count), arrive,
 *              arrive with expected bytes (expect_tx), wait for a phase to complete; arrive on
 *              another CTA of the cluster (mapa gives its address of the same variable)
 *   TMA        cp.async.bulk.tensor: one thread asks the copy engine for a 2-D box of a
 *              tensor map; the engine writes it to shared memory (128-byte swizzled) and counts
 *              the bytes down on an mbarrier; .multicast writes the box into several CTAs;
 *              the other way, a box of shared memory into the tensor (a bulk group)
 *   wgmma      a warpgroup (4 warps, 128 threads) multiplies a 64 x 16 tile of A by a
 *              16 x N tile of B (64 x 8 by 8 x N in TF32), B in shared memory, A there too
 *              or (tf32_rs) in registers, into 64 x N FP32 accumulators in
 *              registers; asynchronous: fence, issue, commit a group, wait for groups
 *   setmaxnreg a warpgroup gives registers back, or takes more, at run time
 *
 * Included by pipeline.cuh (wgmma.cu, tf32.cu, harness/tune.cu). Compile for sm_90a.
 */
#ifndef HOPPER_CUH
#define HOPPER_CUH

#include <stdint.h>

static __device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* ---- mbarrier ---- */
static __device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count));
}
/* make the initialised barriers visible to the copy engine and to the other CTAs of the cluster */
static __device__ __forceinline__ void mbar_fence_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
static __device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)),
                 "r"(bytes)
                 : "memory");
}
static __device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
}
/* arrive on the barrier at the same place in CTA `cta` of this cluster. The default, CTA-scope
 * release is enough: what it releases (a stage of shared memory) was read by wgmma, finished at
 * wgmma_wait; a cluster-scope release made every arrive wait for the thread's memory traffic
 * (measured: the clustered kernel at half speed). */
static __device__ __forceinline__ void mbar_arrive_cluster(uint64_t *bar, unsigned cta)
{
    asm volatile("{\n.reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(
                     smem_u32(bar)),
                 "r"(cta)
                 : "memory");
}
/* wait until the phase with this parity has completed */
static __device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(smem_u32(bar)), "r"(parity)
                     : "memory");
    } while (!done);
}

/* ---- clusters ---- */
static __device__ __forceinline__ unsigned cluster_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
/* every thread of every CTA of the cluster */
static __device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}

/* ---- TMA ---- */
/* the box of `map` whose first element is column x, row y, into shared memory at dst */
static __device__ __forceinline__ void tma_load(void *dst, const void *map, uint64_t *bar, int x,
                                                int y)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(dst)),
                 "l"((uint64_t)map), "r"(smem_u32(bar)), "r"(x), "r"(y)
                 : "memory");
}
/* the same box into dst of every CTA of the cluster in cta_mask, counted on each one's bar */
static __device__ __forceinline__ void tma_load_multicast(void *dst, const void *map,
                                                          uint64_t *bar, int x, int y,
                                                          uint16_t cta_mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%4, %5}], [%2], %3;" ::"r"(smem_u32(dst)),
                 "l"((uint64_t)map), "r"(smem_u32(bar)), "h"(cta_mask), "r"(x), "r"(y)
                 : "memory");
}

/* the box of `map` at column x, row y from shared memory at src (TMA store: what lies outside
 * the tensor is not written); a bulk group per commit, waited for by the issuing thread */
static __device__ __forceinline__ void tma_store(const void *map, const void *src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
                 ::"l"((uint64_t)map), "r"(smem_u32(src)), "r"(x), "r"(y)
                 : "memory");
}
static __device__ __forceinline__ void bulk_commit()
{
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
/* all but the N most recent groups have read their shared memory (it may be written again) */
template <int N> static __device__ __forceinline__ void bulk_wait_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
/* all but the N most recent groups are complete (their writes done) */
template <int N> static __device__ __forceinline__ void bulk_wait()
{
    asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}
/* ordinary shared-memory stores before this are seen by the copy engine's reads after it */
static __device__ __forceinline__ void fence_proxy_async()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
/* a barrier for `count` threads only (a warpgroup), number id (0 is __syncthreads') */
static __device__ __forceinline__ void named_sync(int id, int count)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

/* ---- registers ---- */
template <int N> static __device__ __forceinline__ void setmaxnreg_dec()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
}
template <int N> static __device__ __forceinline__ void setmaxnreg_inc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
}

/* ---- wgmma ---- */
/* The shared-memory descriptor of a tile stored as TMA's 128-byte swizzle leaves it: rows of
 * 128 bytes, eight of them (1024 bytes) one swizzle atom. sbo: bytes from one group of 8 rows
 * to the next (along M for A, along K for B); lbo: bytes from one 64-column block of B to the
 * next (unused for A). Fields in 16-byte units; mode 1 (bits 62-63) = 128-byte swizzle. */
static __device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | (uint64_t)((lbo & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((sbo & 0x3FFFF) >> 4) << 32 | 1ull << 62;
}
static __device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
static __device__ __forceinline__ void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N> static __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
/* The accumulators are written by the tensor cores behind the compiler's back: this empty
 * statement "reads and writes" each one, so that no use of them moves across a wait. */
template <int R> static __device__ __forceinline__ void fence_regs(float (&d)[R])
{
#pragma unroll
    for (int i = 0; i < R; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}
/* The accumulators of a wgmma of N = 128 (64 registers a thread) or 256 (128): the register
 * list in the instruction's text, and the asm operands it names. */
#define WG_REGS64                                                                               \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15," \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31," \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47," \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define WG_REGS128                                                                              \
    WG_REGS64 ", " \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79," \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95," \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111," \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define WG_OUT64(d)                                                                             \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),  \
    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),  \
    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),  \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),  \
    "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),  \
    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),  \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),  \
    "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define WG_OUT128(d)                                                                            \
    WG_OUT64(d), \
    "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),  \
    "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),  \
    "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),  \
    "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),  \
    "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),  \
    "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),  \
    "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),  \
    "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

/* D (64 x N) += A (64 x K) B (K x N), or D = A B when scale_d is 0; K = 16 for BF16, 8 for
 * TF32 (32 bytes of a row either way); NREG = N / 2 accumulators a thread. Thread t of the
 * warpgroup holds, for each block j of 8 columns, d[4j], d[4j+1] at row 16 (t / 32) +
 * (t % 32) / 4, columns 8j + 2 (t % 4) and the next; d[4j+2], d[4j+3] 8 rows further down.
 * BF16: B is transposed (imm-trans-b = 1), its tile N-major as B's rows are. TF32 has no
 * transpose: both tiles K-major (B's from a transposed copy, tf32.cu), and the tensor core
 * reads the top 19 bits of each FP32 value: the low 13 are dropped (truncation). IA, IB, IS:
 * the operand numbers of the descriptors and scale_d, after the NREG accumulators. */
#define WGMMA_FN(NAME, SHAPE_TYPES, NREG, IA, IB, IS, TAIL)                                     \
    static __device__ __forceinline__ void NAME(float (&d)[NREG], uint64_t desc_a,              \
                                                uint64_t desc_b, int scale_d)                   \
    {                                                                                           \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" IS ", 0;\n"                            \
                     "wgmma.mma_async.sync.aligned." SHAPE_TYPES " {" WG_REGS##NREG "}, %" IA   \
                     ", %" IB ", p, 1, 1" TAIL ";\n}\n"                                          \
                     : WG_OUT##NREG(d)                                                          \
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));                                 \
    }

WGMMA_FN(wgmma_m64n256k16, "m64n256k16.f32.bf16.bf16", 128, "128", "129", "130", ", 0, 1")
WGMMA_FN(wgmma_m64n128k16, "m64n128k16.f32.bf16.bf16", 64, "64", "65", "66", ", 0, 1")
WGMMA_FN(wgmma_m64n256k8_tf32, "m64n256k8.f32.tf32.tf32", 128, "128", "129", "130", "")

/* The same with A (64 x 8, TF32) from registers: thread (g, t) = (lane / 4, lane % 4) of warp w
 * gives A(16w + g, t), A(16w + g + 8, t), A(16w + g, t + 4), A(16w + g + 8, t + 4), as
 * mma.sync.m16n8k8 takes them. The registers are read after the instruction is issued: they
 * must not change until wgmma.wait_group says its group is done. */
static __device__ __forceinline__ void wgmma_m64n256k8_tf32_rs(float (&d)[128],
                                                               const uint32_t (&a)[4],
                                                               uint64_t desc_b, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" WG_REGS128 "}, "
                 "{%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                 : WG_OUT128(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
}
WGMMA_FN(wgmma_m64n128k8_tf32, "m64n128k8.f32.tf32.tf32", 64, "64", "65", "66", "")

#endif
