#!/usr/bin/env bash
# One call on a GPU machine: build (timed), CUDA tests, benchmarks. Logs go to $OUT (default
# ./out); the last lines printed are a short summary table.
#   scripts/gpu_check.sh [build] [test] [bench] [rows] [gemm] [epilogue] [kernels] [smoke] [run] [suite] [host] [optimize]
#   (default: build test bench)
# On a host of several GPUs the optimize stage spreads its folders over them, and the tests of the
# same call run beside it as TEST_SHARDS shards (default 1) on the first GPUs.
set -uo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
# Bytecode: the GPU host's torch environment held none, and no process wrote any (each compiled
# about 1200 of torch's modules from source: 3.8 s of the first torch.export in a process, H200
# host, 2026-12-02), which no normal install does. Python writes it from the first import on:
# beside the sources where they can be written, else in a cache of its own.
unset PYTHONDONTWRITEBYTECODE
torch_dir=$(python -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('torch').origin))")
[[ -w $torch_dir/__pycache__ || ( ! -e $torch_dir/__pycache__ && -w $torch_dir ) ]] \
  || export PYTHONPYCACHEPREFIX=${PYTHONPYCACHEPREFIX:-$HOME/.cache/kernelwright/pycache}
stages=${*:-build test bench}
summary=()

