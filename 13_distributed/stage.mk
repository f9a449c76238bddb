# 13_distributed: an MPI program. Its own files compile with Open MPI's headers and link with
# Open MPI and ScaLAPACK (Debian: openmpi-bin, libopenmpi-dev, libscalapack-openmpi-dev); the
# local product is stage 05's packed GEMM, linked as 06 links it (05's stage.mk gives its kernel
# files their flags). mpicc is gcc plus these flags: we ask it for them rather than compiling
# the shared objects with another compiler.
13_distributed_EXTRA_SRCS := 05_simd/goto.c 05_simd/simd.c 05_simd/kernel_avx512.c \
    05_simd/kernel_avx2.c 05_simd/kernel_omp_simd.c
DIST_MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
DIST_MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null)
# The CPU's ScaLAPACK (DIST_SCALAPACK_DIR: a folder holding a libscalapack-openmpi.so of its own,
# for a machine without the package; bench-host.sh carries one).
DIST_SCALAPACK  := $(if $(DIST_SCALAPACK_DIR),-L$(DIST_SCALAPACK_DIR) -Wl$(,)-rpath$(,)$(DIST_SCALAPACK_DIR)) -lscalapack-openmpi
, := ,
build/rel/13_distributed/%.o build/asan/13_distributed/%.o: EXTRA_CFLAGS += $(DIST_MPI_CFLAGS)
13_distributed/distributed build/asan/13_distributed/distributed build/grade/13_distributed/distributed: \
    LDLIBS += $(DIST_SCALAPACK) $(DIST_MPI_LIBS)
