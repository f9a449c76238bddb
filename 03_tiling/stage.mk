# ikj is stage 02's kernel, linked for the comparison in one run: never copied.
03_tiling_USES := 02_loop_order
