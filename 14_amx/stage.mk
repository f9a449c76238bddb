# 14_amx: 05's loops and kernels are linked (its `simd` row, the cache sizes); 04 and the rest
# come with them.
14_amx_USES := 05_simd
# make grade STAGE=14: the student writes the one-tile AMX micro-kernel, the rest is given.
14_amx_EXERCISE_OF := 14_amx/kernel_amx_naive.c

# Per-file flags, as 05's: each kernel file alone gets the instructions it uses, so the program
# builds for and runs on an x86-64 CPU without them (cpu.c asks before any is called). The
# compiler's target decides: a cross compiler for ARM gets none of these. (peak.c gets none: its
# three loops carry their instruction sets themselves, and the rest of it runs on every CPU.)
ifneq ($(filter x86_64-% amd64-%,$(shell $(CC) -dumpmachine)),)
AMX_FLAGS := -mavx512f -mavx512bw -mavx512vl -mamx-tile -mamx-bf16
build/rel/14_amx/kernel_avx512_bf16.o build/asan/14_amx/kernel_avx512_bf16.o: \
    EXTRA_CFLAGS = -mavx512f -mavx512bw -mavx512vl -mavx512bf16 -mfma
build/rel/14_amx/kernel_amx.o build/asan/14_amx/kernel_amx.o: EXTRA_CFLAGS = $(AMX_FLAGS)
build/rel/14_amx/kernel_amx_naive.o build/asan/14_amx/kernel_amx_naive.o: EXTRA_CFLAGS = $(AMX_FLAGS)
build/rel/14_amx/exercise.o build/asan/14_amx/exercise.o: EXTRA_CFLAGS = $(AMX_FLAGS)
build/rel/14_amx/fp32.o build/asan/14_amx/fp32.o build/rel/14_amx/pack.o build/asan/14_amx/pack.o: \
    EXTRA_CFLAGS = -mavx512f -mavx512bw -mavx512vl
endif
