# gemm-from-scratch: one Makefile for every stage.
#
# A stage is a directory NN_topic/ holding main.c (CPU) or main.cu (GPU), its kernels
# in topic.c / topic.cu, and exercise.c / exercise.cu. Adding the directory adds the
# stage: `make stageNN` builds NN_topic/topic. An optional NN_topic/stage.mk declares the
# earlier stages it uses (NN_topic_USES), the file its exercise replaces (NN_topic_EXERCISE_OF),
# further files that hold answers (NN_topic_ANSWERS) and flags for one file.
# docs/adding-a-stage.md says how.

# ---- the flags, in one place -------------------------------------------------------
CC       = gcc
comma   := ,
# -ffp-contract=fast: let the compiler fuse a*b + c into one FMA instruction. GCC does so by
# default in its GNU dialects but not under -std=c11, which would halve every auto-vectorised
# kernel's peak. It is not -ffast-math: no reassociation, and an FMA rounds once instead of twice.
CFLAGS   = -std=c11 -O3 -march=native -ffp-contract=fast -fopenmp -Wall -Wextra -Wno-missing-field-initializers
CPPFLAGS = -D_GNU_SOURCE -Icommon
# OpenBLAS built on OpenMP (Debian: libopenblas-openmp-dev), found by its directory and linked
# with an rpath, whatever the system's default libopenblas.so.0 is. Its threads are libgomp's,
# the same pool as our kernels': with the pthread build, each library's idle threads spin for a
# while after a call and steal the cores the other one runs on next, and the 2-thread ratio
# column swung from 0.4x to 4.5x between identical runs. Without it: plain -lopenblas, and the
# harness's header says the ratios on several threads are not to be trusted.
OPENBLAS_OMP_DIR ?= $(wildcard /usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null)/openblas-openmp)
LDLIBS   = $(if $(OPENBLAS_OMP_DIR),-L$(OPENBLAS_OMP_DIR) -Wl$(comma)-rpath$(comma)$(OPENBLAS_OMP_DIR)) -lopenblas -lm
SANFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all

NVCC     ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
# The GPU present decides the architecture (compute capability 9.0 -> sm_90); with no
# GPU (CI), sm_90 machine code plus PTX that newer GPUs compile at load time.
CUDA_ARCH ?= $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null \
               | head -n1 | tr -d . | sed 's/^/sm_/')
ifeq ($(strip $(CUDA_ARCH)),)
CUDA_ARCH = sm_90
endif
# -lineinfo: source lines in compute-sanitizer and profiler reports; no effect on the code.
NVFLAGS  = -O3 -std=c++17 -gencode arch=compute_$(CUDA_ARCH:sm_%=%),code=[$(CUDA_ARCH),compute_$(CUDA_ARCH:sm_%=%)] \
           -lineinfo -Xcompiler -fopenmp,-march=native -Icommon
NVLIBS   = -lcublas -lgomp -lm

MACHINE ?= local
PYTHON  ?= $(shell scripts/find-python.sh 2>/dev/null)

# ---- stages, found by their directories ---------------------------------------------
CPU_STAGES := $(patsubst %/main.c,%,$(sort $(wildcard [0-9][0-9]_*/main.c)))
GPU_STAGES := $(if $(NVCC),$(patsubst %/main.cu,%,$(sort $(wildcard [0-9][0-9]_*/main.cu))))
stage_name  = $(patsubst $(firstword $(subst _, ,$(1)))_%,%,$(1))
stage_num   = $(firstword $(subst _, ,$(1)))

COMMON_SRCS := common/matrix.c common/verify.c common/cli.c common/bench.c common/csv.c \
               common/quick_return.c common/edges.c common/sysinfo.c common/cpu_features.c
CPU_COMMON  := $(COMMON_SRCS) common/baseline_blas.c
GPU_COMMON  := $(COMMON_SRCS) common/cuda_harness.cu common/quick_return_gpu.cu

