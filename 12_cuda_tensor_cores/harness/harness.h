/* harness.h: what main.cu takes from the stage's own machinery (harness/). */
#ifndef TC_HARNESS_H
#define TC_HARNESS_H

#include "gemm.h"

/* probe.cu: how variant v's tensor-core instruction adds, printed (--probe) */
void run_probe(const gemm_variant *v);

#endif
