# 05_simd: stage 04's best kernel, linked (never copied) for the climb from 04 to 05 measured in
# one run (03's and 02's kernels come with it).
05_simd_USES := 04_threads
# make grade STAGE=05: the student writes the generic micro-kernel, the rest is given.
05_simd_EXERCISE_OF := 05_simd/kernel_generic.c

# Per-file flags. The Makefile's CFLAGS say -march=native; these flags are what
# lets the program build for (and run on) a CPU without AVX-512 or AVX2 as well:
#   make CFLAGS="-std=c11 -O3 -march=x86-64-v2 -fopenmp -Wall -Wextra" stage05
# still builds both intrinsics kernels, and goto.c calls each only where the CPU has it.
# The compiler's target decides, not the build machine's: a cross compiler for ARM
# (make CC=aarch64-linux-gnu-gcc, tests/portability.sh) must not get x86 flags, and the x86
# kernel files compile to nothing there. kernel_neon.c needs no flag: NEON is every AArch64's.
ifneq ($(filter x86_64-% amd64-% i%86-%,$(shell $(CC) -dumpmachine)),)
build/rel/05_simd/kernel_avx512.o build/asan/05_simd/kernel_avx512.o: \
    EXTRA_CFLAGS = -mavx512f -mavx512dq -mavx512vl -mfma
build/rel/05_simd/kernel_avx2.o build/asan/05_simd/kernel_avx2.o: EXTRA_CFLAGS = -mavx2 -mfma
endif

