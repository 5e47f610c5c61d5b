"""A saved web page translated by ``attnmt translate --input-format html``, then shown in headless Chromium
(Playwright): the same element tree, its text translated, its script still running."""

from pathlib import Path

import pytest
from support import NEEDS_CHROMIUM

from attnmt.cli.main import main

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (.[dev])")
pytestmark = NEEDS_CHROMIUM
PAGE = Path(__file__).parents[1] / "fixtures" / "documents" / "page.html"

# Every element as the path of tags from <html> down to it, and the visible text of some of them.
SHAPE = """() => {
  const path = e => e.parentElement ? path(e.parentElement) + '/' + e.tagName : e.tagName;
  return Array.from(document.querySelectorAll('*')).map(path).sort();
}"""
TEXTS = """() => ({
  title: document.title, h1: document.querySelector('h1').innerText, code: document.querySelector('code').innerText,
  pre: document.querySelector('pre').textContent, keep: document.querySelector('[translate=no]').innerText,
  script: document.getElementById('from-script').innerText, lang: document.documentElement.lang,
  alt: document.querySelector('img').alt, altLang: document.querySelector('img').lang,
  li: document.querySelector('li li').innerText,
})"""


def rendered(browser, html: str) -> tuple[list[str], dict]:
    page = browser.new_page()
    page.set_content(html)
    shape, texts = page.evaluate(SHAPE), page.evaluate(TEXTS)
    page.close()
    return shape, texts


def test_a_translated_page_renders_with_the_same_structure_and_translated_text(browser, trained_model, tmp_path):
    output = tmp_path / "page.de.html"
    assert main(["translate", "--model", str(trained_model), "--input-format", "html", "--target-lang", "de",
                 str(PAGE), str(output)]) == 0
    shape, before = rendered(browser, PAGE.read_text(encoding="utf-8"))
    translated_shape, after = rendered(browser, output.read_text(encoding="utf-8"))
    assert translated_shape == shape
    for kept in ("code", "pre", "keep", "script"):
        assert after[kept] == before[kept], kept
    assert after["script"] == "script ran" and after["lang"] == "de"
    for translated in ("title", "h1", "li"):
        assert after[translated] != before[translated], translated
    # The alt text is a short label: where the model's translation of it reads as garbled, it keeps its source, its
    # language said (the tiny model trained with PyTorch's generic kernels on an AMD EPYC wrote "zwei hunde rennen").
    assert after["alt"] != before["alt"] or (after["alt"], after["altLang"]) == (before["alt"], "en"), after["alt"]
