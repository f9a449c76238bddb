/* baseline_blas.c: how the CPU stages run and time a kernel, and the library they are measured
 * against (--baseline): OpenBLAS, which every CPU stage links, or Intel's MKL or BLIS, each loaded
 * at run time with dlopen only when asked for, so that neither is needed to build or to test.
 * Why it is one file: the three libraries are found, loaded, held to the kernels the CPU merits
 * and timed in the same way, by the same functions (open_in, missing, check_kernels). */
#include "baseline_blas.h"

#include <cblas.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "sysinfo.h"
#include "timer.h"

void gemm_openblas(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    /* OpenBLAS 0.3.21 computes 0*A*B when alpha == 0, and a NaN in A reaches C */
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, alpha, A, lda, B, ldb, beta,
                C, ldc);
}

/* ------------------------------------------------------------ the library chosen */

/* The CSV's baseline column and the table's "vs" heading: "OpenBLAS", "OpenBLAS-SkylakeX(Zen)"
 * with OPENBLAS_CORETYPE set (asked for, then taken), "MKL-AVX2", "BLIS-zen3". */
static char label[96] = "OpenBLAS";
static char detail[1200]; /* the header's baseline line */
static char lib_path[512];
static gemm_fn *baseline_fn = gemm_openblas;
static void (*lib_set_threads)(int);
static void check_kernels(const char *lib, const char *kernels); /* (below) */

/* MKL: the functions of libmkl_rt that we call (mkl_service.h, mkl_cblas.h). */
typedef struct mkl_version { /* MKLVersion; before 2025 PatchVersion was padding: same offsets */
    int major, minor, update, patch;
    const char *status, *build, *processor, *platform;
} mkl_version;
enum { MKL_THREADING_GNU = 3 };
static void (*mkl_sgemm)(int layout, int ta, int tb, int M, int N, int K, float alpha,
                         const float *A, int lda, const float *B, int ldb, float beta, float *C,
                         int ldc);
static void (*mkl_set_num_threads)(int);

/* BLIS: its own typed API, bli_sgemm with a row and a column stride per matrix. Not its
 * cblas_sgemm: that calls sgemm_, which the linker resolves to OpenBLAS's, loaded first. dim_t
 * is 64 bits in the usual build; bli_info_get_int_type_size says which. */
static void (*blis_sgemm64)(int ta, int tb, int64_t m, int64_t n, int64_t k, const float *alpha,
                            const float *A, int64_t rsa, int64_t csa, const float *B, int64_t rsb,
                            int64_t csb, const float *beta, float *C, int64_t rsc, int64_t csc);
static void (*blis_sgemm32)(int ta, int tb, int32_t m, int32_t n, int32_t k, const float *alpha,
                            const float *A, int32_t rsa, int32_t csa, const float *B, int32_t rsb,
                            int32_t csb, const float *beta, float *C, int32_t rsc, int32_t csc);
static void (*blis_set_threads64)(int64_t);
static void (*blis_set_threads32)(int32_t);

static void gemm_mkl(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    mkl_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, alpha, A, lda, B, ldb, beta, C,
              ldc);
}

static void gemm_blis(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    if (blis_sgemm64) /* row-major: a row stride of ld, a column stride of 1; 0: no transpose */
        blis_sgemm64(0, 0, M, N, K, &alpha, A, lda, 1, B, ldb, 1, &beta, C, ldc, 1);
    else
        blis_sgemm32(0, 0, M, N, K, &alpha, A, lda, 1, B, ldb, 1, &beta, C, ldc, 1);
}

static void mkl_threads(int t) { mkl_set_num_threads(t); }
static void blis_threads(int t)
{
    if (blis_set_threads64)
        blis_set_threads64(t);
    else
        blis_set_threads32(t);
}

/* The loader's error (dlerror) for the first library found that it would not load (not a shared
 * object for this machine, a library it needs missing): such a library is not "absent". */
static char load_error[600];

/* dlopen the first of names[] found in dir ("" : the loader's own search, LD_LIBRARY_PATH
 * first); the path it came from in lib_path; a name there that does not load, in load_error. */
