/* options.c: 14's stage options (--reference, --bound, --blocks, --split, --units), the titles
 * the header prints, and the runs whose failed checks are a measurement (checks_measure). */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../amx.h"
#include "cli.h"

static int unrounded, bound_fp32;
char amx_title[400], amx_fp32_title[400];

/* The headers' titles: what runs, with the block sizes it runs with (again after --blocks) */
static void describe(void)
{
    int mc, kc, nc;
    bf16_blocking(&kernel_amx_blocked, &mc, &kc, &nc);
    snprintf(amx_title, sizeof amx_title,
             "BF16 A and B, FP32 C: VDPBF16PS and the AMX tiles; amx_blocked's MC=%d KC=%d NC=%d "
             "(KC in BF16 values of a packed row)", mc, kc, nc);
    snprintf(amx_fp32_title, sizeof amx_fp32_title,
             "FP32 A and B on the tile unit: three BF16 pieces, six products; amx_blocked's MC=%d "
             "KC=%d NC=%d (KC in BF16 values of a packed row)", mc, kc, nc);
}

/* Before main: --help prints the title. */
__attribute__((constructor)) static void describe_at_start(void) { describe(); }

static int fp32_mode(const bench_opts *o) { return o->mode && !strcmp(o->mode->flag, "--fp32"); }

/* --bound fp32: how far each FP32 variant is from FP32, a measurement and not a check of the
 * kernels: every c 2, the own bounds (err_in) dropped. --bound own puts them back (the last
 * --bound counts). */
static void fp32_bound(int on)
{
    static gemm_variant *own; /* the table as main.c wrote it */
    if (!own) {
        own = malloc(sizeof *own * (size_t)fp32_nvariants);
        if (!own)
            cli_die("out of memory");
        memcpy(own, fp32_variants, sizeof *own * (size_t)fp32_nvariants);
    }
    for (int v = 0; v < fp32_nvariants; v++) {
        fp32_variants[v].err_c = on ? 2.0 : own[v].err_c;
        fp32_variants[v].err_in = on ? 0.0 : own[v].err_in;
    }
}

int amx_option(bench_opts *o, const char *opt, const char *val)
{
    if (!strcmp(opt, "--reference")) {
        if (!val || (strcmp(val, "rounded") && strcmp(val, "unrounded")))
            cli_die("--reference: '%s' is neither rounded nor unrounded", val ? val : "");
        if (fp32_mode(o))
            cli_die("--reference: not with --fp32 (its inputs are not rounded)");
        unrounded = !strcmp(val, "unrounded");
        bf16_reference_unrounded(unrounded);
        return 2;
    }
    if (!strcmp(opt, "--bound")) {
        if (!val || (strcmp(val, "fp32") && strcmp(val, "own")))
            cli_die("--bound: '%s' is neither fp32 nor own", val ? val : "");
        if (!fp32_mode(o))
            cli_die("--bound: only with --fp32");
        bound_fp32 = !strcmp(val, "fp32");
        fp32_bound(bound_fp32);
        return 2;
    }
    if (!strcmp(opt, "--split")) {
        if (!val || (strcmp(val, "own") && strcmp(val, "shared") && strcmp(val, "auto")))
            cli_die("--split: expects own, shared or auto, got '%s'", val ? val : "");
        bf16_split_override(!strcmp(val, "own") ? 1 : !strcmp(val, "shared") ? 2 : 0);
        return 2;
    }
    if (!strcmp(opt, "--units")) {
        bf16_units_override((int)cli_long("--units", val, 1, 4096));
        return 2;
    }
    if (!strcmp(opt, "--blocks")) {
        long v[3];
        cli_longs("--blocks", "MC,KC,NC (0 keeps the computed value)", val, 3, 0, 1 << 16, v);
        bf16_blocking_override((int)v[0], (int)v[1], (int)v[2]);
        describe();
        return 2;
    }
    return 0;
}

/* The runs whose failed checks are a measurement: they fail by design, exit status 0. */
const char *amx_checks_measure(const bench_opts *o)
{
    (void)o;
    if (unrounded)
        return "--reference unrounded: the checks compare with the float inputs' product and "
               "fail by design";
    if (bound_fp32)
        return "--bound fp32: every variant against the FP32 bound, c = 2; amx_bf16x1 and "
               "amx_bf16x3 fail it by design";
    return NULL;
}
