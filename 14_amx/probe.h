/* probe.h: --probe (probe.c), how VDPBF16PS and the tile unit round and add. */
#ifndef PROBE_H
#define PROBE_H

#include "bench_types.h"

/* Probe every selected BF16 variant of st; prints what it finds; returns 0. */
int probe_main(const stage_info *st, const bench_opts *o);

#endif