# A stage.mk rule may name a program's link inputs, $$(NN_topic_LINK), which are known only
# once every stage.mk is read: prerequisites are expanded a second time, when make needs them.
.SECONDEXPANSION:
# CUDA sources built for sm_90a alone (Hopper's wgmma and setmaxnreg), each stage.mk adding its own
SM90A_SRCS :=
# CUDA sources make gpu-archs may leave out (a stage.mk says why: no instruction of their own)
ARCHS_SKIP_SRCS :=
-include $(wildcard [0-9][0-9]_*/stage.mk)
# the lab's side programs (probes, emulators), each stage's in lab/NN_topic/lab.mk
-include $(wildcard lab/[0-9][0-9]_*/lab.mk)

obj = $(patsubst %,build/$(1)/%.o,$(basename $(2)))

# The stages $(1) uses, directly or through one it uses, each once and after every stage that
# uses it: the order a linker reads libraries in (a library only resolves what came before it).
uses_all  = $(call last_each,$(foreach u,$($(1)_USES),$(u) $(call uses_all,$(u))))
last_each = $(if $(1),$(if $(filter $(firstword $(1)),$(wordlist 2,$(words $(1)),$(1))),,\
                $(firstword $(1))) $(call last_each,$(wordlist 2,$(words $(1)),$(1))))
# Their libraries for build kind $(1) (rel, asan): build/rel/NN_topic/libtopic.a holds that
# stage's objects but main, and the linker takes from it only what the program calls.
stage_libs = $(foreach u,$(call uses_all,$(2)),build/$(1)/$(u)/lib$(call stage_name,$(u)).a)
ALL_STAGE_DIRS := $(patsubst %/,%,$(dir $(wildcard [0-9][0-9]_*/main.c [0-9][0-9]_*/main.cu)))

