"""What several test modules build the same way: the 20 memorised pairs, the tiny training config,
training a tiny model until it knows those pairs, `attnmt serve` in a subprocess, and `attnmt` in
one where the extras cannot be imported.

A plain module (not a test module): conftest.py turns these into fixtures, and modules
that need the values at import time (the 20 pairs, say) import them from here.
"""

from __future__ import annotations

import csv
import functools
import importlib.metadata
import io
import json
import math
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sentencepiece
import torch

import attnmt
from attnmt.checkpoint import load_model_dir
from attnmt.config import TransformerConfig
from attnmt.decoding.quality_features import Features
from attnmt.fast.packed import packing_available
from attnmt.model import Transformer
from attnmt.text.data import collate, encode_pairs
from attnmt.text.tokenizer import Tokenizer
from attnmt.train_config import TrainConfig
from attnmt.trained_lengths import LENGTHS
from attnmt.training.trainer import Trainer, resume

PAIRS = [
    ("a dog runs", "ein hund rennt"),
    ("a cat sleeps", "eine katze schläft"),
    ("two dogs run", "zwei hunde rennen"),
    ("a man rides a bike", "ein mann fährt ein fahrrad"),
    ("a woman reads a book", "eine frau liest ein buch"),
    ("the child plays", "das kind spielt"),
    ("a bird sings", "ein vogel singt"),
    ("two men walk", "zwei männer gehen"),
    ("a girl swims", "ein mädchen schwimmt"),
    ("the boy laughs", "der junge lacht"),
    ("a horse jumps", "ein pferd springt"),
    ("a woman sings", "eine frau singt"),
    ("the dog sleeps", "der hund schläft"),
    ("a man reads", "ein mann liest"),
    ("two girls play", "zwei mädchen spielen"),
    ("a cat runs", "eine katze rennt"),
    ("the man laughs", "der mann lacht"),
    ("a boy swims", "ein junge schwimmt"),
    ("two birds sing", "zwei vögel singen"),
    ("a child reads a book", "ein kind liest ein buch"),
]


def some_features(k: int) -> Features:
    """The features of a made-up translation k, the mean and least log-prob falling with k % 20:
    what the fits are given where no model is needed."""
    return Features(mean_log_prob=-0.1 * (k % 20), min_log_prob=-0.3 * (k % 20), eos_log_prob=-0.1, unread=0.0,
                    repeated=0.0, copied=0.0, length_ratio=1.0 + 0.01 * (k % 7))


def calibration_pairs() -> list[tuple[str, str]]:
    """120 distinct pairs: the first 10 sources each with its reference as it is and ending in
    ".", "!", "?" and ";" (the model's translation, the reference, reaches chrF 92 against each: a
    label 1) and with one other pair's reference (under chrF 30: a label 0); the last 10 the other
    way round, with its reference and five others'."""
    ends, shifts = ("", ".", "!", "?", ";"), (1, 3, 4, 2, 16)
    right = [(s, r + end) for k, (s, r) in enumerate(PAIRS) for end in (ends if k < 10 else ends[:1])]
    wrong = [(s, PAIRS[(k + shift) % len(PAIRS)][1]) for k, (s, _) in enumerate(PAIRS)
             for shift in (shifts[:1] if k < 10 else shifts)]
    return right + wrong


# A model "knows" the pairs when every reference translation costs it less than this many nats
# in total.  Then every reference token has probability > e^-0.2 = 0.82, so greedy search
# follows the reference, and any other finished hypothesis has probability < 0.18
# (log-prob < -1.7), which even the largest length bonus at alpha 0.6 and 64 tokens
# (a factor 4.3) cannot lift above the reference's score (> -0.2): beam search finds it too.
# That holds on any CPU, whatever its rounding; training goes on until it holds.
KNOWS_THE_PAIRS = 0.2
TRAIN_UNTIL = KNOWS_THE_PAIRS / 2  # a margin, so that the packed and int8 copies know them too
MAX_STEPS_TO_LEARN = 1500