static void *open_in(const char *dir, const char *const *names)
{
    for (; *names; names++) {
        char path[512];
        snprintf(path, sizeof path, "%s%s%s", dir, *dir ? "/" : "", *names);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        struct link_map *map = NULL;
        if (h) {
            snprintf(lib_path, sizeof lib_path, "%s",
                     dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && *map->l_name ? map->l_name
                                                                                     : path);
            return h;
        }
        /* there: a file in dir; searched for by name, any error but the loader's "NAME: cannot
         * open shared object file" about that name itself (one about a library it needs is) */
        const char *why = dlerror();
        const size_t nl = strlen(*names), pl = strlen(path);
        if (!load_error[0] && why &&
            (*dir ? access(path, F_OK) == 0
                  : strncmp(why, *names, nl) || why[nl] != ':' || !strstr(why, "cannot open shared")))
            snprintf(load_error, sizeof load_error, "%s%s%s", strncmp(why, path, pl) ? path : "",
                     strncmp(why, path, pl) ? ": " : "", why); /* the file's name first */
    }
    return NULL;
}

/* Why a library was not loaded: the loader's error where it refused one it found, else absent. */
static const char *not_loaded(const char *absent)
{
    static char why[700];
    if (load_error[0])
        snprintf(why, sizeof why, "found, but the loader refuses it: %s", load_error);
    return load_error[0] ? why : absent;
}

/* The Python environment that `pip install mkl` put libmkl_rt in: <sys.prefix>/lib. */
static void *open_in_python(const char *const *names)
{
    FILE *p = popen("python3 -c 'import sys; print(sys.prefix)' 2>/dev/null", "r");
    char prefix[400] = "", dir[512];
    if (!p)
        return NULL;
    int got = fgets(prefix, sizeof prefix, p) != NULL;
    pclose(p);
    prefix[strcspn(prefix, "\n")] = '\0';
    if (!got || !*prefix)
        return NULL;
    snprintf(dir, sizeof dir, "%s/lib", prefix);
    return open_in(dir, names);
}

static int missing(const char *lib, const char *why)
{
    fflush(stdout);
    fprintf(stderr, "%s: --baseline %s: %s: skipped\n", cli_prog, lib, why);
    return 77;
}

/* MKL loads the kernels for this CPU on its first call, from one library per instruction set:
 * libmkl_avx512.so, libmkl_avx2.so, libmkl_def.so (its default path) ... Which one it took is
 * the code path it runs; found among the libraries the process has loaded. */
static int mkl_kernel_lib(struct dl_phdr_info *info, size_t size, void *data)
{
    static const char *const not_kernels[] = {"rt", "core", "gnu_thread", "intel_thread",
                                              "sequential", "tbb_thread", "intel_lp64",
                                              "intel_ilp64", "vml_", "cdft", "blacs", "scalapack"};
    const char *base = strrchr(info->dlpi_name, '/'), *isa;
    (void)size;
    base = base ? base + 1 : info->dlpi_name;
    if (strncmp(base, "libmkl_", 7) != 0)
        return 0;
    isa = base + 7;
    for (size_t i = 0; i < sizeof not_kernels / sizeof *not_kernels; i++)
        if (strncmp(isa, not_kernels[i], strlen(not_kernels[i])) == 0)
            return 0;
    snprintf(data, 32, "%.*s", (int)strcspn(isa, "."), isa);
    return 1;
}

