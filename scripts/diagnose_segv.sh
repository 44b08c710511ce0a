#!/usr/bin/env bash
# C++ backtrace of a Python snippet that crashes, with cuda-gdb (the GPU image has no gdb).
cuda-gdb -batch -ex run -ex bt --args python -c "$1" 2>&1 | grep -v "^\[New Thread\|^\[Thread" | tail -40