# The inference copy's C++ tests: oneDNN in this PyTorch build, and a compiler to build the extension.
NEEDS_EXTENSION_BUILD = [
    pytest.mark.skipif(not packing_available(), reason="this PyTorch build has no oneDNN"),
    pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler to build the extension"),
]

# A model's embeddings and output layer tied each way a config can tie them (TransformerConfig):
# the inference copy reads tied ones from the output layer's panels (attnmt.fast.panels.PanelEmbedding).
EMBEDDING_TIES = {
    "tied": {},
    "output tied to the target embedding": dict(tie_embeddings=False, tie_output=True, src_vocab_size=20),
    "untied": dict(tie_embeddings=False),
}

# Headless Chromium for the browser tests (Playwright drives it); None where it is not installed.
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NEEDS_CHROMIUM = pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)",
)
# Chromium runs as root here; without the background-networking flags it reaches for the network.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def can_mount_tmpfs(folder: Path) -> bool:
    """Whether this process may mount a tmpfs in a mount namespace of its own (root, or user namespaces)."""
    if not shutil.which("unshare"):
        return False
    folder.mkdir()
    check = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=1m tmpfs {folder}"],
                           capture_output=True)
    return check.returncode == 0


def run_cli(argv, capsys) -> tuple[int, str, str]:
    """``attnmt ARGV`` in process: (exit status, stdout, stderr)."""
    from attnmt.cli.main import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, text: str) -> str:
    """Writes ``text`` to ``path`` in UTF-8; returns the path, as a str a config or a reader takes."""
    path.write_text(text, encoding="utf-8")
    return str(path)


def write_pairs(folder: Path, name: str, pairs) -> tuple[Path, Path]:
    src, tgt = folder / f"{name}.src", folder / f"{name}.tgt"
    src.write_text("".join(s + "\n" for s, _ in pairs), encoding="utf-8")
    tgt.write_text("".join(t + "\n" for _, t in pairs), encoding="utf-8")
    return src, tgt


def tmx_text(units: list[dict[str, str]], srclang: str = "en", before_root: str = "") -> str:
    """A TMX memory as a CAT tool exports it: one <tu> a unit, one <tuv> (its <seg>'s XML) per language of
    ``units``' dicts, the header naming ``srclang``; ``before_root``: a DOCTYPE, say."""
    tus = "".join("<tu>" + "".join(f'<tuv xml:lang="{lang}"><seg>{seg}</seg></tuv>' for lang, seg in unit.items())
                  + "</tu>\n" for unit in units)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{before_root}<tmx version="1.4">\n<header srclang="{srclang}" '
            f'segtype="sentence" datatype="plaintext" o-tmf="x" adminlang="en" creationtool="t" '
            f'creationtoolversion="1"/>\n<body>\n{tus}</body>\n</tmx>\n')


def srt(*cues: str) -> str:
    """An SRT file of ``cues``, one a second: the first from 00:00:00,000 to 00:00:01,000."""
    return "\n".join(f"{k + 1}\n00:00:0{k},000 --> 00:00:0{k + 1},000\n{text}\n" for k, text in enumerate(cues))


def everything_listed():
    """A review (attnmt.documents.review) that lists every sentence: each assessed 0.2, under its
    threshold 0.5."""
    from attnmt.decoding.quality import Assessment
    from attnmt.documents.review import Review

    return Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5)


def review_rows(review) -> list[list[str]]:
    """The rows of a review's table (attnmt.documents.review.Review.table) as its tab-separated text gives them,
    the header first."""
    return list(csv.reader(io.StringIO(review.table()), delimiter="\t"))


def at_most(characters: int) -> Callable[[str], bool]:
    """A model's limit, in characters for the reader (ModelTranslator.fits counts tokens)."""
    return lambda sentence: len(sentence) <= characters


