"""Test-wide settings and the fixtures several modules share (their building blocks are in support.py)."""

import importlib
import os
import shutil
import signal
import sys
from pathlib import Path

# MKL multiplies the tiny model's training on its AVX-512 code on an Intel CPU and on its AVX2 code on AMD's,
# where the tests that read that model's alignments exactly (where an atom or a mark lands) were written: on a
# Xeon (family 6 model 207) six served texts and a no-break space came out one word off.  Held to AVX2 (MKL reads
# this when first called, after this line; the processes the tests start inherit it) they pass there.  Intel's AVX2
# code still rounds otherwise than AMD's in places, so a test of what the tiny model writes leaves it margin.
os.environ.setdefault("MKL_ENABLE_INSTRUCTIONS", "AVX2")
# The processes the tests start write byte code, where the machine says not to (the project's CI machines set
# PYTHONDONTWRITEBYTECODE=1): else each of the suite's hundreds of them compiled attnmt's source again, about 1 s of
# CPU of the 2-3 s a `python -m attnmt` takes to start on a Zen 3 (git ignores the __pycache__ folders written).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import pytest
import torch
from hypothesis import settings
from support import train_until_it_knows_the_pairs

from attnmt.threads import LOG, THREADS

inputs_module = importlib.import_module("attnmt.decoding.inputs")  # the module, not the package's names
dictated_module = importlib.import_module("attnmt.decoding.dictated")
joined_module = importlib.import_module("attnmt.decoding.quality_joined")

# One thread keeps small-tensor tests fast and reproducible on a shared 2-core machine.
torch.set_num_threads(1)

# On a CPU with AMX-BF16 the float32 copy's kernel choice may put a layer on the tiles (about 16 bits of
# each product) or not, as its timing falls: the suite's float32 copies keep float32's own products, the
# same on every CPU, and the processes it starts inherit this.  tests/fast/test_split_tiles.py puts layers
# on the tiles (and on their model, where the CPU has none) and sets the variable where it tests it.
os.environ["ATTNMT_FLOAT32_TILES"] = "0"

# Hypothesis draws the same examples on every run (a seed from each test's own code, no example database):
# a suite that passed passes again, and a property test's cost is its max_examples, which is tens, not
# hundreds (each is a differential test against a readable reference or a never-crashes check).
settings.register_profile("attnmt", derandomize=True, database=None)
settings.load_profile("attnmt")


@pytest.fixture(autouse=True)
def one_thread_again():
    """A command run in process may leave attnmt following the free cores (attnmt.threads), and
    saying so on a stderr that pytest captured: the next test starts from one thread, left alone
    and unlogged, again."""
    yield
    THREADS.leave()
    torch.set_num_threads(1)
    for handler in list(LOG.handlers):
        LOG.removeHandler(handler)


@pytest.fixture
def host_default_dtype():
    """Sets torch's default dtype as a host program may (``host_default_dtype(torch.float64)``), and
    puts float32 back after the test."""
    yield torch.set_default_dtype
    torch.set_default_dtype(torch.float32)


@pytest.fixture(scope="session")
def trained_model(tmp_path_factory) -> Path:
    """The tiny model that knows the 20 pairs by heart, trained once per session.

    Shared: a test that writes into a model directory copies this one first."""
    return train_until_it_knows_the_pairs(tmp_path_factory.mktemp("trained"))


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    """The tiny model and its tokenizer as load_model_dir gives them, loaded once per module."""
    from attnmt.checkpoint import load_model_dir

    return load_model_dir(trained_model)


@pytest.fixture
def trained_copy(trained_model, tmp_path) -> Path:
    """A copy of the session's tiny trained model that this test may write into."""
    shutil.copytree(trained_model, tmp_path / "model")
    return tmp_path / "model"


@pytest.fixture
def cache(monkeypatch, tmp_path) -> Path:
    """An empty attnmt cache for this test (ATTNMT_CACHE); returned: where prepared copies go in it."""
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "prepared"


@pytest.fixture
def reached(monkeypatch) -> list[str]:
    """Every sentence that reaches the model (attnmt.decoding.inputs.encode_inputs, which all searches use)."""
    seen: list[str] = []
    encode_inputs = inputs_module.encode_inputs

    def spy(tokenizer, sentences, max_len):
        seen.extend(sentences)
        return encode_inputs(tokenizer, sentences, max_len)

    monkeypatch.setattr(inputs_module, "encode_inputs", spy)
    return seen


@pytest.fixture
def verbatim_reads(monkeypatch) -> list[tuple[str, str]]:
    """Every (source, translation) the verbatim rule reads (attnmt.decoding.dictated.differs: once a text pair, twice
    where a glossary dictated words, which it reads without them too)."""
    seen: list[tuple[str, str]] = []
    differs = dictated_module.differs

    def spy(source, translation, *languages):
        seen.append((source, translation))
        return differs(source, translation, *languages)

    monkeypatch.setattr(dictated_module, "differs", spy)
    return seen


@pytest.fixture
def rules_read_again(monkeypatch):
    """Call it, and quality_joined.read_whole reads every text whole again, taking no reading its rules made before
    (quality_joined.readings_of): what the output was before it took them."""
    return lambda: monkeypatch.setattr(joined_module, "readings_of", lambda found: [])


@pytest.fixture
def pythons_ctrl_c():
    """Python's own SIGINT handler for the test, whatever this process had (the handler found is printed, for a
    failure's report): tests of Ctrl-C failed in whole runs of the suite, never alone, their Ctrl-C not raised
    (test_tokenizer's twice, test_faults_training's once), an earlier test in the same worker having left SIGINT
    ignored."""
    found = signal.signal(signal.SIGINT, signal.default_int_handler)
    print(f"SIGINT's handler before the test: {found!r}", file=sys.stderr)
    yield
    signal.signal(signal.SIGINT, found)
