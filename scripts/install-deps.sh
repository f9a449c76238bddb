#!/bin/sh
# Install what gemm-from-scratch needs, or say exactly what is missing.
#   gcc (C11, OpenMP), GNU make, OpenBLAS (headers + library, and its OpenMP build), python3 with
#   matplotlib, Open MPI and ScaLAPACK (chapter 13).
#   Optional, on an x86 machine: qemu-user and an aarch64 cross gcc (tests/portability.sh).
#   CUDA (nvcc, cuBLAS) is optional: the GPU stages build when nvcc is found.
# macOS is not supported natively (README.md, "On a Mac"): a Linux VM or container is.
# On Debian/Ubuntu, as root (or with sudo), missing packages are installed with apt-get.
# `--check` only reports. Exit status 0 when everything is there.
# `--mkl` (make deps-mkl), `--blis` (make deps-blis) and `--isal` (make deps-isal) install only the
# optional baselines (--baseline mkl|blis; chapter 11's ISA-L), and only when asked: MKL from PyPI (mkl, mkl-include) for the PATH's
# python3, where the harness looks (<sys.prefix>/lib); BLIS's OpenMP build from apt (its threads
# are our kernels' threads, as for OpenBLAS). make test never installs them.
set -u
check_only=0
[ "${1:-}" = "--check" ] && check_only=1
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"

case "${1:-}" in
--isal)
    if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$SUDO" ]; }; then
        echo "install-deps: apt-get install libisal2"
        $SUDO apt-get update -qq >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libisal2 >/dev/null && exit 0
    fi
    echo "install-deps: please install Intel ISA-L (Debian/Ubuntu: libisal2; or build it and set"
    echo "  ISAL_HOME to the folder whose lib/ holds libisal.so.2)"
    exit 1 ;;
--mkl)
    echo "install-deps: python3 -m pip install mkl mkl-include"
    python3 -m pip install -q mkl mkl-include && exit 0
    echo "install-deps: pip failed; install MKL (PyPI mkl, or Intel's oneAPI) and set MKL_HOME to the"
    echo "  folder whose lib/ holds libmkl_rt.so.3 (or .so.2)"
    exit 1 ;;
--blis)
    if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$SUDO" ]; }; then
        echo "install-deps: apt-get install libblis4-openmp"
        $SUDO apt-get update -qq >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libblis4-openmp >/dev/null && exit 0
    fi
    echo "install-deps: please install BLIS (Debian/Ubuntu: libblis4-openmp; or build it and set"
    echo "  BLIS_HOME to the folder whose lib/ holds libblis.so.4)"
    exit 1 ;;
esac

if [ "$(uname -s)" = Darwin ]; then
    echo "install-deps: macOS: the stages build and run on Linux only (README.md, \"On a Mac\"):"
    echo "  run them in a Linux VM or container (Debian/Ubuntu), and make deps there"
    exit 1
fi

missing_pkgs=""
need() { missing_pkgs="$missing_pkgs $1"; }

command -v gcc >/dev/null 2>&1 || need gcc
command -v make >/dev/null 2>&1 || need make
command -v flock >/dev/null 2>&1 || need util-linux
echo 'int main(void){return 0;}' | gcc -fopenmp -x c - -o /dev/null >/dev/null 2>&1 || need libgomp1
# OpenBLAS: the header and the library must both be there
if ! printf '#include <cblas.h>\nint main(void){openblas_get_corename();return 0;}\n' |
        gcc -x c - -o /dev/null -lopenblas >/dev/null 2>&1; then
    need libopenblas-dev
fi
# ... and its OpenMP build, which the Makefile links where it is (see LDLIBS there): its threads
# are our kernels' threads, so the two do not fight over the cores when they alternate.
# Elsewhere the harness's header warns when the OpenBLAS it loaded is not the OpenMP build.
if command -v apt-get >/dev/null 2>&1 &&
        [ -z "$(ls -d /usr/lib/"$(gcc -print-multiarch 2>/dev/null)"/openblas-openmp 2>/dev/null)" ]; then
    need libopenblas-openmp-dev
fi
scripts/find-python.sh >/dev/null 2>&1 || need python3-matplotlib
# Open MPI and ScaLAPACK: chapter 13's launcher, compiler flags and PSGEMM baseline
{ command -v mpirun && command -v mpicc; } >/dev/null 2>&1 || need "openmpi-bin libopenmpi-dev"
# shellcheck disable=SC2046
printf 'void psgemm_(void);\nint main(void){psgemm_();return 0;}\n' |
    gcc -x c - -o /dev/null -lscalapack-openmpi $(mpicc --showme:link 2>/dev/null) >/dev/null 2>&1 ||
    need libscalapack-openmpi-dev

# Optional, for make test's tests/portability.sh (every CPU stage built for an x86 CPU without
# AVX-512 and for 64-bit ARM, run under qemu); without them those checks are skipped, so --check
# does not ask for them. Installed here only where apt-get runs without a password prompt, and only
# on an x86 machine (on ARM the script has nothing to emulate: make test runs the stages natively).
optional_pkgs=""
if [ "$check_only" -eq 0 ] && [ "$(uname -m)" = x86_64 ] && command -v apt-get >/dev/null 2>&1 &&
        { [ "$(id -u)" -eq 0 ] || { [ -n "$SUDO" ] && sudo -n true 2>/dev/null; }; }; then
    { command -v qemu-x86_64 && command -v qemu-aarch64; } >/dev/null 2>&1 ||
        optional_pkgs="$optional_pkgs qemu-user"
    command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || optional_pkgs="$optional_pkgs gcc-aarch64-linux-gnu"
    [ -f /usr/aarch64-linux-gnu/include/stdio.h ] || optional_pkgs="$optional_pkgs libc6-dev-arm64-cross"
fi
if [ -n "$optional_pkgs" ]; then
    echo "install-deps: for the portability tests (optional): apt-get install$optional_pkgs"
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $optional_pkgs >/dev/null 2>&1 ||
        echo "install-deps: could not install$optional_pkgs; make test skips the portability checks"
fi

[ -z "$missing_pkgs" ] && exit 0
echo "install-deps: missing:$missing_pkgs"
[ "$check_only" -eq 1 ] && exit 1

if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$SUDO" ]; }; then
    echo "install-deps: apt-get install$missing_pkgs"
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    # shellcheck disable=SC2086
    if DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing_pkgs >/dev/null; then
        if ! scripts/find-python.sh >/dev/null 2>&1; then
            # apt's matplotlib went to the system python; a pip install for the PATH's python also works
            python3 -m pip install -q matplotlib >/dev/null 2>&1 || true
        fi
        exec "$0" --check
    fi
    echo "install-deps: apt-get failed"
fi
case " $missing_pkgs " in *python3-matplotlib*)
    python3 -m pip install -q matplotlib >/dev/null 2>&1 && missing_pkgs=$(echo "$missing_pkgs" | sed 's/python3-matplotlib//') ;;
esac
[ -z "$(echo "$missing_pkgs" | tr -d ' ')" ] && exit 0
cat <<MSG
install-deps: please install these and run again:
  Debian/Ubuntu: apt-get install$missing_pkgs
  Fedora/RHEL:   dnf install gcc make openblas-devel isa-l-devel python3-matplotlib openmpi-devel scalapack-openmpi-devel
  macOS:         not natively: a Linux VM or container (README.md, "On a Mac"), then make deps there
MSG
exit 1