def plain_spm_model(path: Path) -> Path:
    """A SentencePiece model of PAIRS as `spm_train` makes it by default: <unk>=0, <s>=1, </s>=2, no <pad>."""
    writer = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(sentence_iterator=iter([s for pair in PAIRS for s in pair]),
                                             model_writer=writer, vocab_size=60, minloglevel=2)
    path.write_bytes(writer.getvalue())
    return path


def tiny_config(folder: Path, **changes) -> TrainConfig:
    """A 2+2-layer, d_model 64 model on the 20 pairs (validated on the same pairs), fp32, one thread.

    No label smoothing: it would cap each token's probability near 0.9, and the tests
    want a model that can become certain of its pairs.
    """
    folder.mkdir(parents=True, exist_ok=True)
    train_src, train_tgt = write_pairs(folder, "train", PAIRS)
    values = dict(
        train_src=str(train_src), train_tgt=str(train_tgt), valid_src=str(train_src), valid_tgt=str(train_tgt),
        vocab_size=81, max_len=32,
        model=dict(d_model=64, n_heads=4, encoder_layers=2, decoder_layers=2, d_ff=128, dropout=0.0,
                   max_positions=64),
        max_tokens=400, lr_factor=1.0, warmup_steps=40, max_steps=300, eval_every=100, log_every=10,
        label_smoothing=0.0, precision="fp32", threads=1, out_dir=str(folder / "model"),
    )
    if changes.get("train_tsv") or changes.get("train") is not None:  # one kind of corpus, as a config names it
        del values["train_src"], values["train_tgt"]
    values.update(changes)
    return TrainConfig.from_dict(values)


def worst_pair_nll(model_dir: Path) -> float:
    """The largest total negative log-likelihood (nats) the model in ``model_dir`` gives a reference of PAIRS."""
    model, tokenizer = load_model_dir(model_dir)
    examples, _ = encode_pairs(PAIRS, tokenizer, max_len=64)
    batch = collate(examples)
    with torch.inference_mode():
        log_probs = model(batch.src, batch.tgt_in).log_softmax(-1)
    reference = log_probs.gather(-1, batch.tgt_out.unsqueeze(-1)).squeeze(-1)  # [pairs, T]
    return -(reference * (batch.tgt_out != model.config.pad_id)).sum(1).min().item()  # the least likely pair


def train_until_it_knows_the_pairs(folder: Path) -> Path:
    """Trains tiny_config's model (300 steps, then on in steps of 100 while it does not yet know the
    pairs with margin, at most MAX_STEPS_TO_LEARN); returns the model directory."""
    config = tiny_config(folder, eval_metric="loss")  # keep the lowest validation loss, not the first BLEU 100
    model_dir = Path(config.out_dir)
    with torch_ops_only():
        step = Trainer(config, progress=False).train().step
        while worst_pair_nll(model_dir) >= TRAIN_UNTIL and step < MAX_STEPS_TO_LEARN:
            step = resume(model_dir, {"max_steps": str(step + 100)}, progress=False).step
    # Its pairs' sources are at most 15 pieces, and the tests give it longer lines whole, as a model
    # without this record is given them (tests/test_trained_lengths.py writes one where it is tested).
    (model_dir / LENGTHS).unlink()
    return model_dir


@contextmanager
def torch_ops_only():
    """Training with PyTorch's ops only, not the C++ extension's kernels: the session's tiny model
    must not depend on whether a test that ran before it loaded the extension (the kernels draw
    other dropout masks, and the tests on its alignments are exact)."""
    from attnmt import dropout
    from attnmt.training import objective

    kept = dropout.hashed_dropout_runs, objective.fused_loss_runs
    dropout.hashed_dropout_runs, objective.fused_loss_runs = (lambda x: False), (lambda h, dtype: False)
    try:
        yield
    finally:
        dropout.hashed_dropout_runs, objective.fused_loss_runs = kept


def translated_text(answer: dict) -> dict:
    """A LibreTranslate answer (or a stream's "done" event) without attnmt's extra fields (quality, flags,
    calibrated): what LibreTranslate's clients read."""
    return {key: value for key, value in answer.items() if key not in ("quality", "flags", "calibrated")}


