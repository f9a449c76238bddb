/* onednn.c: oneDNN's matmul primitive through its C API, loaded with dlopen: the stage builds
 * and runs without it. The declarations below are the few that are used, copied in meaning
 * from dnnl.h (oneDNN 3.x: memory descriptors are handles, scales are run-time arguments).
 *
 * PyPI's onednn (2026.1, oneDNN 3.13) is the build for Intel's compilers: it needs their
 * runtime libraries (libintlc, libimf, libsvml), TBB and libsycl, which pip installs beside it
 * with no search path between them, so they are loaded first, by full path. Its threads are
 * TBB's: it uses the cores of the process's CPU mask (run under `taskset -c 0` for one).
 */
#include "onednn.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gemm.h"

typedef void *dnnl_handle; /* engine, stream, memory, memory desc, primitive desc, primitive, attr */
typedef int64_t dnnl_dims_t[12];
typedef struct { int arg; dnnl_handle memory; } dnnl_exec_arg_t;
typedef struct { int major, minor, patch; const char *hash; unsigned cpu_runtime, gpu_runtime; } dnnl_version_t;
enum { DNNL_SUCCESS = 0, DNNL_CPU = 1, DNNL_STREAM_IN_ORDER = 1, DNNL_BF16 = 2, DNNL_F32 = 3 };
enum { ARG_SRC = 1, ARG_DST = 17, ARG_WEIGHTS = 33, ARG_ATTR_SCALES = 4096 };

static struct {
    int (*engine_create)(dnnl_handle *, int kind, size_t index);
    int (*stream_create)(dnnl_handle *, dnnl_handle engine, unsigned flags);
    int (*stream_wait)(dnnl_handle);
    int (*md_create)(dnnl_handle *, int ndims, const int64_t *dims, int type, const int64_t *strides);
    int (*md_destroy)(dnnl_handle);
    int (*attr_create)(dnnl_handle *);
    int (*attr_destroy)(dnnl_handle);
    int (*attr_set_scales_mask)(dnnl_handle attr, int arg, int mask);
    int (*attr_set_post_ops)(dnnl_handle attr, dnnl_handle post_ops);
    int (*post_ops_create)(dnnl_handle *);
    int (*post_ops_destroy)(dnnl_handle);
    int (*post_ops_append_sum)(dnnl_handle, float scale, int32_t zero_point, int type);
    int (*matmul_pd_create)(dnnl_handle *, dnnl_handle engine, dnnl_handle src, dnnl_handle wei,
                            dnnl_handle bias, dnnl_handle dst, dnnl_handle attr);
    int (*pd_destroy)(dnnl_handle);
    int (*pd_query)(dnnl_handle pd, int what, int index, void *result);
    int (*primitive_create)(dnnl_handle *, dnnl_handle pd);
    int (*primitive_destroy)(dnnl_handle);
    int (*primitive_execute)(dnnl_handle, dnnl_handle stream, int nargs, const dnnl_exec_arg_t *);
    int (*memory_create)(dnnl_handle *, dnnl_handle md, dnnl_handle engine, void *handle);
    int (*memory_set_handle)(dnnl_handle, void *);
    int (*memory_destroy)(dnnl_handle);
    const dnnl_version_t *(*version)(void);
} dnnl;

static dnnl_handle engine, stream;
static char description[700];

static int missing(const char *why)
{
    fflush(stdout);
    fprintf(stderr, "%s: --baseline onednn: %s: skipped\n", cli_prog, why);
    return 77;
}

