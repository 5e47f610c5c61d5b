"""Fixtures of the app tests: a headless Chromium that Playwright drives (the browser tests), a spy on
the sentences that reach the model (the paragraph tests), and the in-process server's limits (the
serve tests)."""

import importlib

import pytest
from support import CHROMIUM, CHROMIUM_ARGS

inputs_module = importlib.import_module("attnmt.decoding.inputs")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (.[dev])")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def serve_settings():
    """Limits small enough for a test to reach each of them (test_serve, test_serve_hosts)."""
    from attnmt.server.app import ServeSettings

    return ServeSettings(max_texts=4, max_chars=120, max_attention_texts=2, max_attention_weights=10_000,
                         max_glossary_terms=3, max_body_bytes=10_000)


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