def deepl_text(client, text: str, **more) -> str:
    """The text DeepL's API (/v2/translate) gives back for ``text`` from English into German, its other
    parameters ``more`` (tag_handling, split_sentences): a 200's, or the test fails showing the answer."""
    body = {"text": [text], "target_lang": "DE", "source_lang": "EN", **more}
    answer = client.post("/v2/translate", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()["translations"][0]["text"]


def submit_file(client, name: str, data: bytes, **fields):
    """POST /v1/files of attnmt's file API (attnmt.server.file_api): ``data`` as the file ``name``,
    ``fields`` as the form's other fields."""
    return client.post("/v1/files", data=fields, files={"file": (name, data, "application/octet-stream")})


def post_file(client, path: str, name: str, data: bytes, streamed: bool = False, **fields):
    """A multipart POST of ``data`` as the file ``name`` and ``fields`` to ``path``; ``streamed``:
    in chunks of 64 KiB without a Content-Length, as a client streaming its upload sends it."""
    body = client.build_request("POST", path, data=fields, files={"file": (name, data, "text/plain")})
    content = body.read()
    headers = {"content-type": body.headers["content-type"]}
    if not streamed:
        return client.post(path, content=content, headers=headers)
    return client.post(path, content=(content[at:at + 65536] for at in range(0, len(content), 65536)),
                       headers=headers)


def server_events(client, url: str) -> list[tuple[str, dict]]:
    """The server-sent events at ``url``, (name, data), to the end of the stream."""
    found = []
    with client.stream("GET", url) as stream:
        for block in stream.read().decode().split("\n\n"):
            if block.strip():
                name, data = block.split("\n")
                found.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return found


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Returns once ``condition()`` holds; fails the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.01)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_healthy(url: str, server: subprocess.Popen, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            server.stderr.seek(0)
            raise RuntimeError(f"attnmt serve exited with status {server.returncode}: {server.stderr.read()}")
        try:
            with urllib.request.urlopen(url + "health", timeout=2) as answer:
                return json.load(answer)
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"attnmt serve did not answer {url}health within {timeout:.0f} s")


@contextmanager
def running_server(model_dir, *options: str, pair: str | None = None) -> Iterator[tuple[int, str, subprocess.Popen]]:
    """`attnmt serve` as a user starts it, on a free loopback port: (port, url, process); stopped on exit.

    ``pair``: serve the model as that language pair (``--model en-de=DIR``); ``options``: more
    of attnmt serve's options."""
    port = free_port()
    command = [sys.executable, "-m", "attnmt", "serve", "--model", f"{pair}={model_dir}" if pair else str(model_dir),
               "--port", str(port), "--threads", "1", *options]
    # Its stderr (the access log: a line a request) goes to a file, which never fills up as a pipe would;
    # process.stderr reads it from the start, through a file object of its own.
    with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "stderr", "w", encoding="utf-8") as log, \
            open(Path(folder) / "stderr", encoding="utf-8") as reader:
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, text=True)
        server.stderr = reader
        url = f"http://127.0.0.1:{port}/"
        try:
            assert wait_until_healthy(url, server)["model"] == (pair or "model")
            yield port, url, server
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=30)