/* dir/name, or the loader's own search with dir "" */
static void *open_lib(const char *dir, const char *name, int global)
{
    char path[600];
    snprintf(path, sizeof path, "%s%s%s", dir, *dir ? "/" : "", name);
    return dlopen(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
}

static void python_lib_dir(char *dir, size_t len)
{
    char prefix[400] = "";
    FILE *p = popen("python3 -c 'import sys; print(sys.prefix)' 2>/dev/null", "r");
    *dir = '\0';
    if (!p)
        return;
    int got = fgets(prefix, sizeof prefix, p) != NULL;
    pclose(p);
    prefix[strcspn(prefix, "\n")] = '\0';
    if (got && *prefix)
        snprintf(dir, len, "%s/lib", prefix);
}

#define CHECK(call)                                                                            \
    do {                                                                                       \
        int st_ = (call);                                                                      \
        if (st_ != DNNL_SUCCESS) {                                                             \
            fprintf(stderr, "oneDNN: %s failed (status %d)\n", #call, st_);                   \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

int onednn_load(void)
{
    static const char *const deps[] = {"libintlc.so.5", "libimf.so", "libsvml.so", "libtbb.so.12",
                                       "libsycl.so.9"};
    char dir[512] = "";
    const char *home = getenv("ONEDNN_HOME");
    void *h = NULL;
    if (home && *home) {
        snprintf(dir, sizeof dir, "%s/lib", home);
    } else if (!(h = open_lib("", "libdnnl.so.3", 0))) {
        python_lib_dir(dir, sizeof dir);
    }
    if (!h) {
        if (!*dir)
            return missing("libdnnl.so.3 not found (pip install onednn; or set ONEDNN_HOME)");
        /* PyPI's build runs its "CPU" engine through SYCL on Intel's OpenCL CPU runtime, which
         * pip put beside it; the OpenCL loader finds it only when told where */
        char icd[600];
        snprintf(icd, sizeof icd, "%s/libintelocl.so", dir);
        setenv("OCL_ICD_FILENAMES", icd, 0);
        for (size_t i = 0; i < sizeof deps / sizeof *deps; i++)
            open_lib(dir, deps[i], 1); /* missing ones show as libdnnl's error below */
        if (!(h = open_lib(dir, "libdnnl.so.3", 0))) {
            char why[700];
            const char *e = dlerror();
            snprintf(why, sizeof why, "cannot load libdnnl.so.3 from %s (%s)", dir, e ? e : "?");
            return missing(why);
        }
    }
#define SYM(field, name)                                                                       \
    if (!(*(void **)&dnnl.field = dlsym(h, name)))                                             \
        return missing("libdnnl lacks " name);
    SYM(engine_create, "dnnl_engine_create")
    SYM(stream_create, "dnnl_stream_create")
    SYM(stream_wait, "dnnl_stream_wait")
    SYM(md_create, "dnnl_memory_desc_create_with_strides")
    SYM(md_destroy, "dnnl_memory_desc_destroy")
    SYM(attr_create, "dnnl_primitive_attr_create")
    SYM(attr_destroy, "dnnl_primitive_attr_destroy")
    SYM(attr_set_scales_mask, "dnnl_primitive_attr_set_scales_mask")
    SYM(attr_set_post_ops, "dnnl_primitive_attr_set_post_ops")
    SYM(post_ops_create, "dnnl_post_ops_create")
    SYM(post_ops_destroy, "dnnl_post_ops_destroy")
    SYM(post_ops_append_sum, "dnnl_post_ops_append_sum")
    SYM(matmul_pd_create, "dnnl_matmul_primitive_desc_create")
    SYM(pd_destroy, "dnnl_primitive_desc_destroy")
    SYM(pd_query, "dnnl_primitive_desc_query")
    SYM(primitive_create, "dnnl_primitive_create")
    SYM(primitive_destroy, "dnnl_primitive_destroy")
    SYM(primitive_execute, "dnnl_primitive_execute")
    SYM(memory_create, "dnnl_memory_create")
    SYM(memory_set_handle, "dnnl_memory_set_data_handle")
    SYM(memory_destroy, "dnnl_memory_destroy")
    SYM(version, "dnnl_version")
#undef SYM
    if (dnnl.engine_create(&engine, DNNL_CPU, 0) != DNNL_SUCCESS ||
        dnnl.stream_create(&stream, engine, DNNL_STREAM_IN_ORDER) != DNNL_SUCCESS)
        return missing("no CPU engine");
    const dnnl_version_t *v = dnnl.version();
    snprintf(description, sizeof description, "oneDNN %d.%d.%d (%s), matmul primitive; %s",
             v->major, v->minor, v->patch, v->hash ? v->hash : "?", *dir ? dir : "loader's path");
    return 0;
}

const char *onednn_describe(void) { return description; }

/* The primitive of the last shape asked, and its memory objects */
static struct {
    int M, N, K, lda, ldb, ldc, scaled, summed;
    float beta;
    dnnl_handle prim, mA, mB, mC, mAlpha;
} cache;

static void build(int M, int N, int K, int lda, int ldb, int ldc, int scaled, float beta)
{
    if (cache.prim) {
        dnnl.primitive_destroy(cache.prim);
        dnnl.memory_destroy(cache.mA);
        dnnl.memory_destroy(cache.mB);
        dnnl.memory_destroy(cache.mC);
        if (cache.mAlpha)
            dnnl.memory_destroy(cache.mAlpha);
    }
    const int64_t da[2] = {M, K}, sa[2] = {lda, 1}, db[2] = {K, N}, sb[2] = {ldb, 1};
    const int64_t dc[2] = {M, N}, sc[2] = {ldc, 1}, d1[1] = {1}, s1[1] = {1};
    dnnl_handle a, b, c, one = NULL, attr, po = NULL, pd;
    CHECK(dnnl.md_create(&a, 2, da, DNNL_BF16, sa));
    CHECK(dnnl.md_create(&b, 2, db, DNNL_BF16, sb));
    CHECK(dnnl.md_create(&c, 2, dc, DNNL_F32, sc));
    CHECK(dnnl.attr_create(&attr));
    if (scaled) { /* alpha: one scale for the whole of B, given at run time */
        CHECK(dnnl.attr_set_scales_mask(attr, ARG_WEIGHTS, 0));
        CHECK(dnnl.md_create(&one, 1, d1, DNNL_F32, s1));
    }
    if (beta != 0.0f) { /* beta: C += beta C_old, the "sum" post-op */
        CHECK(dnnl.post_ops_create(&po));
        CHECK(dnnl.post_ops_append_sum(po, beta, 0, 0));
        CHECK(dnnl.attr_set_post_ops(attr, po));
    }
    CHECK(dnnl.matmul_pd_create(&pd, engine, a, b, NULL, c, attr));
    CHECK(dnnl.primitive_create(&cache.prim, pd));
    CHECK(dnnl.memory_create(&cache.mA, a, engine, NULL));
    CHECK(dnnl.memory_create(&cache.mB, b, engine, NULL));
    CHECK(dnnl.memory_create(&cache.mC, c, engine, NULL));
    cache.mAlpha = NULL;
    if (one)
        CHECK(dnnl.memory_create(&cache.mAlpha, one, engine, NULL));
    dnnl.pd_destroy(pd);
    dnnl.attr_destroy(attr);
    if (po)
        dnnl.post_ops_destroy(po);
    dnnl.md_destroy(a), dnnl.md_destroy(b), dnnl.md_destroy(c);
    if (one)
        dnnl.md_destroy(one);
    cache.M = M, cache.N = N, cache.K = K, cache.lda = lda, cache.ldb = ldb, cache.ldc = ldc;
    cache.scaled = scaled, cache.beta = beta;
}

void onednn_bf16(int M, int N, int K, float alpha, const uint16_t *A, int lda, const uint16_t *B,
                 int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const int scaled = alpha != 1.0f;
    if (!cache.prim || cache.M != M || cache.N != N || cache.K != K || cache.lda != lda ||
        cache.ldb != ldb || cache.ldc != ldc || cache.scaled != scaled || cache.beta != beta)
        build(M, N, K, lda, ldb, ldc, scaled, beta);
    CHECK(dnnl.memory_set_handle(cache.mA, (void *)A));
    CHECK(dnnl.memory_set_handle(cache.mB, (void *)B));
    CHECK(dnnl.memory_set_handle(cache.mC, C));
    dnnl_exec_arg_t args[4] = {{ARG_SRC, cache.mA}, {ARG_WEIGHTS, cache.mB}, {ARG_DST, cache.mC}};
    int nargs = 3;
    float a = alpha;
    if (scaled) {
        CHECK(dnnl.memory_set_handle(cache.mAlpha, &a));
        args[nargs++] = (dnnl_exec_arg_t){ARG_ATTR_SCALES | ARG_WEIGHTS, cache.mAlpha};
    }
    CHECK(dnnl.primitive_execute(cache.prim, stream, nargs, args));
    CHECK(dnnl.stream_wait(stream));
}
