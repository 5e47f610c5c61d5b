#!/usr/bin/env bash
# attnmt as its users install it: the package alone (no extras) in a fresh virtual environment,
# then each extra alone in one of its own, each doing what it promises. The test suite runs with
# every extra installed, so it cannot see a default that needs an extra.
#
#   tests/install/installs.sh              # the core, then each extra: serve plot tensorboard export markdown
#   tests/install/installs.sh serve        # the core, then the extras named
#
# The core environment gets PyTorch as a user's does (pip install torch==PIN, then the package);
# the extras' environments share one copy of that PyTorch through a .pth file, which saves a
# PyTorch install each and leaves them nothing from each other. Each installs the wheel pip builds
# from this checkout (as `pip install .` does), without compiling .pyc files (PyTorch installs in a
# third of the time; Python compiles what it imports). The first translation uses attnmt's C++ step cache
# (~/.cache/attnmt), built once per machine; where it is not built yet, that translation builds it.
# The environments (about 2.5 GB) go in memory, /dev/shm, where it is there: writing and deleting
# them on disk took half as long again here. TMPDIR picks another place, PY the Python (default
# python3); KEEP=1 keeps the work folder.
set -Eeuo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
PY=${PY:-python3}
torch_pin=$(sed -n 's/^TORCH := //p' "$repo/Makefile")  # the Makefile owns the PyTorch pin
[ $# -gt 0 ] || set -- serve plot tensorboard export markdown
for extra in "$@"; do
    case "$extra" in serve | plot | tensorboard | export | markdown) ;; *) echo "installs: no extra '$extra'" >&2; exit 2 ;; esac
done
place=${TMPDIR:-/tmp}
[ -n "${TMPDIR:-}" ] || ! [ -d /dev/shm ] || ! [ -w /dev/shm ] || place=/dev/shm
work=$(mktemp -d "$place/attnmt-installs.XXXXXX")
server=""
finish() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    if [ "${KEEP:-0}" = 1 ]; then echo "installs: kept $work"; else rm -rf "$work"; fi
}
trap finish EXIT
trap 'echo "installs: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR
fail() { echo "installs: FAILED: $*" >&2; exit 1; }
step() { echo "installs: $* ($SECONDS s)"; }
pip_quiet() { "$@" -q --no-compile --disable-pip-version-check; }

new_venv() {  # new_venv NAME: an empty virtual environment at $work/NAME
    "$PY" -m venv "$work/$1"
}

shared_torch() {  # shared_torch NAME: PyTorch (installed once) on the path of environment NAME
    if [ ! -d "$work/torch" ]; then
        step "PyTorch for the extras' environments"
        pip_quiet "$work/core/bin/pip" install --target "$work/torch" "$torch_pin"
    fi
    echo "$work/torch" >"$("$work/$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/torch.pth"
}

build_wheel() {  # the wheel `pip install .` would build, from the files git knows (no stale build/)
    mkdir -p "$work/source"
    (cd "$repo" && git ls-files -co --exclude-standard -- pyproject.toml setup.py MANIFEST.in README.md LICENSE src \
        | tar -cf - -T -) | tar -xf - -C "$work/source"
    "$work/core/bin/pip" wheel -q --disable-pip-version-check --no-deps -w "$work/wheels" "$work/source"
    wheel=$(ls "$work"/wheels/attnmt-*.whl)
}

tiny_model() {  # a model that writes German-looking words after 150 steps on 400 Multi30k pairs (~15 s)
    local data="$work/data"
    mkdir -p "$data"
    for side in en de; do
        gzip -dc "$repo/data/multi30k/train.$side.gz" | sed -n 1,400p >"$data/train.$side"
        head -n 20 "$data/train.$side" >"$data/valid.$side"
    done
    cat >"$data/tiny.yaml" <<EOF
train_src: $data/train.en
train_tgt: $data/train.de
valid_src: $data/valid.en
valid_tgt: $data/valid.de
vocab_size: 300
model: {d_model: 32, n_heads: 2, encoder_layers: 1, decoder_layers: 1, d_ff: 64, dropout: 0.0}
max_tokens: 2000
lr_factor: 1.0
warmup_steps: 40
max_steps: 150
eval_every: 150
precision: fp32
threads: 1
out_dir: $work/model
EOF
    "$work/core/bin/attnmt" train "$data/tiny.yaml" >"$work/train.out" 2>&1 || { cat "$work/train.out"; fail "attnmt train"; }
}

one_line() {  # one_line WHAT FILE: FILE holds exactly one line, not blank
    [ "$(wc -l <"$2")" -eq 1 ] && grep -q '[^[:space:]]' "$2" || { cat "$2"; fail "$1: expected one non-blank line"; }
}

