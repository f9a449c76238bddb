# 09_cuda_registers: warptile.cuh holds the solution of the exercise's last two kernels (warptile,
# async_pipeline) besides cuda_registers.cu: the student edition leaves it out, and ships the
# sources that include it (any_size.cu, harness/tune.cu) compiled.
09_cuda_registers_ANSWERS := 09_cuda_registers/warptile.cuh
# make gpu-archs leaves out --tune's rows (ARCHS_SKIP_SRCS): the kernels of warptile.cuh, which
# cuda_registers.cu and any_size.cu build for every GPU class, in 23 more shapes (two minutes of
# nvcc, half of make gpu-archs).
ARCHS_SKIP_SRCS += 09_cuda_registers/harness/tune.cu
