# scripts/find-scalapack.sh, sourced by bench-host.sh and bench-gpus.sh on a GPU host:
# ScaLAPACK for the build. The system's if a program links against it (and SCALAPACK is not
# "bundled"); else the bundled one, Debian's libscalapack-openmpi.so.2.2 from the folder
# SCALAPACK_BUNDLE_DIR (default .scalapack-bundle in the repository root) copied to
# build/dist-lib, with the libraries it needs from SCALAPACK_BUNDLE_DIR/fallback where this
# machine lacks them. Sets scal: that folder, or empty.
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
scal=""
probe='void psgemm_(void); int main(void) { psgemm_(); return 0; }'
# shellcheck disable=SC2046
if [ "${SCALAPACK:-}" != bundled ] &&
        echo "$probe" | gcc -x c - -o /dev/null -lscalapack-openmpi $(mpicc --showme:link) 2>/dev/null; then
    echo "scalapack: the system's"
else
    bundle=${SCALAPACK_BUNDLE_DIR:-.scalapack-bundle}
    scal=$PWD/build/dist-lib
    mkdir -p "$scal"
    cp "$bundle/libscalapack-openmpi.so.2.2" "$scal/" || { echo "no ScaLAPACK here and none in $bundle"; exit 1; }
    ln -sf libscalapack-openmpi.so.2.2 "$scal/libscalapack-openmpi.so"
    for lib in $(ldd "$scal/libscalapack-openmpi.so.2.2" | awk '/not found/ { print $1 }'); do
        if [ -f "$bundle/fallback/$lib" ]; then
            cp "$bundle/fallback/$lib" "$scal/" && echo "scalapack: this machine lacks $lib: the bundled one"
        fi
    done
    missing=$(LD_LIBRARY_PATH=$scal ldd "$scal/libscalapack-openmpi.so.2.2" | grep 'not found')
    [ -z "$missing" ] || { echo "scalapack: still missing: $missing"; exit 1; }
    echo "scalapack: bundled, in $scal"
fi