def distribution(requirement: str) -> str:
    """The normalised distribution name of a requirement ("Prometheus_client>=0.20" -> "prometheus-client")."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement)[0]).lower()


def modules_of_the_extras() -> list[str]:
    """The top-level modules that pyproject.toml's extras (dev included) install and its core
    dependencies do not: those of them installed here, since the others cannot be imported anyway."""
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = {distribution(requirement) for requirement in project["dependencies"]}
    extras = {distribution(requirement) for group in project["optional-dependencies"].values()
              for requirement in group} - {project["name"]}  # all = attnmt[...]
    installed = {module: {distribution(name) for name in names}  # module -> the distributions that install it
                 for module, names in importlib.metadata.packages_distributions().items()}
    return sorted(module for module, names in installed.items() if names & extras and not names & core)


def python_without_extras(program: str, *argv, stdin: str = "") -> subprocess.CompletedProcess:
    """Python ``program`` (with ``sys.argv[1:]`` = ARGV) in a new process in which the extras' modules
    cannot be imported, as in a core install (``pip install attnmt``): its status, stdout and stderr."""
    block = "import sys; sys.modules.update(dict.fromkeys(sys.argv.pop(1).split(',')))\n"
    return subprocess.run([sys.executable, "-c", block + program, ",".join(modules_of_the_extras()), *map(str, argv)],
                          input=stdin, capture_output=True, text=True, timeout=300)


def attnmt_without_extras(*argv, stdin: str = "") -> subprocess.CompletedProcess:
    """``attnmt ARGV`` run as python_without_extras runs a program."""
    return python_without_extras("from attnmt.cli.main import entry; entry()", *argv, stdin=stdin)


# a Hugging Face Marian model with random weights, made here (nothing is downloaded)


def spm_and_vocab(sentences: list[str], size: int, pad_at: int | None) -> tuple[bytes, dict[str, int]]:
    """A SentencePiece model and a Marian vocabulary for it: </s>=0, <unk>=1, <pad> at pad_at (default last)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the corpus is too small for the asked size
        spm = Tokenizer.train(sentences, vocab_size=size)
    tokens = ["</s>", "<unk>", *(spm.id_to_piece(i) for i in range(4, spm.vocab_size))]
    tokens.insert(len(tokens) if pad_at is None else pad_at, "<pad>")
    return spm.model_proto, {token: i for i, token in enumerate(tokens)}


def write_random_marian(folder: Path, separate: bool = False, pairs=PAIRS, size: int = 40, two_models: bool = False,
                        **changes) -> Path:
    """A Hugging Face Marian directory with random weights (non-zero logits bias included), its
    SentencePiece models of about ``size`` pieces trained on ``pairs``: a shared one on both sides;
    with ``separate`` one per side, each with its vocabulary; with ``two_models`` one per side and one
    vocab.json holding the pieces of both (OPUS-MT's usual layout)."""
    transformers = pytest.importorskip("transformers", reason="transformers is optional: pip install 'attnmt[export]'")
    folder.mkdir(parents=True)
    # Separate vocabularies of different sizes share one pad id, so <pad> sits at 2 in both.
    if separate:
        source_spm, source_vocab = spm_and_vocab([s for s, _ in pairs], size, 2)
        target_spm, target_vocab = spm_and_vocab([t for _, t in pairs], size + 10, 2)
    elif two_models:
        source_spm, source_pieces = spm_and_vocab([s for s, _ in pairs], size, None)
        target_spm, target_pieces = spm_and_vocab([t for _, t in pairs], size, None)
        tokens = [*(t for t in source_pieces if t != "<pad>"), *(t for t in target_pieces if t not in source_pieces)]
        source_vocab = target_vocab = {token: i for i, token in enumerate([*tokens, "<pad>"])}
    else:
        source_spm, source_vocab = spm_and_vocab([s for pair in pairs for s in pair], size, None)
        target_spm, target_vocab = source_spm, source_vocab
    (folder / "source.spm").write_bytes(source_spm)
    (folder / "target.spm").write_bytes(target_spm)
    (folder / "vocab.json").write_text(json.dumps(source_vocab))
    extra = {}
    if separate:
        (folder / "target_vocab.json").write_text(json.dumps(target_vocab))
        extra = dict(target_vocab_file=str(folder / "target_vocab.json"), separate_vocabs=True)
    transformers.MarianTokenizer(str(folder / "source.spm"), str(folder / "target.spm"),
                                 str(folder / "vocab.json"), **extra).save_pretrained(folder)
    pad = target_vocab["<pad>"]
    settings = dict(
        vocab_size=len(source_vocab), decoder_vocab_size=len(target_vocab),
        share_encoder_decoder_embeddings=not separate,
        d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
        encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64, dropout=0.0,
        pad_token_id=pad, decoder_start_token_id=pad, eos_token_id=0, forced_eos_token_id=None,
    )
    torch.manual_seed(0)
    model = transformers.MarianMTModel(transformers.MarianConfig(**{**settings, **changes}))
    with torch.no_grad():  # larger than Marian's initialisation, so that the logits differ clearly
        for name, p in model.named_parameters():
            if "embed_positions" not in name:
                p.normal_(1.0 if "layer_norm.weight" in name else 0.0, 0.2 if p.dim() > 1 else 0.1)
        model.final_logits_bias.normal_(0.0, 0.1)
    model.save_pretrained(folder)
    return folder


