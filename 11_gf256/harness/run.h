/* run.h: stage 11's driver (run.c): the type of main.c's variant table, and the call that runs
 * it. */
#ifndef GF_RUN_H
#define GF_RUN_H

#include "gemm.h"
#include "../gf256.h"

typedef struct variant {
    gemm_variant v;    /* name, description, runnable() and needs, as in every stage's table */
    gf_encode_fn *fn;  /* the CPU kernel; NULL for a GPU variant */
    int gpu;           /* enum gf_gpu_kernel, or -1 */
} variant;

/* The GPU variants' runnable() and needs: the GPU is opened when one first asks. */
int gpu_usable(void);
extern char gpu_needs[];

/* Parse the command line and run the selected variants: exit status 0 all checks passed, 1 some
 * failed, 2 bad input, 77 nothing selected can run here. */
int gf_main(variant *variants, int nvariants, int argc, char **argv);

#endif
