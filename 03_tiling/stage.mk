# ikj is stage 02's kernel, linked for the comparison in one run: never copied.
03_tiling_EXTRA_SRCS := 02_loop_order/loop_order.c