# --- hand-made and random models for the searches (tests/test_search.py, test_constraints.py, ...) ------

PAD, BOS, EOS = 0, 2, 3


def search_config(**changes) -> TransformerConfig:
    """A tiny model's config for the search tests."""
    values = dict(vocab_size=40, d_model=32, n_heads=4, encoder_layers=2, decoder_layers=2,
                  d_ff=64, dropout=0.0, max_positions=64)
    values.update(changes)
    return TransformerConfig(**values)


def fond_of_pad(model: Transformer) -> Transformer:
    """``model`` (built with output_bias=True) with its output layer giving pad and BOS most of each
    step's softmax: the tokens outside the next-token distribution (next_tokens.outside_distribution),
    which no reported log-prob may count."""
    c = model.config
    with torch.no_grad():
        model.output.bias[[c.pad_id, c.bos_id]] = 6.0
    return model


def failing_on(model: Transformer, tokenizer, sentence: str, monkeypatch) -> None:
    """``model``'s encoder raising on any batch that holds ``sentence`` (a sentence that breaks a search),
    the others translated as before."""
    poison, encode = tokenizer.encode(sentence), model.encode

    def fragile(src, *args, **kwargs):
        if any([i for i in row if i != model.config.pad_id] == poison for row in src.tolist()):
            raise RuntimeError("boom")
        return encode(src, *args, **kwargs)

    monkeypatch.setattr(model, "encode", fragile)


def masked_log_probs(model: Transformer, src: torch.Tensor, tokens: list[int]) -> torch.Tensor:
    """The log-probs [T + 1] of tokens (no BOS/EOS) then EOS as a translation of src [1, S]: the
    plain softmax of the model's logits with pad and BOS at -inf, what every search reports."""
    c = model.config
    with torch.no_grad():
        logits = model(src, torch.tensor([[c.bos_id, *tokens]]))[0].float()  # [T + 1, V]
    logits[:, [c.pad_id, c.bos_id]] = float("-inf")
    return logits.log_softmax(dim=-1).gather(1, torch.tensor([*tokens, c.eos_id])[:, None]).squeeze(1)


def held_on_a_thread(context, entered, leave) -> threading.Thread:
    """A thread that enters ``context()`` (a load's ``uninitialised``, a translation's ``evaluating``),
    says so on ``entered`` and leaves when ``leave`` is set."""

    def hold() -> None:
        with context():
            entered.set()
            leave.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    assert entered.wait(10)
    return thread


class NamedPieces:
    """A vocabulary that names its pieces (``PIECES``, set by each test's own): a text is its words, each the
    piece "▁" + word where there is one, else the unknown piece."""

    PIECES: list[str] = []

    @property
    def vocab_size(self) -> int:
        return len(self.PIECES)

    def encode_target(self, text: str) -> list[int]:
        return [self.PIECES.index("▁" + word) if "▁" + word in self.PIECES else 1 for word in text.split(" ")]

    def decode(self, ids: list[int]) -> str:
        return "".join(map(self.id_to_piece, ids)).replace("▁", " ").strip()

    def id_to_piece(self, i: int) -> str:
        return self.PIECES[i]