asks_for_extra() {  # asks_for_extra EXTRA COMMAND...: fails in one line that names pip install 'attnmt[EXTRA]'
    local code=0
    "$work/core/bin/attnmt" "${@:2}" >"$work/out" 2>"$work/err" </dev/null || code=$?
    [ "$code" -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -qF "pip install 'attnmt[$1]'" "$work/err" \
        || { cat "$work/err"; fail "attnmt ${*:2} without its extra: expected one line naming attnmt[$1]"; }
}

check_core() {
    step "core: a fresh environment, $torch_pin, then the package alone"
    new_venv core
    pip_quiet "$work/core/bin/pip" install "$torch_pin"
    build_wheel
    pip_quiet "$work/core/bin/pip" install "$wheel"
    step "core: train a tiny model"
    tiny_model
    step "core: translate"
    echo "Two dogs are playing in the snow. A man rides a bike." \
        | "$work/core/bin/attnmt" translate --model "$work/model" >"$work/line.txt"
    one_line "attnmt translate" "$work/line.txt"
    "$work/core/bin/python" -c 'import sys, attnmt; model, tokenizer = attnmt.load_model_dir(sys.argv[1]);
print(*attnmt.translate(model, tokenizer, ["Two dogs are playing in the snow."]))' "$work/model" >"$work/api.txt"
    one_line "attnmt.translate" "$work/api.txt"
    printf '<!DOCTYPE html>\n<html><body><p>Two dogs are playing in the <b>snow</b>.</p></body></html>\n' \
        >"$work/page.html"
    "$work/core/bin/attnmt" translate --model "$work/model" --input-format html "$work/page.html" >"$work/page.out"
    grep -q '<p>.*<b>.*</b>.*</p>' "$work/page.out" || { cat "$work/page.out"; fail "HTML: expected the page back"; }
    step "core: a Markdown file is read as text lines, with one warning naming attnmt[markdown]"
    printf '# Two dogs\n\nTwo dogs are playing in the `snow`.\n' >"$work/notes.md"
    "$work/core/bin/attnmt" translate --model "$work/model" "$work/notes.md" >"$work/notes.out" 2>"$work/notes.err"
    [ "$(wc -l <"$work/notes.out")" -eq 3 ] && [ "$(grep -cF "pip install 'attnmt[markdown]'" "$work/notes.err")" -eq 1 ] \
        || { cat "$work/notes.err"; fail "Markdown without its extra: expected 3 lines and one warning naming it"; }
    step "core: the commands of the extras say which to install"
    asks_for_extra serve serve --model "$work/model"
    asks_for_extra plot plot positional-encoding --out "$work/pe.png"
    asks_for_extra export export --model "$work/model" --format ctranslate2 --out "$work/ct2"
}

install_extra() {  # install_extra EXTRA: a fresh environment with the package and that extra only
    step "$1: a fresh environment with attnmt[$1] alone"
    new_venv "$1"
    shared_torch "$1"
    pip_quiet "$work/$1/bin/pip" install "$wheel[$1]"
}

check_serve() {
    install_extra serve
    local port
    port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$work/serve/bin/attnmt" serve --model "$work/model" --port "$port" --threads 1 2>"$work/serve.log" &
    server=$!
    "$PY" - "$port" "$work/serve.log" <<'EOF' || fail "attnmt serve: see above"
import json, sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/"
for _ in range(600):  # 120 s for the server to load
    try:
        urllib.request.urlopen(url + "health", timeout=2).close()
        break
    except OSError:
        time.sleep(0.2)
else:
    sys.exit(open(sys.argv[2]).read() + "\nattnmt serve did not answer /health within 120 s")
request = urllib.request.Request(url + "translate", json.dumps({"q": "Two dogs are playing in the snow.",
                                 "source": "en", "target": "de"}).encode(), {"Content-Type": "application/json"})
text = json.load(urllib.request.urlopen(request, timeout=60))["translatedText"]
if not text.strip():
    sys.exit("POST /translate answered a blank translation")
EOF
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=""
}

check_plot() {
    install_extra plot
    "$work/plot/bin/attnmt" plot positional-encoding --out "$work/pe.png" >/dev/null
    "$work/plot/bin/attnmt" plot training --model "$work/model" --out "$work/training.png" >/dev/null
    for picture in pe training; do
        [ "$(head -c 4 "$work/$picture.png" | tail -c 3)" = PNG ] || fail "attnmt plot: $picture.png is no PNG"
    done
}

check_tensorboard() {
    install_extra tensorboard
    "$work/tensorboard/bin/attnmt" train "$work/data/tiny.yaml" --max-steps 2 --eval-every 2 \
        --out-dir "$work/tensorboard-model" >/dev/null 2>&1 || fail "attnmt train with attnmt[tensorboard]"
    ls "$work"/tensorboard-model/tensorboard/events.out.tfevents.* >/dev/null \
        || fail "attnmt train with attnmt[tensorboard]: no TensorBoard event file"
}

check_export() {
    install_extra export
    "$work/export/bin/attnmt" export --model "$work/model" --format ctranslate2 --out "$work/ct2" >/dev/null
    "$work/export/bin/attnmt" export --model "$work/model" --format marian --out "$work/marian" >/dev/null
    [ -s "$work/ct2/model.bin" ] && [ -s "$work/marian/config.json" ] || fail "attnmt export: no model written"
}

check_markdown() {
    install_extra markdown
    printf '# Two dogs\n\nTwo dogs are playing in the `snow`.\n\n```\nkeep me\n```\n' >"$work/notes.md"
    "$work/markdown/bin/attnmt" translate --model "$work/model" "$work/notes.md" "$work/notes.de.md" 2>"$work/notes.err" \
        || { cat "$work/notes.err"; fail "attnmt translate notes.md with attnmt[markdown]"; }
    ! grep -qF "attnmt[markdown]" "$work/notes.err" && grep -q '^# ' "$work/notes.de.md" && grep -qF '`snow`' "$work/notes.de.md" \
        && grep -qx 'keep me' "$work/notes.de.md" \
        || { cat "$work/notes.err" "$work/notes.de.md"; fail "Markdown: expected the heading, code span and code kept"; }
}

check_core  # first: the extras' checks use its wheel and its model
for extra in "$@"; do
    "check_$extra"
done
step "the core install, and each of these extras alone, did what they promise: $*"
echo "installs: $(($# + 1)) passed, 0 failed"
