#!/usr/bin/env bash
# benchmarks/opus_shape.py on two cores of a larger machine, as a 2-core VM would run it:
#
#   bash benchmarks/opus_shape_two_cores.sh MODELS_DIR [LINES] [OUT_FILE]
#
# Pins every process to the first CPUs of two distinct cores (taskset; `lscpu -p` says which CPUs
# share a core), builds the OPUS-shaped models in MODELS_DIR unless they are there, builds the C++
# step and prepares attnmt's float32 and int8 copies on those two cores first (so that no timed
# run prepares), then times fp32, int8 and int8 shortlist / vmap in pairs, 2 rounds each.
# PYTHON (default python3) is the interpreter with attnmt, ctranslate2 and transformers.
set -u
models=${1:?usage: opus_shape_two_cores.sh MODELS_DIR [LINES] [OUT_FILE]}
lines=${2:-150}
out=${3:-/dev/null}
py=${PYTHON:-python3}
pair=$(lscpu -p=CPU,CORE | grep -v '^#' | awk -F, '!seen[$2]++ {print $1}' | head -2 | paste -sd,)
echo "pinned to CPUs $pair (two distinct cores); $($py -c 'import torch, ctranslate2; print("PyTorch", torch.__version__, "CTranslate2", ctranslate2.__version__)')" | tee -a "$out"
$py -m attnmt doctor > /dev/null 2>&1  # builds the C++ step (all cores)
if [ ! -e "$models/ct2_int8/model.bin" ]; then
    mkdir -p "$models" && $py benchmarks/opus_shape.py --build "$models" || exit 1
fi
one=$(mktemp) translated=$(mktemp)
echo "A man in a blue shirt is standing on a ladder." > "$one"
for extra in "" "--int8" "--int8 --shortlist $models/shortlist.tsv"; do
    # shellcheck disable=SC2086  # extra is words
    taskset -c "$pair" $py -m attnmt translate --model "$models/attnmt" --threads 2 $extra "$one" "$translated" || exit 1
done
rm -f "$one" "$translated"
for jobs in "attnmt fp32,CTranslate2 fp32 2 threads" "attnmt int8,CTranslate2 int8 2 threads" \
            "attnmt int8 shortlist,CTranslate2 int8 vmap 2 threads"; do
    taskset -c "$pair" $py benchmarks/opus_shape.py --keep "$models" --lines "$lines" --rounds 2 --jobs "$jobs" 2>&1 | tee -a "$out"
done
taskset -c "$pair" $py -m attnmt doctor --model "$models/attnmt" | tee -a "$out"