class CharTokenizer:
    """One id per letter (a=4 … z=29, space=30): a stand-in for SentencePiece."""

    ALPHABET = "abcdefghijklmnopqrstuvwxyz "
    source_eos = False

    def encode(self, text: str) -> list[int]:
        return [4 + self.ALPHABET.index(ch) if ch in self.ALPHABET else 1 for ch in text]

    def decode(self, ids) -> str:
        return "".join(self.ALPHABET[i - 4] if 4 <= i < 31 else "?" for i in ids)


class EndingModel(Transformer):
    """A random model whose EOS logit grows with the target position.

    Like a trained model, it ends its outputs at lengths that vary by sentence
    and by hypothesis, which exercises finished beams and shrinking batches.
    """

    def decode(self, tgt_in, memory, src_mask, trace=None, cache=None):
        start = cache.length if cache is not None else 0
        logits = super().decode(tgt_in, memory, src_mask, trace, cache)
        position = torch.arange(start, start + tgt_in.size(1))  # [T]
        logits[..., EOS] += 0.5 * position - 1.0
        return logits


def ending_model(seed: int = 0) -> EndingModel:
    torch.manual_seed(seed)
    return EndingModel(search_config()).eval()


class ScriptedModel:
    """A hand-made "model": next-token probabilities looked up by the output so far.

    ``table`` maps an output prefix (tuple, no BOS) to {token: probability};
    a prefix not in the table is followed by EOS for sure.  It keeps no cache: each step reads the whole
    output (searches that build their own state, as ``run_search``, may call it too).
    """

    def __init__(self, table: dict[tuple[int, ...], dict[int, float]]) -> None:
        self.config = search_config(vocab_size=10)
        self.table = table

    def encode(self, src: torch.Tensor) -> torch.Tensor:
        return torch.zeros(*src.shape, 1)

    def start_decoding(self, memory: torch.Tensor) -> None:
        return None  # no cache: DecoderState then passes the whole output each step

    def decode(self, tgt_in, memory, src_mask, cache=None):
        logits = torch.full((*tgt_in.shape, self.config.vocab_size), float("-inf"))
        for row, tokens in enumerate(tgt_in.tolist()):
            for token, p in self.table.get(tuple(tokens[1:]), {EOS: 1.0}).items():
                logits[row, -1, token] = math.log(p)
        return logits


class TableModel(Transformer):
    """A Transformer whose next-token probabilities are looked up by the output so far (ScriptedModel's ``table``,
    whatever the source), so that ``translate`` runs it as any model: no cache, each step reads the whole output; a
    prefix not in the table is followed by EOS.  ``vocab_size`` and ``target_lang`` as the model's
    (Transformer.target_lang: German's rules for glossary terms apply to a German target alone)."""

    def __init__(self, table: dict[tuple[int, ...], dict[int, float]], vocab_size: int = 40,
                 target_lang: str | None = None) -> None:
        super().__init__(search_config(vocab_size=vocab_size))
        self.table = table
        self.target_lang = target_lang

    def start_decoding(self, memory):
        return None

    def decode(self, tgt_in, memory, src_mask, trace=None, cache=None):
        logits = torch.full((*tgt_in.shape, self.config.vocab_size), -1e9)
        for row, tokens in enumerate(tgt_in.tolist()):
            for token, p in self.table.get(tuple(tokens[1:]), {EOS: 1.0}).items():
                logits[row, -1, token] = math.log(p)
        return logits


def lines_run(call: Callable[[], object]) -> int:
    """How many lines of attnmt's own code ``call()`` runs: a count of its work that, unlike its
    time, is the same on every machine and every run."""
    root = str(Path(attnmt.__file__).parent)
    count = 0

    def count_lines(frame, event, arg):
        nonlocal count
        count += event == "line"
        return count_lines

    previous = sys.gettrace()  # a coverage tool's tracer, say: put back afterwards
    sys.settrace(lambda frame, event, arg: count_lines if frame.f_code.co_filename.startswith(root) else None)
    try:
        call()
    finally:
        sys.settrace(previous)
    return count


