/* harness.h: what main.cu takes from the stage's own machinery (harness/). */
#ifndef TC_HARNESS_H
#define TC_HARNESS_H

#include "bench_types.h"

/* probe.cu: --probe, how each selected variant's tensor-core instruction adds (a run mode's run,
 * after the backend's init) */
int probe_run(const stage_info *st, bench_opts *o);

/* tune.cu: --tune, wgmma_persistent's configurations, each alone */
extern const gemm_variant wgmma_tune_variants[];
extern const int wgmma_tune_nvariants;

#endif
