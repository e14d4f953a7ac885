#!/usr/bin/env bash
# `cmake --install` puts every front end in the usual prefix layout, and the
# installed ones find what they need there (the plugin loads; lockstep check
# analyses a unit).
#   install_test.sh BUILD_DIR PREFIX CLANG_TIDY MPI_INCLUDE
set -u
build=$1 prefix=$2 clang_tidy=$3 mpi=$4
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
status=0
for file in bin/lockstep lib/liblockstep-tidy.so lib/liblockstep-intercept.so \
            include/lockstep/annotations.h include/lockstep/harness.h \
            include/lockstep/nvcc_compat.h; do
  [ -e "$prefix/$file" ] || { echo "FAIL: $prefix/$file not installed"; status=1; }
done
if [ -x "$build/bin/lockstep-clangd" ] && [ ! -x "$prefix/bin/lockstep-clangd" ]; then
  echo "FAIL: lockstep-clangd is built but not installed"; status=1
fi
work=$prefix/work
mkdir -p "$work"
cat > "$work/a.cpp" <<'CPP'
#include <mpi.h>
void f(MPI_Comm comm, int rank) {
  if (rank == 0)
    MPI_Barrier(comm);
}
CPP
printf '[{"directory": "%s", "file": "a.cpp", "command": "g++ -I%s -c a.cpp"}]\n' \
  "$work" "$mpi" > "$work/compile_commands.json"
(cd "$work" && "$prefix/bin/lockstep" check -q --no-cache) | grep -q "a.cpp:4:5: warning" ||
  { echo "FAIL: the installed lockstep check reports nothing"; status=1; }
"$clang_tidy" --load="$prefix/lib/liblockstep-tidy.so" --checks='-*,lockstep-*' --quiet \
  "$work/a.cpp" -- -I"$mpi" 2>/dev/null | grep -q "warning: 'MPI_Barrier' runs only" ||
  { echo "FAIL: the installed plugin reports nothing"; status=1; }
[ $status -eq 0 ] && echo "PASS: installed under $prefix"
exit $status
