# 06_strassen: the leaves are stage 05's packed GEMM, linked, never copied. The per-file
# flags 05_simd/stage.mk sets on build/rel/05_simd/kernel_*.o (and build/asan/...) apply
# to these same objects, so this program gets 05's kernels built exactly as 05 builds them.
06_strassen_USES := 05_simd
