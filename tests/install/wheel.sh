#!/usr/bin/env bash
# attnmt's wheel with the C++ step compiled in: built as setup.py says (python -m build --wheel
# --no-isolation, with PyTorch at the Makefile's pin, a C++ compiler and ninja), then installed into
# a fresh virtual environment whose PATH reaches no compiler, where a model must translate with the
# wheel's compiled step: not the Python step, and with nothing compiled (attnmt's cache starts empty).
# The sdist is built too: it must hold every package file git knows and build a wheel with pip.
#
#   tests/install/wheel.sh
#
# Both environments share one copy of PyTorch (pip install --target, then a .pth file), which saves
# an install and keeps the build tools out of the user's environment. The work folder (about 1.5 GB)
# goes in memory, /dev/shm, where it is there; TMPDIR picks another place, PY the Python (default
# python3); KEEP=1 keeps the work folder.
set -Eeuo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
PY=${PY:-python3}
torch_pin=$(sed -n 's/^TORCH := //p' "$repo/Makefile")  # the Makefile owns the PyTorch pin
place=${TMPDIR:-/tmp}
[ -n "${TMPDIR:-}" ] || ! [ -d /dev/shm ] || ! [ -w /dev/shm ] || place=/dev/shm
work=$(mktemp -d "$place/attnmt-wheel.XXXXXX")
finish() { if [ "${KEEP:-0}" = 1 ]; then echo "wheel: kept $work"; else rm -rf "$work"; fi; }
trap finish EXIT
trap 'echo "wheel: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR
fail() { echo "wheel: FAILED: $*" >&2; exit 1; }
step() { echo "wheel: $* ($SECONDS s)"; }
pip_quiet() { "$@" -q --no-compile --disable-pip-version-check; }

new_venv() {  # new_venv NAME: a fresh environment at $work/NAME that sees the shared PyTorch
    "$PY" -m venv "$work/$1"
    echo "$work/torch" >"$("$work/$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/torch.pth"
}

build_wheel() {  # into $work/wheels, from the files git knows (no stale build/); sets $wheel
    step "build: $torch_pin, setuptools, build and ninja in a fresh environment"
    new_venv build
    pip_quiet "$work/build/bin/pip" install --target "$work/torch" "$torch_pin"
    pip_quiet "$work/build/bin/pip" install "setuptools>=77.0.3" build ninja
    mkdir -p "$work/source"
    (cd "$repo" && git ls-files -co --exclude-standard -- pyproject.toml setup.py MANIFEST.in README.md LICENSE src \
        | tar -cf - -T -) | tar -xf - -C "$work/source"
    step "build: python -m build --wheel --no-isolation"
    local start=$SECONDS
    PATH="$work/build/bin:$PATH" "$work/build/bin/python" -m build --wheel --no-isolation -o "$work/wheels" \
        "$work/source" >"$work/build.out" 2>&1 || { tail -n 40 "$work/build.out"; fail "python -m build"; }
    wheel=$(ls "$work"/wheels/attnmt-*.whl)
    case "$wheel" in *-linux_*.whl) ;; *) fail "expected a platform wheel, got $(basename "$wheel")" ;; esac
    "$work/build/bin/python" - "$wheel" <<'PYTHON' || fail "the wheel lacks the compiled step or its record"
import json, sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
record = json.loads(wheel.read("attnmt/fast/prebuilt.json"))
assert f"attnmt/fast/{record['library']}" in wheel.namelist(), record
assert any(name.endswith(".dist-info/licenses/LICENSE") for name in wheel.namelist()), "no LICENSE"
PYTHON
    step "build: $(basename "$wheel"), $(($(stat -c %s "$wheel") / 1024)) KiB, built in $((SECONDS - start)) s"
}

