/* cpu_features.h: the CPU classes, and GEMM_HIDE_ISA, which makes a program act as a CPU of a
 * lower class.
 *
 * The stages ask the CPU what it has with GCC's __builtin_cpu_supports("avx512f") and dispatch
 * on the answer (the SIMD micro-kernels, the GF(2^8) table kernels, the BF16 and AMX kernels, the FMA loops
 * of build/peak). The classes a reader's machine falls in, as far as that dispatch goes:
 *
 *   AVX-512 with AMX          Sapphire Rapids and later Xeons
 *   AVX-512 with AVX512-BF16  AMD Zen 4/5, Cooper Lake
 *   AVX-512                   Skylake-X to Ice Lake
 *   AVX2+FMA                  AMD Zen 1-3, Intel Haswell to Comet Lake, Alder Lake
 *   no SIMD extension         older x86 (SSE only: what the plain C and generic kernels need)
 *
 * GEMM_HIDE_ISA="WORD ..." (spaces or commas) takes features out of what the program sees:
 *
 *   amx          AMX-TILE, AMX-BF16, AMX-INT8
 *   avx512_bf16  AVX512-BF16
 *   gfni         GFNI
 *   avx512       every AVX-512 subset, and with them AVX512-BF16 and AMX
 *   avx2         AVX2 and FMA, and with them everything avx512 hides
 *   avx          AVX, and with it everything avx2 hides: the "no SIMD extension" class
 *
 * so GEMM_HIDE_ISA=avx512 is the AVX2+FMA class on any AVX-512 machine, and `make test` sweeps
 * every class below the machine it runs on (tests/cpu-classes.sh). Hiding is done once, before
 * main: libgcc keeps __builtin_cpu_supports's answers in bit sets it fills at start-up
 * (__cpu_model, __cpu_features2), and cpu_features.c clears the hidden features' bits, so every
 * __builtin_cpu_supports in the program answers 0 for them, whoever asks. It changes the
 * dispatch only: the code the compiler generated for -march=native is what it was (qemu's
 * emulated CPUs, tests/portability.sh, check that). The baseline follows where it can: OpenBLAS,
 * which chose its core from the real CPU, is run on the acted class's core (baseline_blas.c; the
 * header says so); MKL and BLIS keep their own choice. An unknown word stops the program with
 * one line and exit status 2.
 */
#ifndef CPU_FEATURES_H
#define CPU_FEATURES_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The class this program acts as (after GEMM_HIDE_ISA): one of the names above. */
const char *cpu_class(void);

/* The words GEMM_HIDE_ISA named ("avx512", "amx avx512_bf16"), NULL when it names none. */
const char *cpu_hidden_words(void);

/* Where GEMM_HIDE_ISA names a word, one header line: hidden     GEMM_HIDE_ISA="avx512": class
 * "AVX2+FMA" for the dispatch (this CPU: "AVX-512 with AMX"). Nothing otherwise. */
void cpu_print_hidden(FILE *f);

#ifdef __cplusplus
}
#endif

#endif