# CALL_SECONDS: the whole call's limit, counted from this script's start (give the script the
# call's limit less what ran before it); every bounded stage ends 40 s before it.
stage_deadline() {  # now + $1 seconds, or 40 s before the call's CALL_SECONDS if that is sooner
  local d=$(( $(date +%s) + $1 ))
  [[ -n ${CALL_SECONDS:-} ]] && (( t0 + CALL_SECONDS - 40 < d )) && d=$(( t0 + CALL_SECONDS - 40 ))
  echo $d
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv >"$OUT/gpu.txt" 2>&1
python -c "import torch,sys; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'python', sys.version.split()[0])" >>"$OUT/gpu.txt"
echo "bytecode: ${PYTHONPYCACHEPREFIX:-beside the sources} ($torch_dir)" >>"$OUT/gpu.txt"
cat "$OUT/gpu.txt"

if [[ " $stages " == *" build "* ]]; then
  start=$(date +%s.%N)
  MAX_JOBS=${MAX_JOBS:-16} python -m pip install --no-build-isolation --no-deps -e . >"$OUT/build.log" 2>&1
  rc=$?
  secs=$(python -c "print(round($(date +%s.%N) - $start, 1))")
  grep -E "kernelwright:|error" "$OUT/build.log" | tail -20
  # Without CUTLASS's headers the build leaves the GEMMs out and they run on cuBLAS: every GEMM
  # figure of the call would be cuBLAS's, so the summary says so.
  cutlass=$(python -c "from kernelwright._build import sources; print('found' if sources.cutlass_include() else 'NOT FOUND: GEMMs left out, on cuBLAS')" 2>&1 | tail -1)
  summary+=("build: rc=$rc, ${secs} s (pip install, AOT build with CUDA); CUTLASS headers: $cutlass")
  [[ $rc -eq 0 ]] || { printf '%s\n' "${summary[@]}"; exit 1; }
fi

if [[ " $stages " == *" smoke "* ]]; then
  python scripts/smoke.py 2>&1 | tee "$OUT/smoke.log"
  summary+=("smoke: rc=${PIPESTATUS[0]}")
fi

# The GPUs this call may use: CUDA_VISIBLE_DEVICES's list, else every GPU nvidia-smi sees.
read -r -a gpus <<<"$(echo "${CUDA_VISIBLE_DEVICES:-$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | tr '\n' ',')}" | tr ',' ' ')"
(( ${#gpus[@]} )) || gpus=(0)
run_tests() {  # run_tests [SHARD/SHARDS]: the CUDA tests, or that shard of them
  # TEST_SECONDS (default 480) bounds the stage as SUITE_SECONDS does; one line a test (-rA),
  # so a stage cut off by its limit still tells which tests passed.
  local shard=${1:-} log="$OUT/tests.log" xml=(--junitxml="$OUT/tests.xml")
  [[ -n $shard ]] && log="$OUT/tests_${shard%/*}.log" xml=()
  local left=$(( $(stage_deadline "${TEST_SECONDS:-480}") - $(date +%s) ))
  KERNELWRIGHT_TEST_SHARD=$shard timeout -s INT -k 20 $(( left > 1 ? left : 1 )) python -m pytest ${TESTS:-tests} \
    -q -rA -m "cuda" -p no:cacheprovider "${xml[@]}" >"$log" 2>&1
  local rc=$?
  grep -E "^(FAILED|ERROR)" "$log" | head -20
  tail -3 "$log"
  echo "cuda tests${shard:+ (shard $shard)}: rc=$rc, $(grep -c '^PASSED' "$log") passed, $(grep -cE '^(FAILED|ERROR)' "$log") failed, $(tail -1 "$log")" >"$log.summary"
}

# With several GPUs and an optimize stage, the tests take the first TEST_SHARDS GPUs (default
# 1), a shard each, while the suites start on the others; each of those GPUs joins the suites
# once its shard ends.
tests_pids=()
if [[ " $stages " == *" test "* ]]; then
  if [[ " $stages " == *" optimize "* ]] && (( ${#gpus[@]} > 1 )); then
    shards=$(( ${TEST_SHARDS:-1} < ${#gpus[@]} ? ${TEST_SHARDS:-1} : ${#gpus[@]} - 1 ))
    for (( s = 0; s < shards; s++ )); do
      CUDA_VISIBLE_DEVICES=${gpus[$s]} run_tests "$s/$shards" &
      tests_pids+=($!)
    done
  else
    run_tests
    summary+=("$(cat "$OUT/tests.log.summary")")
  fi
fi

if [[ " $stages " == *" bench "* ]]; then
  python benchmarks/bench_ops.py --out benchmarks/results 2>&1 | tee "$OUT/bench.log"
  summary+=("bench: rc=${PIPESTATUS[0]}")
  cp benchmarks/results/ops_*.json benchmarks/results/ops_*.md benchmarks/results/ops_*.png "$OUT/" 2>/dev/null
fi

if [[ " $stages " == *" rows "* ]]; then
  python benchmarks/bench_rows.py --out benchmarks/results 2>&1 | tee "$OUT/rows.log"
  summary+=("rows bench: rc=${PIPESTATUS[0]}")
  cp benchmarks/results/rows_*.json benchmarks/results/rows_*.md "$OUT/" 2>/dev/null
fi

if [[ " $stages " == *" epilogue "* ]]; then
  # EPILOGUE_SHAPES: MxKxN list (default: the benchmark's own); EPILOGUE_BENCH=0 skips it.
  if [[ ${EPILOGUE_BENCH:-1} != 0 ]]; then
    python benchmarks/bench_gemm_epilogue.py --out benchmarks/results ${EPILOGUE_SHAPES:+--shapes "$EPILOGUE_SHAPES"} \
      2>&1 | tee "$OUT/epilogue.log"
    summary+=("gemm epilogue: rc=${PIPESTATUS[0]}")
    cp benchmarks/results/gemm_epilogue_*.json benchmarks/results/gemm_epilogue_*.md "$OUT/" 2>/dev/null
  fi
  # EPILOGUE_REDUCE=0 skips the rows-reduced-in-the-epilogue benchmark (EPILOGUE_SHAPES too).
  if [[ ${EPILOGUE_REDUCE:-1} != 0 ]]; then
    python benchmarks/bench_gemm_reduce.py --out benchmarks/results ${EPILOGUE_SHAPES:+--shapes "$EPILOGUE_SHAPES"} \
      2>&1 | tee -a "$OUT/epilogue.log"
    summary+=("gemm reduce: rc=${PIPESTATUS[0]}")
    cp benchmarks/results/gemm_reduce_*.json benchmarks/results/gemm_reduce_*.md "$OUT/" 2>/dev/null
  fi
  # EPILOGUE_PROBLEMS: problem files whose epilogue candidates to time fused against apart.
  if [[ -n ${EPILOGUE_PROBLEMS:-} ]]; then
    python benchmarks/bench_epilogue_fusions.py $EPILOGUE_PROBLEMS --out benchmarks/results 2>&1 | tee -a "$OUT/epilogue.log"
    summary+=("epilogue fusions: rc=${PIPESTATUS[0]}")
    cp benchmarks/results/epilogue_fusions_*.json benchmarks/results/epilogue_fusions_*.md "$OUT/" 2>/dev/null
  fi
fi

if [[ " $stages " == *" gemm "* ]]; then
  python benchmarks/bench_gemm_precision.py --sizes ${GEMM_SIZES:-4096,8192} --out benchmarks/results 2>&1 | tee "$OUT/gemm.log"
  summary+=("gemm precision: rc=${PIPESTATUS[0]}")
  # GEMM_CROSSOVER / GEMM_HIGH_CROSSOVER / GEMM_HIGH_N_CROSSOVER (right operand n-major, as
  # torch.matmul's): MxKxN lists, empty to skip.
  highest_shapes=${GEMM_CROSSOVER-64x8192x8192,128x8192x8192,256x8192x8192,512x8192x8192,256x131072x256,512x32768x512,1024x16384x1024}
  high_shapes=${GEMM_HIGH_CROSSOVER-128x8192x8192,256x8192x8192,512x8192x8192,1024x8192x8192,2048x8192x8192,1024x16384x1024,16384x4096x1024,16384x2048x4096}
  high_n_shapes=${GEMM_HIGH_N_CROSSOVER-128x131072x128,256x131072x256,512x65536x512,256x32768x256,1024x32768x1024,256x8192x8192,1024x8192x8192,4096x4096x4096}
  for spec in "highest:k:$highest_shapes" "high:k:$high_shapes" "high:n:$high_n_shapes"; do
    prec=${spec%%:*} rest=${spec#*:}
    major=${rest%%:*} shapes=${rest#*:}
    [[ -n $shapes ]] || continue
    python benchmarks/bench_gemm_precision.py --out benchmarks/results --precision "$prec" \
      --b-major "$major" --crossover "$shapes" 2>&1 | tee -a "$OUT/gemm.log"
    summary+=("gemm $prec crossover, $major-major b: rc=${PIPESTATUS[0]}")
  done
  cp benchmarks/results/gemm_*.json benchmarks/results/gemm_*.md "$OUT/" 2>/dev/null
fi

if [[ " $stages " == *" kernels "* ]]; then
  # cuda_op's worked examples: cold compile, warm load and first call, each in a fresh process.
  python examples/compile_times.py --out "$OUT/custom_kernels.json" 2>&1 | tee "$OUT/kernels.log"
  summary+=("custom kernels: rc=${PIPESTATUS[0]}")
fi

if [[ " $stages " == *" run "* ]]; then
  # RUN_PROBLEMS (names, or "all") / RUN_PRECISIONS select; each precision's report lands in
  # $OUT/run_<precision>.
  problems=${RUN_PROBLEMS:-linear_sigmoid_linear_logsumexp}
  [[ $problems == all ]] && problems_arg=() || problems_arg=(--problems "$problems")
  for prec in ${RUN_PRECISIONS:-highest high}; do
    kernelwright run "${problems_arg[@]}" --precision "$prec" \
      --out "$OUT/run_$prec" >"$OUT/run_$prec.log" 2>&1
    summary+=("kernelwright run --precision $prec: rc=$?")
    tail -15 "$OUT/run_$prec.log"
  done
fi

if [[ " $stages " == *" suite "* ]]; then
  # SUITES: suite directories; SUITE_OUT (default /tmp/kw_suites) keeps results.jsonl between
  # calls, so a suite cut off by a time limit resumes where it stopped.  SUITE_ARGS: extra
  # `kernelwright eval` options; SUITE_SECONDS (default 480) bounds the stage, interrupted
  # as Ctrl-C would, so that the tarball with everything still gets written; CALL_SECONDS, the
  # whole script's limit, ends the stage 40 s before it, whatever ran first.
  suite_out=${SUITE_OUT:-/tmp/kw_suites}
  deadline=$(stage_deadline "${SUITE_SECONDS:-480}")
  mkdir -p "$suite_out"
  for dir in ${SUITES:?SUITES names the suite directories}; do
    name=$(echo "$dir" | tr '/' '_')
    left=$(( deadline - $(date +%s) ))
    (( left > 0 )) || { summary+=("suite $dir: not started (SUITE_SECONDS spent)"); continue; }
    before=$(grep -c . "$suite_out/$name/results.jsonl" 2>/dev/null || echo 0)
    start=$(date +%s.%N)
    timeout -s INT -k 20 $left kernelwright eval --suite "$dir" --out "$suite_out/$name" ${SUITE_ARGS:-} \
      >>"$suite_out/$name.log" 2>&1
    rc=$?
    n=$(( $(grep -c . "$suite_out/$name/results.jsonl" 2>/dev/null || echo 0) - before ))
    summary+=("suite $dir: rc=$rc ($n new results in $(python -c "s=$(date +%s.%N)-$start; print('%.0f s, %.1f s a candidate' % (s, s / max($n, 1)))"))")
    tail -4 "$suite_out/$name.log"
  done
  tar -czf "$OUT/suites.tar.gz" -C "$suite_out" --exclude="./*/build" --exclude="./*/work" .
fi

if [[ " $stages " == *" host "* ]]; then
  # HOST_PROBLEMS: problem files whose emitted forward's host time to measure against Model's.
  python benchmarks/bench_forward_host.py ${HOST_PROBLEMS:?HOST_PROBLEMS names problem files} --out benchmarks/results \
    2>&1 | tee "$OUT/host.log"
  summary+=("forward host time: rc=${PIPESTATUS[0]}")
  cp benchmarks/results/forward_host_*.json benchmarks/results/forward_host_*.md "$OUT/" 2>/dev/null
fi

if [[ " $stages " == *" optimize "* ]]; then
  # OPT_SUITES: problem folders (e.g. a KernelBench level copied into the tree); OPT_OUT
  # (default /tmp/kw_optimize) keeps results.jsonl between calls, so a rerun resumes.
  # OPT_SECONDS (default 480) bounds the stage as SUITE_SECONDS does; OPT_PRECISION picks
  # the precision (default highest). Each GPU takes the next folder nobody has claimed in this
  # call, so several GPUs share the folders and a rerun resumes each where it stopped.
  opt_out=${OPT_OUT:-/tmp/kw_optimize}
  deadline=$(stage_deadline "${OPT_SECONDS:-480}")
  claims=$(mktemp -d)
  mkdir -p "$opt_out"
  # Every finished problem's record reaches $OUT within 20 s, so a call killed by its limit
  # still returns what it measured.
  ( while sleep 20; do cat "$opt_out"/*/results.jsonl >"$OUT/optimize_partial.jsonl" 2>/dev/null; done ) &
  copier=$!
  optimize_on() {  # optimize_on GPU: the folders this GPU claims, one after another
    local gpu=$1 dir name left
    for dir in ${OPT_SUITES:?OPT_SUITES names the problem folders}; do
      name=$(echo "$dir" | tr '/' '_' | sed 's/^[._]*//')
      mkdir "$claims/$name" 2>/dev/null || continue
      left=$(( deadline - $(date +%s) ))
      (( left > 0 )) || { echo "optimize $dir: not started (OPT_SECONDS spent)" >"$claims/$name/summary"; continue; }
      CUDA_VISIBLE_DEVICES=$gpu timeout -s INT -k 20 $left kernelwright optimize --suite "$dir" \
        --out "$opt_out/$name" --precision "${OPT_PRECISION:-highest}" >>"$opt_out/$name.log" 2>&1
      echo "optimize $dir on GPU $gpu: rc=$? ($(grep -c . "$opt_out/$name/results.jsonl" 2>/dev/null || echo 0) results)" >"$claims/$name/summary"
      tail -4 "$opt_out/$name.log"
    done
  }
  workers=()
  for i in "${!gpus[@]}"; do
    if (( i < ${#tests_pids[@]} )); then
      ( while kill -0 "${tests_pids[$i]}" 2>/dev/null; do sleep 5; done; optimize_on "${gpus[$i]}" ) &
    else
      optimize_on "${gpus[$i]}" &
    fi
    workers+=($!)
  done
  wait "${workers[@]}"
  kill $copier 2>/dev/null
  for dir in $OPT_SUITES; do
    name=$(echo "$dir" | tr '/' '_' | sed 's/^[._]*//')
    [[ -f $claims/$name/summary ]] && summary+=("$(cat "$claims/$name/summary")")
  done
  python scripts/optimize_table.py "$opt_out"/*/results.jsonl
  tar -czf "$OUT/optimize.tar.gz" -C "$opt_out" .
  rm -f "$OUT/optimize_partial.jsonl"
fi

if (( ${#tests_pids[@]} )); then
  wait "${tests_pids[@]}"
  for (( s = 0; s < ${#tests_pids[@]}; s++ )); do
    summary+=("$(cat "$OUT/tests_$s.log.summary")")
    cat "$OUT/tests_$s.log" >>"$OUT/tests.log"
    rm -f "$OUT/tests_$s.log" "$OUT/tests_$s.log.summary"
  done
fi

echo "==== summary"
printf '%s\n' "${summary[@]}"