static int load_mkl(void)
{
    static const char *const names[] = {"libmkl_rt.so.3", "libmkl_rt.so.2", "libmkl_rt.so", NULL};
    const char *home = getenv("MKL_HOME");
    char dir[512];
    void *h;
    if (home && *home) { /* MKL_HOME names the one to take */
        snprintf(dir, sizeof dir, "%s/lib", home);
        if (!(h = open_in(dir, names)) && !(h = open_in(home, names)))
            return missing("mkl", not_loaded("no libmkl_rt.so.3 or .so.2 in $MKL_HOME/lib or "
                                             "$MKL_HOME"));
    } else if (!(h = open_in("", names)) && !(h = open_in_python(names))) {
        return missing("mkl", not_loaded("libmkl_rt.so not found (make deps-mkl installs it "
                                         "from PyPI; or set MKL_HOME)"));
    }
    mkl_sgemm = (__typeof__(mkl_sgemm))dlsym(h, "cblas_sgemm");
    mkl_set_num_threads = (void (*)(int))dlsym(h, "MKL_Set_Num_Threads");
    void (*get_version)(mkl_version *) = (void (*)(mkl_version *))dlsym(h, "MKL_Get_Version");
    int (*set_layer)(int) = (int (*)(int))dlsym(h, "MKL_Set_Threading_Layer");
    if (!mkl_sgemm || !mkl_set_num_threads || !get_version || !set_layer)
        return missing("mkl", "libmkl_rt lacks cblas_sgemm or the MKL_* service functions");
    /* Its GNU OpenMP layer runs on libgomp's threads, the pool our kernels use: with its own
     * (Intel OpenMP), each pool's idle threads spin on the cores the other runs on next. */
    const char *layer = getenv("MKL_THREADING_LAYER");
    if (!(layer && *layer) && set_layer(MKL_THREADING_GNU) != MKL_THREADING_GNU)
        return missing("mkl", "its GNU OpenMP threading layer (libmkl_gnu_thread) is missing");
    mkl_version v;
    memset(&v, 0, sizeof v);
    get_version(&v);
    float one = 1.0f;
    mkl_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1.0f, &one, 1, &one, 1, 0.0f,
              &one, 1); /* the first call picks and loads the kernels */
    char isa[32] = "unknown";
    dl_iterate_phdr(mkl_kernel_lib, isa);
    snprintf(label, sizeof label, "MKL-%s", isa);
    snprintf(detail, sizeof detail,
             "MKL %d.%d Update %d (build %s), kernels libmkl_%s (for \"%s\"); threading %s; %s",
             v.major, v.minor, v.update, v.build ? v.build : "?", isa,
             v.processor ? v.processor : "?",
             layer && *layer ? layer : "GNU OpenMP (libgomp: our kernels' pool)", lib_path);
    baseline_fn = gemm_mkl;
    lib_set_threads = mkl_threads;
    check_kernels("MKL", isa);
    return 0;
}

static int load_blis(void)
{
    static const char *const names[] = {"libblis.so.4", "libblis.so", NULL};
    const char *home = getenv("BLIS_HOME");
    char dir[512];
    void *h;
    if (home && *home) {
        snprintf(dir, sizeof dir, "%s/lib", home);
        if (!(h = open_in(dir, names)) && !(h = open_in(home, names)))
            return missing("blis", not_loaded("no libblis.so.4 in $BLIS_HOME/lib or $BLIS_HOME"));
    } else if (!(h = open_in("", names))) {
        return missing("blis", not_loaded("libblis.so.4 not found (make deps-blis installs it; "
                                          "or set BLIS_HOME)"));
    }
    int (*int_size)(void) = (int (*)(void))dlsym(h, "bli_info_get_int_type_size");
    char *(*version)(void) = (char *(*)(void))dlsym(h, "bli_info_get_version_str");
    int (*arch_id)(void) = (int (*)(void))dlsym(h, "bli_arch_query_id");
    char *(*arch_name)(int) = (char *(*)(int))dlsym(h, "bli_arch_string");
    int (*openmp)(void) = (int (*)(void))dlsym(h, "bli_info_get_enable_openmp");
    void *sgemm = dlsym(h, "bli_sgemm"), *threads = dlsym(h, "bli_thread_set_num_threads");
    if (!int_size || !version || !arch_id || !arch_name || !openmp || !sgemm || !threads)
        return missing("blis", "this libblis lacks bli_sgemm or the bli_info_* functions");
    if (int_size() == 32) { /* (an int either way: the low half of a 64-bit return) */
        blis_sgemm32 = (__typeof__(blis_sgemm32))sgemm;
        blis_set_threads32 = (__typeof__(blis_set_threads32))threads;
    } else {
        blis_sgemm64 = (__typeof__(blis_sgemm64))sgemm;
        blis_set_threads64 = (__typeof__(blis_set_threads64))threads;
    }
    const char *arch = arch_name(arch_id());
    snprintf(label, sizeof label, "BLIS-%s", arch);
    snprintf(detail, sizeof detail, "BLIS %s (kernels for %s, %s); %s", version(), arch,
             openmp() & 1 ? "OpenMP" : "no OpenMP", lib_path);
    baseline_fn = gemm_blis;
    lib_set_threads = blis_threads;
    check_kernels("BLIS", arch);
    return 0;
}

/* ------------------------------------------------------------ the core the CPU merits */

/* A BLAS built for many CPUs (OpenBLAS's DYNAMIC_ARCH, MKL, BLIS) picks its kernels from the CPU
 * it finds; a release older than the CPU may not know it and fall back far: Debian bookworm's
 * OpenBLAS 0.3.21 runs its Prescott (SSE3) core on Xeons of 2023, a fifth of the AVX-512 rate.
 * The class of kernel the CPU can run, from what the CPU and the OS enable: 3 AVX-512, 2 AVX2
 * with FMA, 1 AVX, 0 older. */