# A stage's source files with extension $(2): the lesson's, in the directory, and the stage's own
# machinery, in its harness/ folder (a backend, options, a report: what the chapter does not teach).
# In the student edition (make student-edition) an exercise's solution is there only compiled, as
# reference/name.c.o (.cu.o), and so is a source that includes a file of NN_topic_ANSWERS, in a
# reference/ beside it (harness/reference/ for the harness's): it still counts as the source
# name.c, built from that object.
stage_files = $(wildcard $(1)/*.$(2) $(1)/harness/*.$(2)) $(call reference_only,$(1),$(2))
reference_only = $(filter-out $(wildcard $(1)/*.$(2) $(1)/harness/*.$(2)),\
                     $(patsubst %.o,%,$(subst /reference/,/,\
                         $(wildcard $(1)/reference/*.$(2).o $(1)/harness/reference/*.$(2).o))))
# The file a stage's exercise replaces (stage.mk's NN_topic_EXERCISE_OF, or the one named after it).
exercise_of = $(or $($(1)_EXERCISE_OF),$(1)/$(call stage_name,$(1)).$(if $(wildcard $(1)/main.cu),cu,c))
# A student edition's stage whose solution is neither there nor compiled (reference/ says why: made
# where nvcc or MPI was not) is left out of the build, and make stageNN says so.
UNSOLVED := $(foreach d,$(ALL_STAGE_DIRS),$(if $(wildcard $(d)/reference/),$(if $(filter $(call exercise_of,$(d)),\
                $(call stage_files,$(d),c) $(call stage_files,$(d),cu)),,$(d))))
$(foreach d,$(UNSOLVED),$(eval MISSING_$(d) := has no solution in this edition: $(d)/reference/README.md says why))
CPU_STAGES := $(filter-out $(UNSOLVED),$(CPU_STAGES))
GPU_STAGES := $(filter-out $(UNSOLVED),$(GPU_STAGES))

CPU_BINS   := $(foreach d,$(CPU_STAGES),$(d)/$(call stage_name,$(d)))
GPU_BINS   := $(foreach d,$(GPU_STAGES),$(d)/$(call stage_name,$(d)))
ASAN_BINS  := $(foreach d,$(CPU_STAGES),build/asan/$(d)/$(call stage_name,$(d)))
GRADE_BINS := $(foreach d,$(CPU_STAGES) $(GPU_STAGES),build/grade/$(d)/$(call stage_name,$(d))) \
              $(foreach d,$(CPU_STAGES),build/grade-asan/$(d)/$(call stage_name,$(d)))

# $(1) = directory, $(2) = program name, $(3) = source extension (c or cu).
# The program: every source file of the directory and of its harness/ but the exercise. The grade build: the same with
# exercise.c in place of the file NN_topic_EXERCISE_OF names (default: the one named after
# the stage); build/grade-asan/ has it under the sanitizers (CPU stages). A stage.mk that gives its
# grade program or exercise object flags of their own names both builds' (11, 13, 14 do).
define STAGE_RULES
$(foreach u,$($(1)_USES),$(if $(and $(filter $(u),$(filter-out $(1),$(ALL_STAGE_DIRS))),\
    $(filter $(u),$(firstword $(sort $(u) $(1))))),,\
    $(error $(1)/stage.mk: $(1)_USES names '$(u)', not the directory of an earlier stage)))
$(1)_SRCS        := $$(filter-out $(1)/exercise.$(3),$$(call stage_files,$(1),$(3)))
$(1)_EXERCISE_OF ?= $(1)/$(2).$(3)
$$(if $$(filter $$($(1)_EXERCISE_OF),$$($(1)_SRCS)),,\
    $$(error $(1): $(1)_EXERCISE_OF is '$$($(1)_EXERCISE_OF)', not one of its source files))
$(1)_GRADE       := $$(patsubst $$($(1)_EXERCISE_OF),$(1)/exercise.$(3),$$($(1)_SRCS))
stage$(call stage_num,$(1)): $(1)/$(2)
.PHONY: stage$(call stage_num,$(1))
# The exercise the grade build compiles: EXERCISE=FILE (a student's submission, anywhere), else
# the stage's own. A copy of it at a fixed path, headed by a #line that names the file, so that
# the compiler's and the sanitizers' messages name it and a submission that is gone later leaves
# no dependency behind; the stage's directory on the include path, as for the file it replaces.
build/grade-src/$(1)/exercise.$(3): FORCE
	@mkdir -p $$(@D)
	@src='$$(or $$(EXERCISE),$(1)/exercise.$(3))'; \
	 test -f "$$$$src" || { echo "make: EXERCISE=$$$$src: no such file" >&2; exit 2; }; \
	 { printf '#line 1 "%s"\n' "$$$$src"; cat "$$$$src"; } >$$@.new && \
	 { cmp -s $$@.new $$@ && rm -f $$@.new || mv -f $$@.new $$@; }
endef
$(foreach d,$(CPU_STAGES),$(eval $(call STAGE_RULES,$(d),$(call stage_name,$(d)),c)))
$(foreach d,$(GPU_STAGES),$(eval $(call STAGE_RULES,$(d),$(call stage_name,$(d)),cu)))

# $(1) = directory, $(2) = program name, $(3) = build kind (rel, asan): the stage's library
define STAGE_LIB
build/$(3)/$(1)/lib$(2).a: $$(call obj,$(3),$$(filter-out $(1)/main.%,$$($(1)_SRCS)))
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach d,$(CPU_STAGES),$(foreach k,rel asan,$(eval $(call STAGE_LIB,$(d),$(call stage_name,$(d)),$(k)))))
$(foreach d,$(GPU_STAGES),$(eval $(call STAGE_LIB,$(d),$(call stage_name,$(d)),rel)))

define CPU_LINK
$(1)_LINK := $$(call obj,rel,$$($(1)_SRCS) $(CPU_COMMON)) $$(call stage_libs,rel,$(1))
$(1)/$(2): $$($(1)_LINK)
	$$(CC) $$(CFLAGS) -o $$@ $$^ $$(LDLIBS)
build/asan/$(1)/$(2): $$(call obj,asan,$$($(1)_SRCS) $(CPU_COMMON)) $$(call stage_libs,asan,$(1))
	$$(CC) $$(CFLAGS) $$(SANFLAGS) -o $$@ $$^ $$(LDLIBS)
build/grade/$(1)/$(2): $$(call obj,rel,$$($(1)_GRADE) $(CPU_COMMON)) $$(call stage_libs,rel,$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -o $$@ $$^ $$(LDLIBS)
build/grade-asan/$(1)/$(2): $$(call obj,asan,$$($(1)_GRADE) $(CPU_COMMON)) $$(call stage_libs,asan,$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(SANFLAGS) -o $$@ $$^ $$(LDLIBS)
build/rel/$(1)/exercise.o: build/grade-src/$(1)/exercise.c build/flags
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) -I$(1) $$(CFLAGS) $$(EXTRA_CFLAGS) -MMD -MP -c $$< -o $$@
build/asan/$(1)/exercise.o: build/grade-src/$(1)/exercise.c build/flags
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) -I$(1) $$(CFLAGS) $$(SANFLAGS) $$(EXTRA_CFLAGS) -MMD -MP -c $$< -o $$@
endef
define GPU_LINK
$(1)_LINK := $$(call obj,rel,$$($(1)_SRCS) $(GPU_COMMON)) $$(call stage_libs,rel,$(1))
$(1)/$(2): $$($(1)_LINK)
	$$(NVCC) $$(NVFLAGS) -o $$@ $$^ $$(NVLIBS)
build/grade/$(1)/$(2): $$(call obj,rel,$$($(1)_GRADE) $(GPU_COMMON)) $$(call stage_libs,rel,$(1))
	@mkdir -p $$(@D)
	$$(NVCC) $$(NVFLAGS) -o $$@ $$^ $$(NVLIBS)
build/rel/$(1)/exercise.o: build/grade-src/$(1)/exercise.cu build/nvflags
	@mkdir -p $$(@D)
	$$(NVCC) $$(NVFLAGS) -I$(1) $$(EXTRA_NVFLAGS) -MMD -MP -c $$< -o $$@
endef
$(foreach d,$(CPU_STAGES),$(eval $(call CPU_LINK,$(d),$(call stage_name,$(d)))))
$(foreach d,$(GPU_STAGES),$(eval $(call GPU_LINK,$(d),$(call stage_name,$(d)))))

# ---- objects ---------------------------------------------------------------------------
# The git commit goes into every CSV row; build/git-rev changes only when the commit does.
# Outside a git checkout (a copied tree on a GPU machine) pass it in: make GIT_REV=abc1234
GIT_REV ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)
build/git-rev: FORCE
	@mkdir -p build; echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' > $@
build/rel/common/sysinfo.o build/asan/common/sysinfo.o: build/git-rev
build/rel/common/sysinfo.o build/asan/common/sysinfo.o: CPPFLAGS += -DGIT_REV='"$(GIT_REV)"'

# Objects depend on the flags too: change CFLAGS and everything rebuilds. The line is taken once,
# here (:=), from the global values: a target's own additions (11's LDLIBS += -ldl, 12's wgmma.o
# NVFLAGS, sysinfo.o's -DGIT_REV) reach the prerequisites of that target, build/flags among them,
# and rewrote it in the middle of a build; every make test then rebuilt objects and gpu-archs.
# The C compiler's line and nvcc's are two files: C objects depend on the first, CUDA objects on
# the second, so that a make with nvcc hidden (NVCC=, make student-edition's test) leaves both
# kinds of object as they are.
FLAGS_LINE := $(CC) $(CPPFLAGS) $(CFLAGS) $(LDLIBS)
NVFLAGS_LINE := $(NVCC) $(NVFLAGS)
build/flags: FORCE
	@mkdir -p build; echo '$(FLAGS_LINE)' | cmp -s - $@ || echo '$(FLAGS_LINE)' > $@
build/nvflags: FORCE
	@mkdir -p build; echo '$(NVFLAGS_LINE)' | cmp -s - $@ || echo '$(NVFLAGS_LINE)' > $@

build/rel/%.o: %.c build/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@
build/asan/%.o: %.c build/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SANFLAGS) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@
build/rel/%.o: %.cu build/nvflags
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) $(EXTRA_NVFLAGS) -MMD -MP -c $< -o $@

# The student edition: a solution, or a source including an answer file, that is there only as
# reference/name.c.o (name.c.asan.o for the sanitizer build; a .cu's reference/name.cu.o holds the
# code of every GPU it was built for) is copied to where its object would be built. Where the
# source is, these rules do not exist.
define REFERENCE_RULES
build/rel/$(basename $(1)).o: $(dir $(1))reference/$(notdir $(1)).o
	@mkdir -p $$(@D)
	cp $$< $$@
build/asan/$(basename $(1)).o: $(dir $(1))reference/$(notdir $(1)).asan.o
	@mkdir -p $$(@D)
	cp $$< $$@
endef
$(foreach d,$(ALL_STAGE_DIRS),$(foreach s,$(call reference_only,$(d),c) $(call reference_only,$(d),cu),\
    $(eval $(call REFERENCE_RULES,$(s)))))

# make gpu-archs (make test runs it): every CUDA source with a kernel, the exercises too, compiled
# for the GPUs students have, in one nvcc call a file: a T4 (sm_75), an A100 (sm_80), RTX 30 and
# 40 cards (sm_86, sm_89), Blackwell B200 (sm_100) and RTX 50 cards (sm_120); the Hopper build
# (sm_90a) is the usual one. The files a stage.mk lists in SM90A_SRCS are Hopper's alone (wgmma, setmaxnreg:
# sm_90a), and that stage marks their variants not available on every other GPU. Compile only:
# nothing here runs.
GPU_ARCHS ?= 75 80 86 89 100 120
GPU_ARCH_FLAGS = $(foreach a,$(GPU_ARCHS),-gencode arch=compute_$(a),code=sm_$(a))
# Only the sources that hold a kernel (scripts/kernel-sources.sh: __global__ in the file or in a
# header it includes); a harness's main.cu has no device code for an architecture to change.
# (Worked out only when gpu-archs is asked for: it reads every CUDA source and header.)
GPU_ARCH_CANDIDATES = $(filter-out $(SM90A_SRCS) $(ARCHS_SKIP_SRCS),$(wildcard [0-9][0-9]_*/*.cu [0-9][0-9]_*/harness/*.cu) \
                      common/cuda_harness.cu common/quick_return_gpu.cu)
GPU_ARCH_SRCS = $(if $(filter gpu-archs,$(MAKECMDGOALS)),$(shell scripts/kernel-sources.sh $(GPU_ARCH_CANDIDATES)))
build/archs/%.o: %.cu build/nvflags
	@mkdir -p $(@D)
	$(NVCC) $(filter-out -gencode arch=%,$(NVFLAGS)) $(GPU_ARCH_FLAGS) $(EXTRA_NVFLAGS) -MMD -MP -c $< -o $@
gpu-archs: $(if $(NVCC),$(patsubst %.cu,build/archs/%.o,$(GPU_ARCH_SRCS)))

# (not the builds other tests make under build/, for other CPUs: their rules name other trees)
-include $(shell find build -path build/port -prune -o -path build/check-commands -prune -o -name '*.d' -print 2>/dev/null)

# ---- the targets a reader types ------------------------------------------------------
.PHONY: profile stage asan grade-bins grade-nvcc planted list-stages missing-stages gpu-archs all cpu gpu run test test-gpu plots grade peak peak-gpu clean help deps deps-mkl deps-blis deps-isal FORCE
.DEFAULT_GOAL := all

all: cpu gpu                                   ## build every stage (GPU stages when nvcc is found)
cpu: $(CPU_BINS) build/peak build/cpu-class    ## build the CPU stages
gpu: $(GPU_BINS) $(if $(NVCC),build/peak_gpu)  ## build the CUDA stages (needs nvcc)
	@$(if $(NVCC),:,echo "make gpu: nvcc not found: the CUDA stages are not built (install the CUDA toolkit, or set NVCC)")
asan: $(ASAN_BINS)                             # CPU stages under ASan + UBSan (make test uses it)
grade-bins: $(GRADE_BINS)                      # every stage built from its exercise (EXERCISE=FILE: from that)
planted: tests/planted/planted                 # the harness's own test: kernels with planted bugs

tests/planted/planted: $(call obj,rel,tests/planted/planted.c $(CPU_COMMON))
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# stage 05's five loops at sizes next to INT_MAX, with hooks that only count, under UBSan
# (tests/stages/05_simd_big_sizes.c; tests/run-tests.sh runs it)
build/asan/05_simd/big_sizes: build/asan/tests/stages/05_simd_big_sizes.o build/asan/05_simd/libsimd.a \
    build/asan/common/matrix.o build/asan/common/quick_return.o build/asan/common/sysinfo.o
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ -lm

build/peak: $(call obj,rel,common/peak.c common/peak_lib.c common/sysinfo.c common/cpu_features.c)
	$(CC) $(CFLAGS) -o $@ $^ -lm

# the CPU class this machine is, or acts as under GEMM_HIDE_ISA (tests/cpu-classes.sh asks it)
build/cpu-class: $(call obj,rel,tests/cpu_class.c common/cpu_features.c)
	$(CC) $(CFLAGS) -o $@ $^

# The GPU's ceilings; the BF16 tensor-core one is a wgmma loop, which exists only for sm_90a: on a
# Hopper build (sm_90, the default) the whole program is built for sm_90a (elsewhere it says
# "not measured"). -MMD -MP: build/peak_gpu.d lists the headers it includes, so editing one
# rebuilds it.
ifeq ($(CUDA_ARCH),sm_90)
build/peak_gpu: NVFLAGS := $(filter-out -gencode arch=%,$(NVFLAGS)) -gencode=arch=compute_90a,code=sm_90a
endif
build/peak_gpu: common/peak_gpu.cu build/rel/common/sysinfo.o build/nvflags
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -MMD -MP -o $@ $< build/rel/common/sysinfo.o -lcublas

deps:                                          ## install what is missing (Debian/Ubuntu)
	@scripts/install-deps.sh

deps-mkl:                                      ## install MKL from PyPI, for --baseline mkl (optional)
	@scripts/install-deps.sh --mkl

deps-blis:                                     ## install BLIS (OpenMP build), for --baseline blis (optional)
	@scripts/install-deps.sh --blis

deps-isal:                                     ## install Intel ISA-L, chapter 11's baseline (optional)
	@scripts/install-deps.sh --isal

run: deps                                      ## build, run every stage's sweep, chart it in results/local/
	@scripts/run-all.sh

test: deps                                     ## what CI runs: build, checks, bad input, sanitizers, exercises, plots
	@tests/run-tests.sh

test-gpu:                                      ## on a GPU machine: every CUDA variant checked, plus compute-sanitizer
	@tests/run-tests-gpu.sh $(STAGES)

FIGURES ?= docs/figures
plots:                                         ## charts in docs/figures/<machine>/ from the committed results/<machine>/ (plus a stage's own plots/NN_topic.py)
	@test -n "$(PYTHON)" || { echo "no python3 with matplotlib: run scripts/install-deps.sh"; exit 1; }
	@for d in $(filter-out results/local,$(wildcard results/*)); do \
	    ls $$d/*.csv >/dev/null 2>&1 || continue; \
	    $(PYTHON) plots/plot.py --out $(FIGURES)/$$(basename $$d) $$d $$(ls $$d/12_runs/tf32_time.csv 2>/dev/null) || exit 1; \
	    for p in $(wildcard plots/[0-9][0-9]_*.py); do s=$$(basename $$p .py); \
	        [ ! -f $$d/$$s.csv ] || $(PYTHON) $$p $$d/$$s.csv $(FIGURES)/$$(basename $$d)/$$s.png || exit 1; \
	    done; \
	    [ ! -f $$d/13_distributed_timeline.csv ] || $(PYTHON) plots/13_distributed.py --timeline \
	        $$d/13_distributed_timeline.csv $(FIGURES)/$$(basename $$d)/13_distributed_timeline.png || exit 1; \
	    done

# make grade STAGE=NN: scripts/grade.sh, which exits 0 (every check passed), 1 (one failed) or 77
# (this machine cannot run the exercise); make can only say "Error" for the last two, so the
# grader's last line says which it was (GRADE_FROM_MAKE) before make's own line.
grade:                                         ## make grade STAGE=NN: check and time your exercise.c
	@GRADE_FROM_MAKE=1 scripts/grade.sh $(STAGE)

grade-nvcc:                                    # for scripts/grade.sh: the nvcc a CUDA exercise is built with ("" when none)
	@echo '$(NVCC)'

peak: build/peak                               ## this machine's FMA peak and bandwidth -> results/$(MACHINE)/peak.csv
	@mkdir -p results/$(MACHINE)
	scripts/bench-lock build/peak --csv results/$(MACHINE)/peak.csv

profile:                                       ## make profile STAGE=NN VARIANT=name [SIZE=n] [OPTS=--fp16]: ncu's few numbers
	@scripts/profile.sh $(if $(PROFILE_CSV),--csv $(PROFILE_CSV)) $(STAGE) $(VARIANT) $(SIZE) $(OPTS)

peak-gpu: build/peak_gpu                       ## the GPU's FMA peak, copy bandwidth, cuBLAS -> results/$(MACHINE)/peak.csv
	@mkdir -p results/$(MACHINE)
	build/peak_gpu --csv results/$(MACHINE)/peak.csv

# PORTABLE=1: the solutions compiled for any x86-64 (-march=x86-64-v2), not for this machine's CPU
.PHONY: student-edition list-exercises list-answers
student-edition:                               ## DEST=dir: a copy without the solutions, for a class (docs/teaching.md)
	@scripts/student-edition.sh $(if $(PORTABLE),--portable) $(DEST)

list-exercises:                                # for scripts: one "dir file-the-exercise-replaces" per line
	@$(foreach d,$(sort $(ALL_STAGE_DIRS)),echo "$(d) $(call exercise_of,$(d))";) true

list-answers:                                  # for scripts: one "dir file" per further file holding answers (stage.mk's NN_topic_ANSWERS)
	@$(foreach d,$(sort $(ALL_STAGE_DIRS)),$(foreach f,$($(d)_ANSWERS),echo "$(d) $(f)";)) true

clean:                                         ## remove every build product
	rm -rf build $(CPU_BINS) $(foreach d,$(patsubst %/main.cu,%,$(wildcard [0-9][0-9]_*/main.cu)),$(d)/$(call stage_name,$(d)))

