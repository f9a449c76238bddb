# lab/05_simd: the side program behind the chapter's measurements (not part of make test's builds).
#
# build/rel/05_simd/probe: the micro-kernel alone, the packing, block sizes and the share of the
# FMA peak, side by side (lab/05_simd/probe.c). The last of these times build/peak's own FMA loop,
# from common/peak_lib.c.
build/rel/05_simd/probe: build/rel/lab/05_simd/probe.o build/rel/05_simd/libsimd.a \
    build/rel/common/matrix.o build/rel/common/quick_return.o build/rel/common/sysinfo.o \
    build/rel/common/peak_lib.o build/rel/common/cpu_features.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -lopenblas -lm
