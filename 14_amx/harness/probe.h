/* probe.h: --probe (probe.c), how VDPBF16PS and the tile unit round and add. */
#ifndef PROBE_H
#define PROBE_H

#include "bench_types.h"

/* Probe every selected BF16 variant of st; prints what it finds; returns 0. */
int probe_main(const stage_info *st, const bench_opts *o);
/* --peak (peak.c): one core's FMA, VDPBF16PS and TDPBF16PS peaks, side by side; returns 0. */
int peak_main(int threads); /* on this many threads at once (1: one core) */

#endif
