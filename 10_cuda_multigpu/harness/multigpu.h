/* multigpu.h: what the files of 10_cuda_multigpu share.
 *
 *   main.cu            the variant table and the stage_info
 *   options.cu         the stage's options (--tile, --stats, ...)
 *   multigpu.cu        the harness for several GPUs: pinned host matrices, one workspace per
 *                      GPU, wall-clock timing from host memory back to host memory, cuBLASXt
 *                      as the baseline, the per-run breakdown (--stats) and timeline (--timeline)
 *   rows_split.cu      rows_split: a band of rows per GPU (the exercise's counterpart)
 *   tiled_streams.cu   tiled_streams: C in tiles handed out from a shared queue, panels streamed
 *                      from pinned memory on several streams, device memory as a panel cache
 *
 * Every variant is a gemm_fn with HOST pointers: A, B and C live in the host's (pinned)
 * memory, and the call returns when all of C is back there.
 */
#ifndef MULTIGPU_H
#define MULTIGPU_H

#include <cuda_runtime.h>

#include "cuda_harness.cuh"
#include "gemm.h"

#define MG_MAX_GPUS 16
#define MG_MAX_STREAMS 8

/* The stage's settings (its command-line options) and the GPUs in use. */
typedef struct mg_settings {
    int ngpus;            /* GPUs the next call uses: devices 0 .. ngpus-1 (the --gpus sweep) */
    int tile;             /* --tile b: C in b x b tiles (0: chosen from the sizes, see mg_tile) */
    int kblock;           /* --kblock: k in slices of this many (0: 4096) */
    int streams;          /* --streams: compute streams per GPU (3) */
    double device_mem;    /* --device-mem: bytes of device memory a variant may use per GPU
                             (0: all that is free, less a reserve for cuBLASXt) */
    int xt_block;         /* --xt-block: cuBLASXt's block size (cublasXtSetBlockDim) */
    struct csv_file *stats; /* --stats FILE: one CSV row per call (copies, kernel time),
                               opened while the options are read (common/csv.h) */
    const char *timeline; /* --timeline FILE: every copy and kernel of a call, per stream */
} mg_settings;
extern mg_settings mg;

#define MG_STATS_HEADER                                                                        \
    "stage,variant,m,n,k,gpus,tile,kblock,streams,slots_per_gpu,tiles_per_gpu,wall_ms,"         \
    "kernel_busy_ms_max,kernel_busy_ms_mean,kernel_share,h2d_gib,d2h_gib,gflops,"               \
    "kernel_only_gflops,device,git,date"

/* One GPU's share of the harness: streams, a cuBLAS handle (tiled_streams_cublas), and a
 * workspace that grows to what a variant asks for and is kept between calls (freed when
 * the problem size changes). */
typedef struct mg_gpu {
    int device;
    cudaStream_t copy_in;                  /* host -> device copies */
    cudaStream_t compute[MG_MAX_STREAMS];  /* kernels, then device -> host copies */
    void *blas;                            /* cublasHandle_t */
    char *work;
    size_t work_bytes;
    size_t budget;                         /* bytes a variant may hold on this GPU */
} mg_gpu;

mg_gpu *mg_gpu_get(int g);                /* sets the calling thread's device to GPU g */
char *mg_workspace(int g, size_t bytes);  /* GPU g's workspace, at least `bytes` long */
size_t mg_budget(int g);                  /* bytes a variant may use on GPU g (see --device-mem) */

/* The 09 kernel (gemm_warptile_any_size) or cuBLAS on the given stream of the calling thread's
 * GPU: C = alpha*A*B + beta*C, row-major, device pointers. */
typedef enum { MG_KERNEL_09, MG_KERNEL_CUBLAS } mg_kernel;
void mg_gemm(mg_kernel k, mg_gpu *d, cudaStream_t s, int M, int N, int K, float alpha,
             const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc);

/* ---- the record of one call: what went over the bus and how long the kernels ran ---------- */

typedef enum { EV_H2D, EV_KERNEL, EV_D2H } mg_event_kind;

/* One timed piece of work: two CUDA events on one stream of one GPU. */
typedef struct mg_span {
    cudaEvent_t start, stop;
    int gpu, stream; /* stream -1: the copy-in stream */
    mg_event_kind kind;
    int ti, tj, kc;  /* tile and k slice, or -1 */
    double bytes;    /* copies: bytes moved */
} mg_span;

/* Spans are recorded per GPU (no locking: one host thread per GPU). begin records the start
 * event on stream s and returns the span's number; end records its stop event on s. */
int mg_span_begin(int g, cudaStream_t s, int stream_id, mg_event_kind kind, int ti, int tj,
                  int kc, double bytes);
void mg_span_end(int g, int span, cudaStream_t s);
/* At the start of a call: forget the last call's spans, record each GPU's time origin. */
void mg_record_start(int ngpus);
void mg_record_origin(int g); /* from GPU g's own thread, on its copy-in stream */

/* ---- the variants --------------------------------------------------------------------------- */

gemm_fn gemm_rows_split;
gemm_fn gemm_tiled_streams;
gemm_fn gemm_tiled_streams_cublas;

/* The tile size a call uses: --tile, or 8192 halved until every GPU gets at least four tiles
 * (never below 1024), and never larger than the matrix needs. */
int mg_tile(int M, int N);

/* For the stats row: the parameters the last tiled call actually used. */
extern struct mg_last_call {
    int tile, kblock, streams, slots_per_gpu;
    long tiles_per_gpu[MG_MAX_GPUS];
} mg_last;

/* ---- the options (options.cu) ----------------------------------------------------------------- */

/* stage_info.extra_option: --tile, --kblock, --streams, --device-mem, --xt-block (into mg), --stats
 * (opened now, its header checked), --timeline (refused now if it cannot be written) */
int mg_option(bench_opts *o, const char *opt, const char *val);
/* stage_info.finish: --stats closed (0, or 2 after one line) */
int mg_finish(void);
#define MG_HELP                                                                                \
    "  --gpus LIST           GPU counts to sweep, e.g. 1,2,4 (default: all GPUs); the CSV's\n"  \
    "                        threads column holds the count\n"                                    \
    "  --tile B              tiled_streams: C in B x B tiles (default 8192, halved until every\n" \
    "                        GPU gets 4 tiles, not below 1024)\n"                                 \
    "  --kblock KB           tiled_streams: k in slices of KB (default 4096)\n"                   \
    "  --streams S           tiled_streams: compute streams per GPU (default 3)\n"                \
    "  --device-mem SIZE     device memory a variant may use per GPU, e.g. 24G, 512M (default:\n" \
    "                        all that is free, less a reserve for cuBLASXt): out-of-core on\n"    \
    "                        small matrices\n"                                                    \
    "  --xt-block B          cuBLASXt's block size (default 8192)\n"                              \
    "  --stats FILE          append a row per call: copies, kernel busy time, kernel-only rate\n" \
    "  --timeline FILE       every copy and kernel of the last call, per GPU and stream\n"        \
    "                        (plots/10_cuda_multigpu.py draws it)\n"

extern const bench_backend multigpu_backend;

#endif
