# 04 splits 02's ikj and 03's unroll_2x4 over threads, and runs 03's tile sweep: linked, not copied.
04_threads_EXTRA_SRCS := 02_loop_order/loop_order.c 03_tiling/tiling.c 03_tiling/sweep.c
