"""Fixtures of the app tests: a headless Chromium that Playwright drives (the browser tests)."""

import pytest
from support import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (.[dev])")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