static int cpu_class(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        return 3;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return 2;
    return __builtin_cpu_supports("avx") ? 1 : 0;
#else
    return -1; /* not x86: the libraries' choice is taken as it is */
#endif
}

/* OpenBLAS's core for that class (its OPENBLAS_CORETYPE names), NULL where there is none. */
static const char *merited_openblas_core(void)
{
    switch (cpu_class()) {
    case 3: return "SkylakeX";
#if defined(__x86_64__)
    case 2: return __builtin_cpu_is("amd") ? "Zen" : "Haswell";
    case 1: return "Sandybridge";
#endif
    default: return NULL;
    }
}

/* The class of a library's kernels from their name: OpenBLAS's core, MKL's libmkl_<isa>,
 * BLIS's configuration. */
static int kernel_class(const char *name)
{
    static const char *const avx512[] = {"skylakex", "cooperlake", "sapphirerapids", "avx512",
                                         "skx", "knl", "zen4", "zen5", NULL};
    static const char *const avx2[] = {"haswell", "zen", "avx2", NULL};
    static const char *const avx[] = {"sandybridge", "bulldozer", "piledriver", "steamroller",
                                      "excavator", "avx", NULL};
    const char *const *lists[] = {avx512, avx2, avx};
    for (int c = 0; c < 3; c++)
        for (const char *const *w = lists[c]; *w; w++)
            if (strncasecmp(name, *w, strlen(*w)) == 0)
                return 3 - c;
    return 0;
}

static const char *class_name(int c)
{
    return c == 3 ? "AVX-512" : c == 2 ? "AVX2" : c == 1 ? "AVX" : "SSE or older";
}

/* OpenBLAS reads OPENBLAS_CORETYPE once, as it loads: a core can only be chosen before the
 * program starts. So where OpenBLAS took less than the CPU merits and nobody chose a core
 * (OPENBLAS_CORETYPE unset, GEMM_OPENBLAS_AS_IS unset), the program runs itself again at once
 * with OPENBLAS_CORETYPE set, and says so in its header (GEMM_OPENBLAS_FIXED tells the new
 * image what OpenBLAS had picked). If that cannot be done, the header warns and the CSV's
 * baseline column says "(lesser)". The same where GEMM_HIDE_ISA makes the CPU act as a lesser
 * class than OpenBLAS's own core needs (it does not read GEMM_HIDE_ISA): the core of the class
 * acted, so that the baseline is what that class of CPU would run. Runs before main, after
 * OpenBLAS's own start-up. */

const char *cpu_hidden_words(void); /* cpu_features.c (its header's cpu_class is not this file's) */

/* OpenBLAS's core needs more than the class GEMM_HIDE_ISA leaves (1), or not (0). */
static int above_hidden_class(const char *got, const char *merit)
{
    return cpu_hidden_words() && merit && kernel_class(got) > kernel_class(merit);
}
static int refix_errno; /* the re-exec failed: why */

/* GEMM_OPENBLAS_AS_IS: 1 keeps OpenBLAS's own choice; unset, empty or 0 lets the harness correct
 * it; -1 for any other value (refused in cpu_init: "=0" once counted as set). */
static int openblas_as_is(void)
{
    const char *v = getenv("GEMM_OPENBLAS_AS_IS");
    if (!v || !*v || strcmp(v, "0") == 0)
        return 0;
    return strcmp(v, "1") == 0 ? 1 : -1;
}

__attribute__((constructor)) static void openblas_core_fix(void)
{
    const char *merit = merited_openblas_core(), *got = openblas_get_corename();
    const char *asked = getenv("OPENBLAS_CORETYPE");
    if (!merit || (asked && *asked) || openblas_as_is() != 0 ||
        (kernel_class(got) >= kernel_class(merit) && !above_hidden_class(got, merit)))
        return;
    char *args = NULL, **argv = NULL;
    size_t len = 0, cap = 0;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    for (ssize_t n = 1; fd >= 0 && n > 0;) { /* the command line, NUL-separated */
        if (len == cap && !(args = realloc(args, cap = cap ? 2 * cap : 4096)))
            break;
        n = read(fd, args + len, cap - len);
        len += n > 0 ? (size_t)n : 0;
    }
    if (fd >= 0)
        close(fd);
    int argc = 0;
    for (size_t i = 0; args && i < len; i++)
        argc += args[i] == '\0';
    if (args && len > 0 && (argv = calloc((size_t)argc + 1, sizeof *argv))) {
        for (size_t i = 0, a = 0; i < len; i += strlen(args + i) + 1)
            argv[a++] = args + i;
        setenv("OPENBLAS_CORETYPE", merit, 1);
        setenv("GEMM_OPENBLAS_FIXED", got, 1);
        fflush(NULL);
        execv("/proc/self/exe", argv);
        unsetenv("OPENBLAS_CORETYPE"); /* (still the first image: OpenBLAS is as it was) */
        unsetenv("GEMM_OPENBLAS_FIXED");
    }
    refix_errno = errno ? errno : ENOMEM;
    free(argv);
    free(args);
}

