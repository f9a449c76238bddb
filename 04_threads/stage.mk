# 04 splits 02's ikj and 03's unroll_2x4 over threads, and runs 03's tile sweep: linked, not
# copied (02 comes with 03, which uses it).
04_threads_USES := 03_tiling
