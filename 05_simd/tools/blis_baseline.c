/* blis_baseline.c: BLIS as the harness's baseline, for the chapter's library comparison.
 *
 * Not part of the stage's own build. `make build/blis/05_simd/simd` (bench.sh does) links the
 * stage's objects and this file against libblis instead of libopenblas: BLIS exports
 * cblas_sgemm itself, and these four functions answer the harness's questions to OpenBLAS
 * (config, core, threads) for BLIS. The two libraries are never in one program.
 */
#include <blis.h>
#include <stdio.h>
#include <unistd.h>

char *openblas_get_config(void)
{
    static char config[128];
    snprintf(config, sizeof config, "BLIS %s (%s)", bli_info_get_version_str(),
             bli_info_get_enable_openmp() ? "OpenMP" : "no OpenMP");
    return config;
}

char *openblas_get_corename(void) { return bli_arch_string(bli_arch_query_id()); }

int openblas_get_num_procs(void) { return (int)sysconf(_SC_NPROCESSORS_ONLN); }

void openblas_set_num_threads(int n) { bli_thread_set_num_threads(n); }
