# 10_cuda_multigpu: links 09's kernel (gemm_warptile) and cuBLASXt (part of libcublas).
10_cuda_multigpu_EXTRA_SRCS := 09_cuda_registers/cuda_registers.cu

# The git commit goes into the --stats rows, as for bench.o.
build/rel/10_cuda_multigpu/multigpu.o: build/git-rev
build/rel/10_cuda_multigpu/multigpu.o: EXTRA_NVFLAGS = -DGIT_REV='"$(GIT_REV)"'
