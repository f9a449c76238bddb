# scripts/find-mkl.sh, sourced by lab/05_simd/bench-host.sh and lab/14_amx/bench-host.sh on a host with
# no MKL: where MKL_HOME is unset and MKL_BUNDLE_DIR (default .mkl-bundle in the repository root)
# holds a bundled MKL, libmkl_*.so.3.xz (xz -c each from `pip install mkl`'s lib/), unpacks them to
# build/mkl-lib and exports MKL_HOME there; else says that the MKL steps will skip (exit 77).
if [ -z "${MKL_HOME:-}" ]; then
    bundle=${MKL_BUNDLE_DIR:-.mkl-bundle}
    if ls "$bundle"/libmkl_rt.so.3.xz >/dev/null 2>&1; then
        mkdir -p build/mkl-lib
        for f in "$bundle"/libmkl_*.so.3.xz; do
            xz -dc "$f" >"build/mkl-lib/$(basename "$f" .xz)"
        done
        export MKL_HOME=$PWD/build/mkl-lib
    else
        echo "note: no MKL here (MKL_HOME unset, nothing in $bundle): its steps say exit 77"
    fi
fi
