# lab/12_cuda_tensor_cores: a side program, no GPU needed.
#
# build/rel/12_cuda_tensor_cores/tf32_error: TF32 and 3xTF32 sums emulated on the CPU against the
# FP32 bound (lab/12_cuda_tensor_cores/tf32_error.c; NOTES.md, "TF32 and 3xTF32 on the CPU").
build/rel/12_cuda_tensor_cores/tf32_error: build/rel/lab/12_cuda_tensor_cores/tf32_error.o \
    build/rel/common/matrix.o build/rel/common/sysinfo.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -lm
