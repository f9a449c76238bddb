# 10_cuda_multigpu: links 09's any-size driver (gemm_warptile_any_size) and cuBLASXt (part of
# libcublas).
10_cuda_multigpu_EXTRA_SRCS := 09_cuda_registers/any_size.cu
