/* 10_cuda_multigpu: several GPUs, and matrices larger than a GPU's memory.
 *   make stage10 && ./10_cuda_multigpu/cuda_multigpu --sizes 8192,16384 --gpus 1,2
 *   ./10_cuda_multigpu/cuda_multigpu --variant tiled_streams --sizes 65536 --tile 8192 \
 *       --stats stats.csv --timeline timeline.csv
 *   lab/10_cuda_multigpu/bench.sh results/h200x2      (the chapter's runs)
 * A, B and C live in host memory; every variant returns with C back there, and is timed so.
 */
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/multigpu.h"

/* 09's kernel and cuBLAS apply alpha to the finished dot product: alpha_last (gemm.h; 09's
 * chapter says why). The fields before it keep their defaults: err_c, normwise. */
#define ALPHA_LAST 0, 0, 1

static const gemm_variant variants[] = {
    {"rows_split", "a band of rows of C per GPU with the 09 kernel; A's band and all of B in once",
     gemm_rows_split, ALPHA_LAST},
    {"tiled_streams", "C in tiles from a shared queue, blocks streamed on several streams, "
                      "device memory as a cache; the 09 kernel", gemm_tiled_streams, ALPHA_LAST},
    {"tiled_streams_cublas", "tiled_streams with cuBLAS (FP32, no TF32) computing each tile",
     gemm_tiled_streams_cublas, ALPHA_LAST},
};

/* "24G", "512M", "3.5G", "800K" or bytes */
static double parse_bytes(const char *what, const char *val)
{
    char *end = NULL;
    double v = strtod(val, &end);
    if (end == val || v <= 0)
        cli_die("%s: '%s' is not a size (e.g. 24G, 512M)", what, val);
    double unit = 1;
    if (*end == 'K' || *end == 'k')
        unit = 1024.0, end++;
    else if (*end == 'M' || *end == 'm')
        unit = 1048576.0, end++;
    else if (*end == 'G' || *end == 'g')
        unit = 1073741824.0, end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end)
        cli_die("%s: '%s' is not a size (e.g. 24G, 512M)", what, val);
    return v * unit;
}

/* --timeline: a file the runs will write, refused now, not after the first run has taken
 * minutes; opened to append, so that a run that never writes it (no GPU here: exit 77) leaves
 * an existing file as it was and a new one not made. (--stats is opened here too, by
 * cli_csv_open, with its header checked.) */
static const char *writable(const char *what, const char *path)
{
    struct stat st;
    const int existed = stat(path, &st) == 0;
    FILE *f = fopen(path, "a");
    if (!f)
        cli_die("%s: cannot open %s for writing", what, path);
    fclose(f);
    if (!existed)
        remove(path);
    return path;
}

static int stage_option(bench_opts *o, const char *opt, const char *val)
{
    (void)o;
    if (!strcmp(opt, "--tile") || !strcmp(opt, "--kblock") || !strcmp(opt, "--streams") ||
        !strcmp(opt, "--device-mem") || !strcmp(opt, "--xt-block") || !strcmp(opt, "--stats") ||
        !strcmp(opt, "--timeline")) {
        if (!val)
            cli_die("%s needs a value", opt);
        if (!strcmp(opt, "--tile"))
            mg.tile = (int)cli_long(opt, val, 1, 1 << 20);
        else if (!strcmp(opt, "--kblock"))
            mg.kblock = (int)cli_long(opt, val, 1, 1 << 24);
        else if (!strcmp(opt, "--streams"))
            mg.streams = (int)cli_long(opt, val, 1, MG_MAX_STREAMS);
        else if (!strcmp(opt, "--device-mem"))
            mg.device_mem = parse_bytes(opt, val);
        else if (!strcmp(opt, "--xt-block"))
            mg.xt_block = (int)cli_long(opt, val, 64, 1 << 16);
        else if (!strcmp(opt, "--stats"))
            mg.stats = cli_csv_open(opt, val, MG_STATS_HEADER);
        else
            mg.timeline = writable(opt, val);
        return 2;
    }
    return 0;
}

#define HELP                                                                                   \
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

static stage_info stage = {
    .stage = "10_cuda_multigpu",
    .title = "several GPUs: bands, tiles streamed from host memory, cuBLASXt",
    .default_sizes = "4096:16384:x2",
    .default_threads = 1, /* set to the number of GPUs in main() */
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .extra_option = stage_option,
    .extra_help = HELP,
    .backend = &multigpu_backend,
    .gpus_sweep = 1,
};

int main(int argc, char **argv)
{
    /* cuBLASXt has no math-mode setting: this keeps its SGEMM in FP32 (no TF32), as ours */
    setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
    int n = 0;
    if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0)
        stage.default_threads = n < MG_MAX_GPUS ? n : MG_MAX_GPUS;
    else
        cudaGetLastError();
    int rc = bench_main(&stage, argc, argv);
    int stats_rc = cli_csv_close(mg.stats);
    return stats_rc ? stats_rc : rc;
}