static char warning_line[400]; /* the header's warning about the baseline's kernels, or "" */

static void describe_openblas(void)
{
    const char *asked = getenv("OPENBLAS_CORETYPE"), *got = openblas_get_corename();
    const char *fixed = getenv("GEMM_OPENBLAS_FIXED"), *merit = merited_openblas_core();
    const int lesser = merit && kernel_class(got) < kernel_class(merit);
    char why[200] = "";
    if (fixed && *fixed && asked && strcasecmp(asked, got) == 0)
        snprintf(why, sizeof why, "; set by the harness: OpenBLAS picked %s for this CPU, which %s "
                 "%s (GEMM_OPENBLAS_AS_IS=1 keeps its choice)", fixed,
                 cpu_hidden_words() ? "acts as" : "has", class_name(cpu_class()));
    if (!asked || !*asked)
        snprintf(label, sizeof label, "OpenBLAS%s", lesser ? "-" : "");
    else if (strcasecmp(asked, got) == 0)
        snprintf(label, sizeof label, "OpenBLAS-%s", got);
    else
        snprintf(label, sizeof label, "OpenBLAS-%s(%s)", asked, got);
    if (lesser) { /* the CSV says so; the header says why */
        if (!asked || !*asked)
            snprintf(label + strlen(label), sizeof label - strlen(label), "%s", got);
        snprintf(label + strlen(label), sizeof label - strlen(label), "(lesser)");
        snprintf(warning_line, sizeof warning_line,
                 "OpenBLAS runs its %s core (%s) on a CPU with %s, whose core is %s: its rates here "
                 "are not what the library can do (%s)", got, class_name(kernel_class(got)),
                 class_name(cpu_class()), merit,
                 refix_errno ? "running again with OPENBLAS_CORETYPE set failed"
                 : asked && *asked ? "OPENBLAS_CORETYPE asks for it"
                                   : "GEMM_OPENBLAS_AS_IS keeps OpenBLAS's own choice");
    }
    const char *hidden = cpu_hidden_words();
    if (!lesser && hidden && above_hidden_class(got, merit)) /* GEMM_OPENBLAS_AS_IS=1, HIDE_ISA */
        snprintf(warning_line, sizeof warning_line,
                 "OpenBLAS runs its %s core (%s) on a CPU acting as %s (GEMM_HIDE_ISA=\"%s\"), whose "
                 "core is %s: its rates are not that class's (GEMM_OPENBLAS_AS_IS keeps OpenBLAS's own "
                 "choice)", got, class_name(kernel_class(got)), class_name(cpu_class()),
                 hidden, merit ? merit : "?");
    snprintf(detail, sizeof detail, "%s (core %s%s, up to %d threads; run with the same thread "
             "count)", openblas_get_config(), got, why, openblas_get_num_procs());
}

/* MKL's and BLIS's kernel paths, held to the same: a warning when less than the CPU merits. */
static void check_kernels(const char *lib, const char *kernels)
{
    const int merit = cpu_class();
    if (merit >= 0 && kernel_class(kernels) < merit) {
        snprintf(warning_line, sizeof warning_line,
                 "%s runs its %s kernels (%s) on a CPU with %s: its rates here are not what the "
                 "library can do", lib, kernels, class_name(kernel_class(kernels)),
                 class_name(merit));
        snprintf(label + strlen(label), sizeof label - strlen(label), "(lesser)");
    }
}

