#!/usr/bin/env bash
# The float32 layers on AMX's bf16 tiles (csrc/split_tiles.cpp), on a CPU with AMX-BF16, in one sitting:
#
#   bash benchmarks/amx_float_tiles.sh MODELS_DIR [LINES] [TEST_LOG]
#
# 1. the CPU; the extension built (attnmt doctor); the OPUS-shaped models built in MODELS_DIR unless
#    there (benchmarks/opus_shape.py --build), in the background on the CPUs the timed runs leave;
# 2. the CPU's tiles against their model (amx_tile_model.h);
# 3. benchmarks/float_kernels.py at 128 and at 16 rows: each step shape's kernels alone; then
#    benchmarks/experiments/amx_tile_variants.py: other loop orders for the tiles against the shipped one;
# 4. the OPUS-shaped float32 job (benchmarks/opus_shape.py), attnmt without and with
#    ATTNMT_FLOAT32_TILES=1, then CTranslate2, each attnmt copy prepared first;
# 5. attnmt doctor --model with the tiles asked for (the kernel chosen per shape);
# 6. last (a crash there costs nothing above): the tiles' tests and the CUDA tests, their whole
#    output into TEST_LOG (default MODELS_DIR/tests.log).
# Every timed process is pinned to the first CPUs of two distinct cores (taskset), as a 2-core VM
# would run it.  PYTHON (default python3) has attnmt, ctranslate2 and transformers; the converter
# ct2-transformers-converter is beside it or on PATH.
set -u
models=${1:?usage: amx_float_tiles.sh MODELS_DIR [LINES] [TEST_LOG]}
lines=${2:-150}
py=${PYTHON:-python3}
pair=$(lscpu -p=CPU,CORE | grep -v '^#' | awk -F, '!seen[$2]++ {print $1}' | head -2 | paste -sd,)
rest=$(lscpu -p=CPU | grep -v '^#' | grep -vxF -e "${pair%,*}" -e "${pair#*,}" | paste -sd,)
mkdir -p "$models"
tests=${3:-$models/tests.log}
echo "== $(lscpu | grep 'Model name' | sed 's/  */ /g'); $(nproc) CPUs;" \
     "$(grep -o 'amx_bf16\|amx_int8\|avx512_bf16\|avx512f\|avx2' /proc/cpuinfo | sort -u | paste -sd' '); timed on $pair"
$py -m attnmt doctor 2>&1 | grep -i "panels\|tiles\|gpu"
built=0
if [ ! -e "$models/ct2_fp32/model.bin" ]; then
    taskset -c "$rest" $py benchmarks/opus_shape.py --build "$models" > "$models/build.log" 2>&1 &
    built=$!
fi
echo "== the CPU's tiles against their model: max |amx - model| / sum |x w|, 128 x 512 x 512"
$py - <<'EOF'
import torch
from attnmt.fast.int8 import int8_kernel
int8_kernel()
ops = torch.ops.attnmt
g = torch.Generator().manual_seed(0)
x, w = torch.randn(128, 512, generator=g), torch.randn(512, 512, generator=g)
scale = x.double().abs() @ w.double().abs().T
for pieces in (2, 3):
    tiles = ops.pack_split_tiles(ops.pack_panels(w), pieces)
    amx, model = (ops.split_tile_linear(x, tiles, None, 512, None, False, m) for m in (False, True))
    print(f"{pieces} pieces: {float(((amx.double() - model.double()) / scale).abs().max()):.2e};"
          f" bitwise equal: {torch.equal(amx, model)}")
EOF
for rows in 128 16; do
    taskset -c "$pair" $py benchmarks/float_kernels.py --rows "$rows" --threads 2 --rounds 12
done
taskset -c "$pair" $py benchmarks/experiments/amx_tile_variants.py --rows 128,16 --threads 2 --rounds 12
[ "$built" != 0 ] && { wait "$built" || tail -5 "$models/build.log"; }
echo "== the OPUS-shaped float32 job"
one=$(mktemp) translated=$(mktemp)
echo "A man in a blue shirt is standing on a ladder." > "$one"
for tiles in 0 1; do  # each copy prepared (and its kernels chosen) on the two cores first
    ATTNMT_FLOAT32_TILES=$tiles taskset -c "$pair" $py -m attnmt translate --model "$models/attnmt" --threads 2 \
        "$one" "$translated"
done
ATTNMT_FLOAT32_TILES=0 taskset -c "$pair" $py benchmarks/opus_shape.py --keep "$models" --lines "$lines" --rounds 2 \
    --jobs "attnmt fp32" 2>&1 | sed 's/^/[no tiles] /'
ATTNMT_FLOAT32_TILES=1 taskset -c "$pair" $py benchmarks/opus_shape.py --keep "$models" --lines "$lines" --rounds 2 \
    --jobs "attnmt fp32,CTranslate2 fp32 2 threads" 2>&1 | sed 's/^/[tiles] /'
ATTNMT_FLOAT32_TILES=1 taskset -c "$pair" $py -m attnmt doctor --model "$models/attnmt" 2>&1 | grep -A6 "float32 decoder-step"
echo "== tests (whole output: $tests)"
timeout 300 $py -m pytest -v -p no:cacheprovider tests/fast/test_split_tiles.py tests/fast/test_kernels.py \
    tests/test_cuda.py > "$tests" 2>&1
echo "pytest exit status $?"; tail -5 "$tests"
