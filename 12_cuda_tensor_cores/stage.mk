# 12_cuda_tensor_cores: the files that use wgmma and setmaxnreg (the Hopper pipeline, pipeline.cuh),
# which exist only for sm_90a (the Hopper-specific target), are built for it alone, whatever
# CUDA_ARCH says (the `-arch=sm_90a` shorthand also runs a plain sm_90 pass that rejects them with
# nvcc 13.0), and make gpu-archs leaves them out (SM90A_SRCS, in the Makefile). The other files
# take the usual flags, so wmma and mma_ldmatrix run on any GPU from sm_80 (make CUDA_ARCH=sm_80);
# main.cu leaves the wgmma variants out on a GPU that is not a Hopper.
TC_SM90A := -gencode=arch=compute_90a,code=sm_90a
TC_SM90A_SRCS := $(addprefix 12_cuda_tensor_cores/,wgmma.cu tf32.cu harness/tune.cu)
SM90A_SRCS += $(TC_SM90A_SRCS)
$(patsubst %.cu,build/rel/%.o,$(TC_SM90A_SRCS)): NVFLAGS := $(filter-out -gencode arch=%,$(NVFLAGS)) $(TC_SM90A)
# make gpu-archs leaves out --tune's mma_pipelined rows (ARCHS_SKIP_SRCS): the same kernel as
# harness/mma_pipelined.cu's, which it builds, in twenty more shapes (two minutes of nvcc).
ARCHS_SKIP_SRCS += 12_cuda_tensor_cores/harness/tune_mma.cu
12_cuda_tensor_cores_ANSWERS := 12_cuda_tensor_cores/mma_pipelined.cuh # the kernel holds the exercise's mma_ldmatrix, grown
