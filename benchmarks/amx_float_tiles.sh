#!/usr/bin/env bash
# The float32 layers on AMX's bf16 tiles (csrc/split_tiles.cpp), on a CPU with AMX-BF16, in one sitting:
#
#   bash benchmarks/amx_float_tiles.sh MODELS_DIR [LINES]
#
# 1. the CPU; the extension built (attnmt doctor);
# 2. the tiles' tests (the CPU's tiles against their model, the step on them) and the CUDA tests;
# 3. benchmarks/float_kernels.py on two cores, at 128 and 16 rows: each step shape's kernels alone;
# 4. the OPUS-shaped float32 job against CTranslate2's (benchmarks/opus_shape.py), two cores, the
#    models built in MODELS_DIR unless there, attnmt's float32 copy prepared on those cores first;
# 5. attnmt doctor --model: the kernel chosen for each shape.
# Every process that is timed is pinned to the first CPUs of two distinct cores (taskset), as a 2-core
# VM would run it.  PYTHON (default python3) has attnmt, ctranslate2 and transformers.
set -u
models=${1:?usage: amx_float_tiles.sh MODELS_DIR [LINES]}
lines=${2:-150}
py=${PYTHON:-python3}
pair=$(lscpu -p=CPU,CORE | grep -v '^#' | awk -F, '!seen[$2]++ {print $1}' | head -2 | paste -sd,)
echo "== $(lscpu | grep 'Model name' | sed 's/  */ /g'); $(nproc) CPUs;" \
     "$(grep -o 'amx_bf16\|amx_int8\|avx512_bf16\|avx512f\|avx2' /proc/cpuinfo | sort -u | paste -sd' '); pinned to $pair"
$py -m attnmt doctor 2>&1 | grep -i "panels\|int8\|gpu\|cpu" | head -8
echo "== tests"
$py -m pytest -q -p no:cacheprovider tests/fast/test_split_tiles.py tests/fast/test_kernels.py tests/test_cuda.py 2>&1 | tail -4
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
    taskset -c "$pair" $py benchmarks/float_kernels.py --rows "$rows" --threads 2 --rounds 20
done
echo "== the OPUS-shaped float32 job"
if [ ! -e "$models/ct2_fp32/model.bin" ]; then
    mkdir -p "$models" && $py benchmarks/opus_shape.py --build "$models" > "$models/build.log" 2>&1 || tail -5 "$models/build.log"
fi
one=$(mktemp) translated=$(mktemp)
echo "A man in a blue shirt is standing on a ladder." > "$one"
taskset -c "$pair" $py -m attnmt translate --model "$models/attnmt" --threads 2 "$one" "$translated"
taskset -c "$pair" $py benchmarks/opus_shape.py --keep "$models" --lines "$lines" --rounds 2 \
    --jobs "attnmt fp32,CTranslate2 fp32 2 threads" 2>&1
taskset -c "$pair" $py -m attnmt doctor --model "$models/attnmt" 2>&1 | grep -A6 "float32 decoder-step"