/* --baseline (o->baseline_lib, checked by cli_parse): load it, or exit 77 with one line. */
static int cpu_init(const bench_opts *o)
{
    const char *lib = o->baseline_lib ? o->baseline_lib : "openblas";
    if (!o->baseline)
        return 0;
    if (strcmp(lib, "mkl") == 0)
        return load_mkl();
    if (strcmp(lib, "blis") == 0)
        return load_blis();
    if (openblas_as_is() < 0)
        cli_die("GEMM_OPENBLAS_AS_IS: expects 1 (keep OpenBLAS's own core) or 0, got '%s'",
                getenv("GEMM_OPENBLAS_AS_IS"));
    /* A core asked for that this CPU cannot run dies of SIGILL at the first call: refuse it. */
    const char *asked = getenv("OPENBLAS_CORETYPE");
    if (asked && *asked && cpu_class() >= 0 && kernel_class(asked) > cpu_class())
        cli_die("OPENBLAS_CORETYPE=%s: that core needs %s, and this CPU has %s (its core: %s)",
                asked, class_name(kernel_class(asked)), class_name(cpu_class()),
                merited_openblas_core() ? merited_openblas_core() : "OpenBLAS's own choice");
    describe_openblas();
    return 0;
}

static void cpu_print_header(FILE *f, const bench_opts *o)
{
    fprintf(f, "%-10s %s, %d cores online\n", "cpu", sysinfo_cpu_model(), sysinfo_cores());
    if (o->baseline)
        fprintf(f, "%-10s %s\n", "baseline", detail);
    else
        fprintf(f, "%-10s none (--no-baseline)\n", "baseline");
    if (o->baseline && *warning_line)
        fprintf(f, "%-10s %s\n", "warning", warning_line);
    /* The pthread build's idle threads spin after each call, on the cores our OpenMP threads
     * need next (and ours on its): the Makefile links the OpenMP build where it is installed. */
    int several = 0, most = 1;
    for (int t = 0; t < o->nthreads; t++) {
        several |= o->threads[t] > 1;
        most = o->threads[t] > most ? o->threads[t] : most;
    }
    /* OpenBLAS counts the processors once, as it loads, in the CPU mask it was started with:
     * under OMP_PROC_BIND or taskset that can be one core, and it never runs on more threads. */
    const int procs = openblas_get_num_procs();
    if (o->baseline && baseline_fn == gemm_openblas && most > procs && procs < sysinfo_cores())
        fprintf(f, "%-10s OpenBLAS counted %d processor(s) as it loaded (a CPU binding was in force: "
                   "OMP_PROC_BIND, OMP_PLACES, taskset) and runs on at most that many threads: "
                   "rows on more threads compare ours with its %d\n", "warning", procs, procs);
    else if (o->baseline && baseline_fn == gemm_openblas && most > procs)
        fprintf(f, "%-10s %d threads on %d cores: OpenBLAS runs at most one a core, so rows on "
                   "more threads compare ours (several a core, taking turns) with its %d\n",
                "note", most, procs, procs);
    if (o->baseline && baseline_fn == gemm_openblas && several &&
        !strstr(openblas_get_config(), "USE_OPENMP"))
        fprintf(f, "%-10s this OpenBLAS is not the OpenMP build: its threads and ours take turns "
                   "spinning, and the ratios on several threads swing from run to run "
                   "(install libopenblas-openmp-dev and rebuild)\n", "warning");
}

static void cpu_set_threads(int t)
{
    omp_set_num_threads(t);
    openblas_set_num_threads(t);
    if (lib_set_threads)
        lib_set_threads(t);
}

/* On the CPU the harness's host buffers are the kernel's buffers: nothing to move. */
static int cpu_setup(bench_problem *p)
{
    (void)p;
    return 0;
}
static void cpu_nothing(bench_problem *p) { (void)p; }

static double cpu_run(bench_problem *p, gemm_fn *fn)
{
    if (!fn)
        fn = baseline_fn;
    double t0 = timer_now();
    fn(p->M, p->N, p->K, p->alpha, p->A, p->lda, p->B, p->ldb, p->beta, p->C, p->ldc);
    return 1e3 * (timer_now() - t0);
}

const bench_backend openblas_backend = {
    .baseline_name = label,
    .baselines = "openblas mkl blis",
    .init = cpu_init,
    .device_name = sysinfo_cpu_model,
    .print_header = cpu_print_header,
    .set_threads = cpu_set_threads,
    .setup = cpu_setup,
    .put_c = cpu_nothing,
    .get_c = cpu_nothing,
    .run = cpu_run,
    .teardown = cpu_nothing,
};
