# ijk is stage 01's kernel: linked, not copied.
02_loop_order_USES := 01_naive
