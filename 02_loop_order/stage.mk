# ijk is stage 01's kernel: linked, not copied.
02_loop_order_EXTRA_SRCS := 01_naive/naive.c