def open_page(browser, url: str, **options):
    """A new browser page at ``url`` (``options``: Playwright's new_page arguments) recording every
    request it makes in page.requested, and what its Content-Security-Policy blocked (the console
    says so) in page.blocked."""
    page = browser.new_page(**options)
    page.requested, page.blocked = [], []
    page.on("request", lambda request: page.requested.append(request.url))
    page.on("console", lambda message: "Content Security Policy" in message.text and page.blocked.append(message.text))
    page.goto(url)
    return page


UNKNOWN = "zebra quantum xylophone"  # words the tiny model never saw
KNOWN = ("a dog runs", "a cat sleeps", "the boy laughs", "a horse jumps")  # pairs it knows by heart


@functools.cache
def known_apart(model_dir: str) -> float:
    """A quality threshold (4 decimals) that sets the tiny model's translations of the pairs it
    knows apart from its translation of UNKNOWN: halfway between the least of the first and the
    second, uncalibrated, searched as ``attnmt translate`` searches.  The memorising model is surer of
    a pair it knows (0.999 and more) than of words it never saw, but how sure it is of those (0.90 to
    0.99) follows its training's rounding, which differs between CPUs: no fixed number holds on all."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding.quality import assess
    from attnmt.decoding.translate import translate

    model, tokenizer = load_model_dir(model_dir)
    sources = [*KNOWN, UNKNOWN]
    *known, unknown = (a.quality for a in assess(model, tokenizer, sources, translate(model, tokenizer, sources)))
    assert unknown < min(known) - 0.002, (known, unknown)  # what the tests that use it rely on
    return round((min(known) + unknown) / 2, 4)


def write_calibration(model_dir: Path, weights: Path | None = None, threshold: float = 0.5) -> None:
    """A quality.json fitted (by hand: the mean log-prob alone, quality = σ(4·mean_log_prob + 2)) on
    ``weights``, else the model directory's, its low_quality threshold ``threshold``."""
    from attnmt.decoding.calibration import Calibration, save_calibration
    from attnmt.decoding.quality_features import INPUT_NAMES
    from attnmt.files import file_digest

    rest = len(INPUT_NAMES) - 1
    sha256 = file_digest(weights or model_dir / "model.safetensors")
    save_calibration(Calibration(sha256, [1.0] + [0.0] * rest, 0.0, [-0.5] + [0.0] * rest, [0.25] + [1.0] * rest,
                                 0.0, (0.4, 2.5), threshold=threshold, sentences=200), model_dir)


def calibrated_apart(model_dir: Path) -> float:
    """``known_apart`` as write_calibration's quality reads it: that quality rises with the mean
    log-prob, as the uncalibrated one, exp(mean log-prob), does, so it sets the pairs the tiny model
    knows apart from UNKNOWN as well."""
    return 1 / (1 + math.exp(-(4 * math.log(known_apart(str(model_dir))) + 2)))


def int8_product_written_out(x: torch.Tensor, w: torch.Tensor, scales: torch.Tensor, levels: int,
                             bias: torch.Tensor | None = None) -> torch.Tensor:
    """What the int8 panel kernels compute, written out: per row q = round(x · levels / max|x_row|)
    (levels 127, or 63 on the AVX2 kernel), the products with the int8 W [N, K] summed exactly
    (float64 holds these integers exactly), scaled by max|x_row| / levels and the column's scale
    [N], bias added."""
    top = x.abs().amax(dim=1, keepdim=True)
    inv = torch.where(top > 0, levels / top, torch.zeros_like(top))
    sums = torch.round(x * inv).double() @ w.double().T
    y = sums.float() * ((top / levels) * scales)
    return y if bias is None else y + bias.detach()


class HeldModel:
    """A stand-in for the batcher's model that says when a batch has reached it (``started``) and
    gives its texts back as they are only once ``release`` is set (10 s at most): for tests of what
    happens while a batch is in the model."""

    def __init__(self) -> None:
        self.started, self.release = threading.Event(), threading.Event()

    def __call__(self, texts, options):
        self.started.set()
        self.release.wait(10)
        return texts
