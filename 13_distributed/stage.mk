# 13_distributed: an MPI program. Its own files compile with Open MPI's headers and link with
# Open MPI and ScaLAPACK (Debian: openmpi-bin, libopenmpi-dev, libscalapack-openmpi-dev); the
# local product is stage 05's packed GEMM, linked as 06 links it (05's stage.mk gives its kernel
# files their flags). mpicc is gcc plus these flags: we ask it for them rather than compiling
# the shared objects with another compiler.
13_distributed_USES := 05_simd
# Where there is no Open MPI (MPICC empty: not on the PATH, or hidden with make MPICC=), the
# stage is left out of the build and of the tests, which say why (make missing-stages).
MPICC ?= $(shell command -v mpicc 2>/dev/null)
ifeq ($(strip $(MPICC)),)
CPU_STAGES := $(filter-out 13_distributed,$(CPU_STAGES))
MISSING_13_distributed := needs Open MPI: no mpicc (make deps installs openmpi-bin libopenmpi-dev; MPICC names another)
endif
DIST_MPI_CFLAGS := $(if $(strip $(MPICC)),$(shell $(MPICC) --showme:compile 2>/dev/null))
DIST_MPI_LIBS   := $(if $(strip $(MPICC)),$(shell $(MPICC) --showme:link 2>/dev/null))
# The CPU's ScaLAPACK (DIST_SCALAPACK_DIR: a folder holding a libscalapack-openmpi.so of its own,
# for a machine without the package; bench-host.sh copies the bundled one to build/dist-lib,
# which later builds there, make test-gpu's among them, keep using).
DIST_SCALAPACK_DIR ?= $(if $(wildcard build/dist-lib/libscalapack-openmpi.so),$(abspath build/dist-lib))
DIST_SCALAPACK_LIB ?= scalapack-openmpi
ifneq ($(DIST_SCALAPACK_DIR),)
DIST_SCALAPACK  := -L$(DIST_SCALAPACK_DIR) -Wl,-rpath,$(DIST_SCALAPACK_DIR) -l$(DIST_SCALAPACK_LIB)
else
DIST_SCALAPACK  := -l$(DIST_SCALAPACK_LIB)
endif
# ScaLAPACK (PSGEMM, the baseline) must link: where it does not (DIST_SCALAPACK_LIB=none hides
# it), the stage is left out as without MPI, and says why.
ifneq ($(strip $(MPICC)),)
DIST_HAS_SCALAPACK := $(shell printf 'void psgemm_(void); int main(void) { psgemm_(); return 0; }\n' | \
    $(CC) -x c - -o /dev/null $(DIST_SCALAPACK) $(DIST_MPI_LIBS) >/dev/null 2>&1 && echo yes)
ifneq ($(DIST_HAS_SCALAPACK),yes)
CPU_STAGES := $(filter-out 13_distributed,$(CPU_STAGES))
MISSING_13_distributed := needs ScaLAPACK: -l$(DIST_SCALAPACK_LIB) does not link (make deps installs libscalapack-openmpi-dev)
endif
endif
build/rel/13_distributed/%.o build/asan/13_distributed/%.o: EXTRA_CFLAGS += $(DIST_MPI_CFLAGS)
13_distributed/distributed build/asan/13_distributed/distributed build/grade/13_distributed/distributed \
    build/grade-asan/13_distributed/distributed: \
    LDLIBS += $(DIST_SCALAPACK) $(DIST_MPI_LIBS)

