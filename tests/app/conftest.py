"""Fixtures of the app tests: a headless Chromium that Playwright drives (the browser tests), and a spy on
the sentences that reach the model (the paragraph tests)."""

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