help:                                          ## this list
	@echo "make targets:"
	@grep -hE '^[a-z-]+:.*## ' $(firstword $(MAKEFILE_LIST)) | sed 's/:.*## /\t/' | sed 's/[$$](MACHINE)/$(MACHINE)/' | awk -F'\t' '{printf "  %-10s %s\n", $$1, $$2}'
	@echo "  stageNN    build one stage: $(sort $(foreach d,$(CPU_STAGES) $(GPU_STAGES),stage$(call stage_num,$(d))))"
	@echo "variables: MACHINE=$(MACHINE) (results folder for make peak), CUDA_ARCH=$(CUDA_ARCH), STAGE=NN (grade),"
	@echo "           EXERCISE=FILE (the exercise a grade build compiles; default NN_topic/exercise.c)"

# `make stage` with no number (without this rule make would take it for a program built from
# stage.o, and the rule below would say there is "no stage .o")
stage:
	@echo "make: give a stage's number, e.g. make stage01; the stages are: $(sort $(foreach d,$(ALL_STAGE_DIRS),$(call stage_num,$(d))))" >&2; exit 2

# a stage that is not there: say which are (the stages' own rules come first)
stage%:
	@if [ -n "$(MISSING_$(firstword $(wildcard $*_*)))" ]; then \
	    echo "make: stage $* $(MISSING_$(firstword $(wildcard $*_*)))" >&2; \
	elif [ -f $(firstword $(wildcard $*_*/main.cu) none) ]; then \
	    echo "make: stage $* is a CUDA stage and nvcc was not found (install the CUDA toolkit, or set NVCC)" >&2; \
	else echo "make: there is no stage $*; the stages are: $(sort $(foreach d,$(ALL_STAGE_DIRS),$(call stage_num,$(d))))" >&2; fi; exit 2

missing-stages:                                # for scripts: one "dir why" line a stage this machine cannot build
	@$(foreach d,$(ALL_STAGE_DIRS),$(if $(MISSING_$(d)),echo "$(d) $(MISSING_$(d))";)) true

list-stages:                                   # for scripts: one "dir program kind" per line
	@$(foreach d,$(CPU_STAGES),echo "$(d) $(call stage_name,$(d)) cpu";) \
	 $(foreach d,$(patsubst %/main.cu,%,$(sort $(wildcard [0-9][0-9]_*/main.cu))),echo "$(d) $(call stage_name,$(d)) gpu";) true
