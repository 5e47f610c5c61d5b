#!/usr/bin/env bash
# The float32 layers on AMX's bf16 tiles (csrc/split_tiles.cpp), on a CPU with AMX-BF16, in one sitting:
#
#   bash benchmarks/amx_float_tiles.sh MODELS_DIR [LINES] [VARIANTS]
#
# 1. the CPU; the extension built (attnmt doctor); the OPUS-shaped models built in MODELS_DIR unless
#    there (benchmarks/opus_shape.py --build), in the background on the CPUs the timed runs leave;
# 2. the CPU's tiles against their model (amx_tile_model.h);
# 3. benchmarks/float_kernels.py at 128 rows for each kernel variant in VARIANTS (ATTNMT_TILE_VARIANT,
#    default "0"), then at 16 rows with the fastest;
# 4. the OPUS-shaped float32 job (benchmarks/opus_shape.py): attnmt with AMX capped
#    (ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16: the panels, as before the tiles), attnmt, and CTranslate2,
#    each copy prepared first;
# 5. attnmt doctor --model (the kernel chosen per shape); then the tiles' tests and the CUDA tests.
# Every timed process is pinned to the first CPUs of two distinct cores (taskset), as a 2-core VM
# would run it.  PYTHON (default python3) has attnmt, ctranslate2 and transformers.
set -u
models=${1:?usage: amx_float_tiles.sh MODELS_DIR [LINES] [VARIANTS]}
lines=${2:-150}
variants=${3:-0}
py=${PYTHON:-python3}
pair=$(lscpu -p=CPU,CORE | grep -v '^#' | awk -F, '!seen[$2]++ {print $1}' | head -2 | paste -sd,)
rest=$(lscpu -p=CPU | grep -v '^#' | grep -vxF -e "${pair%,*}" -e "${pair#*,}" | paste -sd,)
echo "== $(lscpu | grep 'Model name' | sed 's/  */ /g'); $(nproc) CPUs;" \
     "$(grep -o 'amx_bf16\|amx_int8\|avx512_bf16\|avx512f\|avx2' /proc/cpuinfo | sort -u | paste -sd' '); timed on $pair"
$py -m attnmt doctor 2>&1 | grep -i "panels\|gpu" | head -3
built=0
if [ ! -e "$models/ct2_fp32/model.bin" ]; then
    mkdir -p "$models"
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
best="" least=""
for variant in $variants; do
    result=$(ATTNMT_TILE_VARIANT=$variant taskset -c "$pair" $py benchmarks/float_kernels.py --rows 128 --pieces 2 --rounds 12)
    echo "$result"
    total=$(echo "$result" | grep -o 'tiles bf16x3 [0-9.]* ms' | tail -1 | awk '{print $3}')
    if [ -n "$total" ] && { [ -z "$least" ] || awk "BEGIN {exit !($total < $least)}"; }; then best=$variant least=$total; fi
done
export ATTNMT_TILE_VARIANT=${best:-0}
echo "== the fastest variant at 128 rows: $ATTNMT_TILE_VARIANT"
taskset -c "$pair" $py benchmarks/float_kernels.py --rows 16 --rounds 12
[ "$built" != 0 ] && { wait "$built" || tail -5 "$models/build.log"; }
echo "== the OPUS-shaped float32 job"
one=$(mktemp) translated=$(mktemp)
echo "A man in a blue shirt is standing on a ladder." > "$one"
for cap in AVX512_CORE_BF16 ""; do
    env ${cap:+ONEDNN_MAX_CPU_ISA=$cap} taskset -c "$pair" $py -m attnmt translate --model "$models/attnmt" --threads 2 "$one" "$translated"
done
ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16 taskset -c "$pair" $py benchmarks/opus_shape.py --keep "$models" --lines "$lines" \
    --rounds 2 --jobs "attnmt fp32" 2>&1 | sed 's/^/[AMX capped] /'
taskset -c "$pair" $py benchmarks/opus_shape.py --keep "$models" --lines "$lines" --rounds 2 \
    --jobs "attnmt fp32,CTranslate2 fp32 2 threads" 2>&1
taskset -c "$pair" $py -m attnmt doctor --model "$models/attnmt" 2>&1 | grep -A6 "float32 decoder-step"
echo "== tests"
timeout 150 $py -m pytest -v -p no:cacheprovider tests/fast/test_split_tiles.py tests/test_cuda.py 2>&1 | tail -60
