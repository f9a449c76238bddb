# 09_cuda_registers: warptile.cuh holds the solution of the exercise's last two kernels (warptile,
# async_pipeline) besides cuda_registers.cu: the student edition leaves it out, and ships the
# sources that include it (any_size.cu, harness/tune.cu) compiled.
09_cuda_registers_ANSWERS := 09_cuda_registers/warptile.cuh
