# 11_gf256: a CPU program (main.c) with a GPU part that is linked in when nvcc is found.
#
# Each SIMD kernel file gets its instruction set alone; the rest of the program runs on
# any x86-64, and the driver calls a kernel only when the CPU has what it needs. The compiler's
# target decides, as in 05's stage.mk: for ARM (make CC=aarch64-linux-gnu-gcc) the x86 files
# get no flags and compile to nothing, and split_neon.c needs none (NEON is every AArch64's).
ifneq ($(filter x86_64-% amd64-% i%86-%,$(shell $(CC) -dumpmachine)),)
build/rel/11_gf256/split_avx2.o build/asan/11_gf256/split_avx2.o: EXTRA_CFLAGS = -mavx2
build/rel/11_gf256/split_avx512.o build/asan/11_gf256/split_avx512.o: EXTRA_CFLAGS = -mavx512f -mavx512bw
build/rel/11_gf256/gfni.o build/asan/11_gf256/gfni.o: EXTRA_CFLAGS = -mgfni -mavx512f -mavx512bw
endif

# The baseline: Intel ISA-L, loaded at run time (harness/isal.c: dlopen), so that the stage builds and
# runs without it (Debian: libisal2; make deps-isal).
11_gf256/gf256 build/asan/11_gf256/gf256 build/grade/11_gf256/gf256 build/grade-asan/11_gf256/gf256: LDLIBS += -ldl

# The GPU part: the kernels (gpu_tiles.cu) and their host code (harness/gpu_host.cu), compiled
# by the Makefile's .cu rule (nvcc, NVFLAGS) and added to the link as two more prerequisites
# ($^); gpu_host.cu's functions replace harness/gpu_none.c's weak stand-ins. The CUDA runtime
# is linked statically, so the program runs wherever the driver is, and reports "no NVIDIA GPU
# or driver found" where none is. The sanitizer build stays without CUDA (the CUDA runtime and
# AddressSanitizer do not mix).
ifneq ($(strip $(NVCC)),)
GF256_CUDA_LIB := $(abspath $(dir $(NVCC))../lib64)
11_gf256/gf256 build/grade/11_gf256/gf256: build/rel/11_gf256/gpu_tiles.o build/rel/11_gf256/harness/gpu_host.o
11_gf256/gf256 build/grade/11_gf256/gf256: LDLIBS += -L$(GF256_CUDA_LIB) -lcudart_static -ldl -lrt -lpthread -lstdc++
endif
