#!/usr/bin/env bash
# Release wheels to copy to other machines.
#
#     bash tools/build_wheels.sh                  # one wheel per CPython 3.11+ found, into dist/
#     bash tools/build_wheels.sh -i python3.12    # other arguments go to `maturin build`
#     bash tools/build_wheels.sh -i .venv/bin/python -o DIR   # .ci/run: one wheel, for its .venv
#
# Each wheel is built with the release profile (fat LTO) and tagged manylinux2014
# (manylinux_2_17: any x86_64 Linux with glibc 2.17 or newer) for one CPython version.
# The tag is honest because the extension is linked by zig against glibc 2.17's symbols
# (maturin's --zig): linked by this machine's own toolchain it would need the glibc it was
# built on (manylinux_2_34 on Debian 12), so it would not install on older systems. The
# generated code is the same either way (same rustc, same LLVM); only the link differs.
#
# The wheels are per Python version, not abi3: the stable ABI costs the binding 7% more
# instructions per turn of a Python loop of Game.legal_moves() and Game.play() (every Move
# object is made and freed through function calls instead of inlined macros), with
# VectorEnv.step unchanged (python tools/binding_costs.py; CONTRIBUTING.md).
#
# maturin and zig (the PyPI package ziglang, through maturin's "zig" extra) are installed
# into a virtualenv of their own, target/wheel-tools, so the Pythons you build for are
# untouched.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS="$PWD/target/wheel-tools"
if [ ! -x "$TOOLS/bin/maturin" ] || ! "$TOOLS/bin/python" -c "import ziglang" 2>/dev/null; then
    python3 -m venv "$TOOLS"
    "$TOOLS/bin/python" -m pip install --quiet --upgrade pip
    "$TOOLS/bin/python" -m pip install --quiet "maturin[zig]>=1.9.4,<2"
fi
# maturin looks for `zig` on PATH: a wrapper around the tools' ziglang, alone in its
# folder, so the tools' own Python stays off PATH and out of the interpreters found.
mkdir -p "$TOOLS/zig-bin"
printf '#!/bin/sh\nexec "%s" -m ziglang "$@"\n' "$TOOLS/bin/python" >"$TOOLS/zig-bin/zig"
chmod +x "$TOOLS/zig-bin/zig"
export PATH="$TOOLS/zig-bin:$PATH"

# Every interpreter found, unless the arguments choose (-i, --interpreter); into dist/
# unless they name another folder (-o, --out).
case " $* " in
    *" -i "* | *" --interpreter "* | *" --interpreter="* | *" --find-interpreter "*) ;;
    *) set -- "$@" --find-interpreter ;;
esac
case " $* " in
    *" -o "* | *" --out "* | *" --out="*) ;;
    *) set -- "$@" --out dist ;;
esac
"$TOOLS/bin/maturin" build --release --locked --zig --compatibility manylinux2014 "$@"
