#!/usr/bin/env bash
# The CUDA paths of training and translation, run once on a machine with an NVIDIA GPU:
#
#   bash benchmarks/cuda_paths.sh OUT_DIR [SECONDS] [DEVICE]
#
# 1. trains the Multi30k config on the GPU for SECONDS (precision auto: bf16 there);
# 2. resumes that run on the GPU for a few more steps (the checkpoint read back onto it);
# 3. translates test_2016 on the GPU and on the CPU with the same weights, beam 4 and greedy,
#    and counts the lines on which they differ (equal outputs are the proof; a near-tie
#    between two hypotheses may round the other way, so a few lines may differ);
# 4. scores both with sacreBLEU;
# 5. trains in fp32 on the GPU for a few steps.
# Every step runs even when one before it failed; the exit status counts the failures.
# DEVICE (default cuda) lets the script itself be tried on a machine without a GPU.
set -u
out=${1:?usage: cuda_paths.sh OUT_DIR [SECONDS] [DEVICE]}
seconds=${2:-120}
device=${3:-cuda}
py=${PYTHON:-python3}
test_src=data/multi30k/test_2016_flickr.en.gz
test_ref=data/multi30k/test_2016_flickr.de.gz
mkdir -p "$out"
failed=0
step() {  # step NAME COMMAND...: runs it, says how long it took and whether it failed
    local name=$1 start=$SECONDS
    shift
    echo "== $name: $*"
    if "$@"; then echo "== $name: ok in $((SECONDS - start)) s"
    else echo "== $name: FAILED (status $?) after $((SECONDS - start)) s"; failed=$((failed + 1)); fi
}

"$py" -c 'import torch, platform; print("torch", torch.__version__, "| cuda", torch.version.cuda,
"|", torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU", "| python", platform.python_version())'

step train "$py" -m attnmt train configs/multi30k_en_de.yaml --device "$device" --max-time "${seconds}s" \
    --eval-every 400 --out-dir "$out/model"
step resume "$py" -m attnmt train --resume "$out/model" --max-time "$((seconds + 20))s"
for beam in 4 1; do
    for where in "$device" cpu; do
        step "translate beam $beam on $where" "$py" -m attnmt translate --model "$out/model" --device "$where" \
            --beam "$beam" "$test_src" "$out/test.beam$beam.$where.de"
        step "BLEU beam $beam on $where" "$py" -m attnmt evaluate --hyp "$out/test.beam$beam.$where.de" --ref "$test_ref"
    done
    step "beam $beam: lines that differ between $device and cpu" "$py" - "$out/test.beam$beam.$device.de" \
        "$out/test.beam$beam.cpu.de" <<'EOF'
import sys
a, b = (open(path, encoding="utf-8").read().splitlines() for path in sys.argv[1:3])
assert len(a) == len(b) == 1000, (len(a), len(b))
differ = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
print(f"{len(differ)} of {len(a)} lines differ", *(f"  line {i + 1}: {a[i]!r} / {b[i]!r}" for i in differ[:5]), sep="\n")
sys.exit(len(differ) > 20)
EOF
done
step "train fp32" "$py" -m attnmt train configs/multi30k_en_de.yaml --device "$device" --precision fp32 \
    --max-steps 60 --eval-every 50 --out-dir "$out/model_fp32"
echo "== $failed step(s) failed"
exit "$failed"
