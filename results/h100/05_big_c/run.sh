set -u
exec > >(tee $OUT/run.log) 2>&1
export OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4
date -u +%FT%TZ; lscpu > $OUT/machine.txt
mkdir -p build/mkl-lib; for f in .mkl-bundle/libmkl_*.so.3.xz; do xz -dc "$f" > "build/mkl-lib/$(basename "$f" .xz)"; done
export MKL_HOME=$PWD/build/mkl-lib
make -s -j16 GIT_REV=49a9cea 05_simd/simd && cp 05_simd/simd /tmp/simd_cur
cp 05_simd/kernel_avx512.c /tmp/k.keep && cp spreadsrc/kernel_avx512.c 05_simd/kernel_avx512.c
make -s -j16 GIT_REV=49a9cea-spread 05_simd/simd && cp 05_simd/simd /tmp/simd_spread; cp /tmp/k.keep 05_simd/kernel_avx512.c
/tmp/simd_cur --list | head -3
for r in 1 2 3; do for w in cur spread; do for lib in openblas mkl; do
  t0=$SECONDS
  /tmp/simd_$w --variant avx512_6x64 --threads 1 --baseline $lib --sizes 4096,16384x16384x256 --reps 2 --csv $OUT/big_c_$w.csv | grep -E "^avx512_6x64 "
  echo "== round $r $w $lib $((SECONDS - t0)) s"
done; done; done
date -u +%FT%TZ