# summa_nccl: built where nvcc and NCCL are both found. NCCL from NCCL_HOME, else the CUDA
# toolkit's, else the Python environment's (pip's nvidia-nccl: site-packages/nvidia/nccl); each
# a folder with include/nccl.h and lib/ or lib64/libnccl.so(.2). Elsewhere nccl_none.c's
# stand-ins say so (exit 77). The CUDA runtime is linked statically, as in 11_gf256; cuBLAS and
# NCCL are found at run time where they were at build time (rpath). The sanitizer build stays
# without CUDA.
DIST_NCCL_HAS = $(if $(wildcard $(1)/include/nccl.h),$(firstword $(wildcard $(1)/lib64/libnccl.so $(1)/lib/libnccl.so $(1)/lib64/libnccl.so.2 $(1)/lib/libnccl.so.2)))
ifneq ($(strip $(NVCC)),)
DIST_CUDA_HOME := $(abspath $(dir $(NVCC))..)
DIST_NCCL_HOME := $(firstword $(foreach d,$(NCCL_HOME) $(DIST_CUDA_HOME),$(if $(call DIST_NCCL_HAS,$(d)),$(d))))
ifeq ($(DIST_NCCL_HOME),)
DIST_NCCL_PY := $(shell for py in python3 /usr/bin/python3; do $$py -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null && break; done)
DIST_NCCL_HOME := $(if $(DIST_NCCL_PY),$(if $(call DIST_NCCL_HAS,$(DIST_NCCL_PY)),$(DIST_NCCL_PY)))
endif
endif
# (a student edition made without nvcc has 09's driver neither as source nor compiled: no GPU part)
ifeq ($(wildcard 09_cuda_registers/any_size.cu 09_cuda_registers/reference/any_size.cu.o),)
DIST_NCCL_HOME :=
endif
ifneq ($(DIST_NCCL_HOME),)
DIST_NCCL_LIB := $(call DIST_NCCL_HAS,$(DIST_NCCL_HOME))
DIST_GPU_OBJS := build/rel/13_distributed/nccl.o build/rel/09_cuda_registers/any_size.o \
    build/rel/common/cuda_harness.o build/rel/common/quick_return_gpu.o
build/rel/13_distributed/nccl.o build/archs/13_distributed/nccl.o: EXTRA_NVFLAGS = -I$(DIST_NCCL_HOME)/include -DOMPI_SKIP_MPICXX \
    $(filter -I%,$(DIST_MPI_CFLAGS))
13_distributed/distributed build/grade/13_distributed/distributed: $(DIST_GPU_OBJS)
13_distributed/distributed build/grade/13_distributed/distributed: LDLIBS += \
    -L$(DIST_CUDA_HOME)/lib64 -Wl,-rpath,$(DIST_CUDA_HOME)/lib64 -lcublas -lcudart_static \
    $(DIST_NCCL_LIB) -Wl,-rpath,$(dir $(DIST_NCCL_LIB)) -ldl -lrt -lpthread -lstdc++
else
build/rel/13_distributed/harness/nccl_none.o build/asan/13_distributed/harness/nccl_none.o: EXTRA_CFLAGS += \
    -DDIST_NO_GPU_WHY='"built without $(if $(NVCC),NCCL (looked in NCCL_HOME$(comma) the CUDA toolkit and Python'"'"'s nvidia/nccl),nvcc)"'
# (its message names nvcc: the object follows nvcc's line as well as the C compiler's)
build/rel/13_distributed/harness/nccl_none.o build/asan/13_distributed/harness/nccl_none.o: build/nvflags
endif
comma := ,

# tests/stages/13_distributed.sh's stand-in for a node with one GPU (one_gpu_standin.c in place of nccl.cu), so
# that what --bench-comm does with more ranks than GPUs is tested where there is no GPU.
DIST_ONE_GPU := build/test/13_distributed/one_gpu
# (the program's own link inputs, known once the Makefile has read every stage.mk: $$)
$(DIST_ONE_GPU): $$(13_distributed_LINK) build/test/13_distributed/one_gpu_standin.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(DIST_ONE_GPU): LDLIBS += $(DIST_SCALAPACK) $(DIST_MPI_LIBS)
build/test/13_distributed/one_gpu_standin.o: 13_distributed/harness/one_gpu_standin.c build/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DIST_MPI_CFLAGS) -DDIST_ONE_GPU_STANDIN -c $< -o $@
