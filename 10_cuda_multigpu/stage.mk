# 10_cuda_multigpu: links 09's kernel (gemm_warptile) and cuBLASXt (part of libcublas).
10_cuda_multigpu_USES := 09_cuda_registers
