#!/bin/bash
# 11_gf256 on the H100 machine, in one run; everything it writes goes to the folder $OUT.
D=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$D:${LD_LIBRARY_PATH:-}
B=$D/gf256
cd "$OUT" || exit 1
{
  date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv
  lscpu | grep -E 'Model name|^CPU\(s\)|L2|L3'; grep -o -w -E 'gfni|avx512bw|avx512vbmi|avx512_vbmi2' /proc/cpuinfo | sort | uniq -c
  ldd $B
} > env.txt 2>&1
# 1. correctness on the GPU (every erasure set of small codes, awkward lengths), and gfni where the CPU has it
( $B --variant gpu_tables,gpu_rect,gpu_affine,gfni --reps 1 --no-baseline --k 5 --m 3 --len 1,2,15,16,17,33,64,65,4097,65537 --erasures all
  $B --variant gpu_tables,gpu_rect,gpu_affine,gfni --reps 1 --k 10 --m 4 --len 1,3,1000,100001 --offset 5
  $B --variant gpu_tables,gpu_rect,gpu_affine,gfni --reps 1 --no-baseline --k 8 --m 20 --len 7,5000
  $B --variant gpu_tables,gpu_rect,gpu_affine,gfni --reps 1 --no-baseline --k 200 --m 56 --len 1,77,4096
  $B --variant gpu_rect,gpu_affine --reps 1 --no-baseline --k 240 --m 16 --len 33,4096 ) > checks.txt 2>&1
echo "checks exit $?" >> checks.txt
timeout 60 compute-sanitizer --tool memcheck $B --variant gpu_tables,gpu_rect,gpu_affine --reps 1 --no-baseline --k 5 --m 3 --len 1,33,4097 > memcheck.txt 2>&1
echo "memcheck exit $?" >> memcheck.txt
# 2. GPU timings: RS(10,4) kernel only and with PCIe; the copy bandwidth is the header's and the CSV's copy_d2d row
$B --variant gpu_tables,gpu_rect,gpu_affine --len 1M,16M,64M,256M --csv h100.csv > gpu.txt 2>&1
$B --variant gpu_rect,gpu_affine --k 6 --m 3 --len 64M --csv h100.csv >> gpu.txt 2>&1
$B --variant gpu_rect,gpu_affine --k 20 --m 8 --len 64M --csv h100.csv >> gpu.txt 2>&1
for c in 1 2 8; do echo "== GF_RECT_COPIES=$c"; GF_RECT_COPIES=$c $B --variant gpu_rect --len 64M --csv rect_copies.csv; done > rect_copies.txt 2>&1
# 3. this host's CPU (not the reference machine): one thread, ISA-L side by side
$B --variant table,split_avx2,split_tables,gfni --len 16K,1M --csv hostcpu.csv > hostcpu.txt 2>&1
$B --variant split_tables,gfni --len 1M --threads 4,16 --csv hostcpu.csv >> hostcpu.txt 2>&1
ls -la
