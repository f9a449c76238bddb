# 10_cuda_multigpu: links 09's any-size driver (gemm_warptile_any_size) and cuBLASXt (part of
# libcublas). Its exercise replaces rows_split.cu.
10_cuda_multigpu_USES := 09_cuda_registers
10_cuda_multigpu_EXERCISE_OF := 10_cuda_multigpu/rows_split.cu
