/* probe.h: --probe (probe.c), how VDPBF16PS and the tile unit round and add. */
#ifndef PROBE_H
#define PROBE_H

#include "bench_types.h"

/* Probe every selected BF16 variant of st; prints what it finds; returns 0 (stage_mode.run). */
int probe_main(const stage_info *st, bench_opts *o);
/* --peak (peak.c): one core's FMA, VDPBF16PS and TDPBF16PS peaks, side by side, on o's last
 * thread count at once (1: one core); returns 0 (stage_mode.run). */
int peak_main(const stage_info *st, bench_opts *o);

#endif