check_sdist() {  # the sdist python -m build writes holds every package file git knows and the LICENSE, no
                # tests (MANIFEST.in), and builds a wheel
    step "sdist: python -m build --sdist --no-isolation, then pip wheel from it"
    "$work/build/bin/python" -m build --sdist --no-isolation -o "$work/sdist" "$work/source" >"$work/sdist.out" 2>&1 \
        || { tail -n 40 "$work/sdist.out"; fail "python -m build --sdist"; }
    local sdist
    sdist=$(ls "$work"/sdist/attnmt-*.tar.gz)
    (cd "$repo" && git ls-files -co --exclude-standard -- src | grep -v '/__pycache__/' | sort) >"$work/known.txt"
    tar -tzf "$sdist" | sed 's|^attnmt-[^/]*/||' >"$work/sdist-all.txt"
    sed -n 's|^\(src/.*[^/]\)$|\1|p' "$work/sdist-all.txt" | sort >"$work/sdist.txt"
    comm -23 "$work/known.txt" "$work/sdist.txt" >"$work/missing.txt"
    [ ! -s "$work/missing.txt" ] || { head "$work/missing.txt"; fail "the sdist lacks $(wc -l <"$work/missing.txt") package file(s)"; }
    grep -qx 'LICENSE' "$work/sdist-all.txt" || fail "the sdist lacks the LICENSE"
    ! grep -q '^tests/' "$work/sdist-all.txt" || fail "the sdist holds part of tests/ (MANIFEST.in prunes it)"
    "$work/build/bin/pip" wheel -q --disable-pip-version-check --no-deps -w "$work/sdist-wheel" "$sdist" \
        >"$work/sdist-wheel.out" 2>&1 \
        || { tail -n 40 "$work/sdist-wheel.out"; fail "pip wheel from the sdist"; }
    "$work/build/bin/python" - "$work"/sdist-wheel/attnmt-*.whl <<'PYTHON' || fail "the sdist's wheel lacks the C++ sources"
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
sources = [n for n in names if n.startswith("attnmt/fast/csrc/") and n.endswith(".cpp")]
assert sources, "no attnmt/fast/csrc/*.cpp: a first-use build would have nothing to compile"
PYTHON
    step "sdist: $(basename "$sdist") holds every package file and the LICENSE; its wheel carries the C++ sources"
}

small_model() {  # a model directory at $work/model (20 steps on 200 Multi30k pairs: it runs, it need not be good)
    mkdir -p "$work/data"
    for side in en de; do
        gzip -dc "$repo/data/multi30k/train.$side.gz" | sed -n 1,200p >"$work/data/train.$side"
        head -n 10 "$work/data/train.$side" >"$work/data/valid.$side"
    done
    cat >"$work/data/tiny.yaml" <<YAML
train_src: $work/data/train.en
train_tgt: $work/data/train.de
valid_src: $work/data/valid.en
valid_tgt: $work/data/valid.de
vocab_size: 200
model: {d_model: 32, n_heads: 2, encoder_layers: 1, decoder_layers: 2, d_ff: 64, dropout: 0.0}
max_tokens: 2000
max_steps: 20
eval_every: 20
precision: fp32
threads: 1
out_dir: $work/model
YAML
    "${user[@]}" attnmt train "$work/data/tiny.yaml" >"$work/train.out" 2>&1 || { cat "$work/train.out"; fail "attnmt train"; }
}

build_wheel
check_sdist

step "user: a fresh environment with the wheel, its PATH without a compiler"
new_venv user
pip_quiet "$work/user/bin/pip" install "$wheel"
mkdir -p "$work/cache"
user=(env PATH="$work/user/bin" ATTNMT_CACHE="$work/cache")  # ninja is there: attnmt depends on it
for tool in c++ g++ gcc cc clang++; do
    "${user[@]}" python -c "import shutil, sys; sys.exit(shutil.which('$tool') is not None)" \
        || fail "$tool is on the user's PATH"
done
small_model

step "user: translate with the wheel's compiled step"
# -W error: the warning that sends translation to the Python step fails this check.
"${user[@]}" python -W error - "$work/model" <<'PYTHON' || fail "the wheel's compiled step was not used"
import sys
import attnmt
from attnmt.fast import extension, prepare
model, tokenizer = attnmt.load_model_dir(sys.argv[1])
fast = prepare(model)
assert fast.step is not None, "prepare() attached no C++ step"
assert extension.loaded_library() == extension.prebuilt() is not None, (extension.loaded_library(), extension.prebuilt())
line, = attnmt.translate(fast, tokenizer, ["Two dogs are playing in the snow."])
assert line.strip(), "a blank translation"
print(f"wheel: translated with {extension.loaded_library()}")
PYTHON
echo "Two dogs are playing in the snow." | "${user[@]}" attnmt translate --model "$work/model" >"$work/line.txt" 2>"$work/err.txt"
[ -s "$work/line.txt" ] && ! grep -q "Python step\|building the fused" "$work/err.txt" \
    || { cat "$work/err.txt"; fail "attnmt translate: expected a line, from the compiled step"; }
"${user[@]}" attnmt build-ext >"$work/build-ext.out" && grep -q "is ready (the wheel's)" "$work/build-ext.out" \
    || { cat "$work/build-ext.out"; fail "attnmt build-ext: expected the wheel's step"; }
! ls -d "$work"/cache/attnmt_decoder_step-* >/dev/null 2>&1 || fail "something compiled the step into the cache"
step "the wheel carries the compiled step, and a machine without a compiler translates with it"
echo "wheel: 2 passed, 0 failed"
