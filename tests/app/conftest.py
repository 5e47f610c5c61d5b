"""Fixtures of the app tests: a headless Chromium that Playwright drives (the browser tests), the tiny
model served in process (a module's client unless it defines its own, and the DeepL tag and line
tests' deepl_client) or ready to serve (served), the in-process server's limits (the serve tests), a
model that fails on one sentence (the tests of what a failure does to a file), one whose training
record names its languages, and one calibrated once for the quality tests (calibrated); and Ctrl-C as a
terminal's foreground job has it, for the commands the tests send SIGINT to."""


import io
import shutil
import signal
from contextlib import redirect_stderr, redirect_stdout

import pytest
import yaml
from support import CHROMIUM, CHROMIUM_ARGS, calibration_pairs, write_pairs


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (.[dev])")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def client(trained_model):
    """The tiny model served in process as tiny-en-de, with the default limits.  A module whose tests need
    another server (other limits, names or models) defines a ``client`` of its own."""
    from fastapi.testclient import TestClient

    from attnmt.checkpoint import load_model_dir
    from attnmt.server.app import ServedModel, ServeSettings, create_app

    app = create_app([ServedModel(*load_model_dir(trained_model), "tiny-en-de", "en", "de")], ServeSettings())
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def served(trained_model):
    """The tiny model as the server holds it, named en-de: for the tests that build apps of their own."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.server.app import ServedModel

    return ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")


@pytest.fixture(scope="module")
def deepl_client(trained_model):
    """The tiny model served in process as en-de, 4 texts of 200 characters a request at most: the server
    the tests of DeepL's tag handling and line breaks send their texts to."""
    from fastapi.testclient import TestClient

    from attnmt.checkpoint import load_model_dir
    from attnmt.server.app import ServedModel, ServeSettings, create_app

    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]
    with TestClient(create_app(models, ServeSettings(max_texts=4, max_chars=200)), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def english_to_german(trained_copy):
    """A copy of the tiny model whose train.yaml names train.en and train.de: an en-de model to the
    server and the command line (attnmt.model_languages); the tiny model's own names say no language."""
    record = trained_copy / "train.yaml"
    config = yaml.safe_load(record.read_text(encoding="utf-8"))
    record.write_text(yaml.safe_dump({**config, "train_src": "train.en", "train_tgt": "train.de"}), encoding="utf-8")
    return trained_copy


@pytest.fixture(scope="session")
def serve_settings():
    """Limits small enough for a test to reach each of them (test_serve, test_serve_hosts)."""
    from attnmt.server.app import ServeSettings

    return ServeSettings(max_texts=4, max_chars=120, max_attention_texts=2, max_attention_weights=10_000,
                         max_glossary_terms=3, max_body_bytes=10_000)



@pytest.fixture
def failing_on_the_boy(trained_model, monkeypatch) -> str:
    """Every Transformer's encoder raising on any batch that holds the sentence "the boy laughs" (as the
    tiny model's tokenizer writes it), so that a model the command or the server loads fails on it
    alone; returned: the sentence."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.model import Transformer

    poison, encode = load_model_dir(trained_model)[1].encode("the boy laughs"), Transformer.encode

    def fragile(self, src, *args, **kwargs):
        if any([i for i in row if i != self.config.pad_id] == poison for row in src.tolist()):
            raise RuntimeError("boom")
        return encode(self, src, *args, **kwargs)

    monkeypatch.setattr(Transformer, "encode", fragile)
    return "the boy laughs"


@pytest.fixture
def ctrl_c_reaches_commands():
    """The commands a test starts get SIGINT's default action, as a terminal's foreground job does.  A
    test run that a shell script started in the background (``pytest … &``) has SIGINT ignored, which
    its children inherit across exec and keep (attnmt keeps an ignored SIGINT ignored, as Python
    does): each Ctrl-C a test sent was lost, and the test failed at its timeout (120 s).  A handler
    of this process's own is reset to the default in a child, where an ignored signal stays ignored."""
    before = signal.getsignal(signal.SIGINT)
    if before != signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.fixture(scope="session")
def calibrated_once(trained_model, tmp_path_factory):
    """A copy of the tiny model that ``attnmt calibrate --src --ref`` (its default options) calibrated on
    calibration_pairs(), and that run's exit status and stdout: one run for the tests that need a model so
    calibrated or read that run (it takes 6-10 CPU seconds), which each get a copy of it (``calibrated``)."""
    from attnmt.cli.main import main

    folder = tmp_path_factory.mktemp("calibrated")
    model = shutil.copytree(trained_model, folder / "model")
    src, ref = write_pairs(folder, "valid", calibration_pairs())
    with redirect_stdout(io.StringIO()) as out, redirect_stderr(io.StringIO()):
        code = main([str(a) for a in ["calibrate", "--model", model, "--src", src, "--ref", ref]])
    return model, code, out.getvalue()


@pytest.fixture
def calibrated(calibrated_once, tmp_path):
    """``calibrated_once``'s (model directory, exit status, stdout), the model copied for this test to write into."""
    model, code, out = calibrated_once
    return shutil.copytree(model, tmp_path / "calibrated"), code, out
