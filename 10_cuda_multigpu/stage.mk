# 10_cuda_multigpu: links 09's kernel (gemm_warptile) and cuBLASXt (part of libcublas).
10_cuda_multigpu_EXTRA_SRCS := 09_cuda_registers/cuda_registers.cu
