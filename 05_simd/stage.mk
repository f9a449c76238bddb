# 05_simd: stage 04's best kernel, linked (never copied) for the climb from 04 to 05 measured in
# one run; it needs 03's and 02's kernels in turn.
05_simd_EXTRA_SRCS := 04_threads/threads.c 03_tiling/tiling.c 02_loop_order/loop_order.c

# Per-file flags. The Makefile's CFLAGS say -march=native; these flags are what
# lets the program build for (and run on) a CPU without AVX-512 or AVX2 as well:
#   make CFLAGS="-std=c11 -O3 -march=x86-64-v2 -fopenmp -Wall -Wextra" stage05
# still builds both intrinsics kernels, and goto.c calls each only where the CPU has it.
# The compiler's target decides, not the build machine's: a cross compiler for ARM
# (make CC=aarch64-linux-gnu-gcc, tests/portability.sh) must not get x86 flags.
ifneq ($(filter x86_64-% amd64-% i%86-%,$(shell $(CC) -dumpmachine)),)
build/rel/05_simd/kernel_avx512.o build/asan/05_simd/kernel_avx512.o: \
    EXTRA_CFLAGS = -mavx512f -mavx512dq -mavx512vl -mfma
build/rel/05_simd/kernel_avx2.o build/asan/05_simd/kernel_avx2.o: EXTRA_CFLAGS = -mavx2 -mfma
endif

# The same program with BLIS in place of OpenBLAS as its baseline, for bench.sh:
# blis_baseline.c (empty in the normal build) maps the harness's openblas_* calls to BLIS.
SIMD_BLIS_INC ?= /usr/include/x86_64-linux-gnu/blis-openmp
SIMD_OBJS := $(patsubst %,build/rel/%.o,05_simd/main 05_simd/goto 05_simd/simd \
    05_simd/kernel_avx512 05_simd/kernel_avx2 05_simd/kernel_omp_simd \
    04_threads/threads 03_tiling/tiling 02_loop_order/loop_order common/matrix common/verify common/cli common/bench common/csv common/baseline_blas \
    common/quick_return common/edges common/sysinfo)
build/blis/05_simd/simd: $(SIMD_OBJS) build/blis/05_simd/blis_baseline.o
	$(CC) $(CFLAGS) -o $@ $^ -lblis -lm
build/blis/05_simd/blis_baseline.o: 05_simd/blis_baseline.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DSIMD_WITH_BLIS -I$(SIMD_BLIS_INC) -c $< -o $@

# build/rel/05_simd/probe: the chapter's side-by-side measurements of the micro-kernel alone,
# of the packing, of block sizes and of the share of the FMA peak (probe.c, empty in the
# stage's own build, like blis_baseline.c; not part of make test). The last of these times
# build/peak's own FMA loop, from common/peak_lib.c.
build/rel/05_simd/probe: build/probe/05_simd/probe.o $(filter-out build/rel/05_simd/main.o \
    build/rel/05_simd/probe.o build/rel/05_simd/blis_baseline.o,$(filter build/rel/05_simd/%,$(SIMD_OBJS))) \
    build/rel/common/matrix.o build/rel/common/quick_return.o build/rel/common/sysinfo.o \
    build/rel/common/peak_lib.o
	$(CC) $(CFLAGS) -o $@ $^ -lopenblas -lm
build/probe/05_simd/probe.o: 05_simd/probe.c 05_simd/simd.h common/peak.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DSIMD_PROBE -c $< -o $@
