"""The page's file box in a real browser: `attnmt serve` on loopback, headless Chromium driven by
Playwright; a file dropped or chosen, its progress bar, and its translation downloaded."""

import pytest
from support import NEEDS_CHROMIUM, PAIRS, UNKNOWN, known_apart, open_page, running_server

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (.[dev])")
pytestmark = NEEDS_CHROMIUM

TEXT = "".join(f"{source}\n" for source, _ in PAIRS[:5])
TRANSLATED = "".join(f"{target}\n" for _, target in PAIRS[:5])


@pytest.fixture(scope="module")
def server_url(trained_model):
    with running_server(trained_model, "--max-file-bytes", "5000", pair="en-de") as (_, url, _):
        yield url


@pytest.fixture
def page(browser, server_url):
    """A fresh page on the server that may download (support.open_page)."""
    page = open_page(browser, server_url, accept_downloads=True)
    yield page
    page.close()


def drop_file(page, name: str, text: str) -> None:
    """Drops a file on the page's drop zone, as a person dragging it from their desktop does."""
    transfer = page.evaluate_handle("""([name, text]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], name, { type: "text/plain" }));
        return transfer;
    }""", [name, text])
    page.dispatch_event("#drop", "drop", {"dataTransfer": transfer})


def downloaded(page, tmp_path) -> tuple[str, str]:
    """(the name, the text) of the file the page's download link gives."""
    with page.expect_download() as download:
        page.click("#file-download")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    return download.value.suggested_filename, path.read_text(encoding="utf-8")


def test_a_dropped_file_shows_its_progress_and_downloads_translated(page, server_url, tmp_path):
    drop_file(page, "pairs.txt", TEXT)
    sync_api.expect(page.locator("body")).to_have_attribute("data-file-state", "done", timeout=30_000)
    bar = page.locator("#file-progress")
    assert bar.get_attribute("max") == "5" and bar.evaluate("bar => bar.value") == 5
    sync_api.expect(page.locator("#file-status")).to_have_text("5 of 5")
    sync_api.expect(page.locator("#file-review-count")).to_have_text("0 of 5 sentences need review (0 with quality "
                                                                      "under 0.5 or empty, 0 flagged by a rule alone)")
    assert page.locator("#file-review-download").is_hidden()
    assert page.locator("#file-warnings").is_hidden()  # nothing warned of
    assert downloaded(page, tmp_path) == ("pairs.de.txt", TRANSLATED)
    assert any("/events" in url for url in page.requested)
    assert all(url.startswith(server_url) for url in page.requested), page.requested
    assert page.blocked == []


def test_the_sentences_under_the_pages_min_quality_are_counted_and_their_table_downloads(browser, server_url,
                                                                                        trained_model, tmp_path):
    threshold = known_apart(str(trained_model))  # the memorising model: surer of "a dog runs" than of UNKNOWN
    page = open_page(browser, f"{server_url}?min_quality={threshold}", accept_downloads=True)
    drop_file(page, "notes.txt", f"a dog runs\n\n{UNKNOWN}\n")
    sync_api.expect(page.locator("body")).to_have_attribute("data-file-state", "done", timeout=30_000)
    sync_api.expect(page.locator("#file-review-count")).to_have_text(f"1 of 2 sentences need review (1 with quality "
                                                                      f"under {threshold:g} or empty, 0 flagged by a "
                                                                      "rule alone)")
    assert page.locator("#file-review-count").get_attribute("title").startswith("the model has no quality calibration")
    with page.expect_download() as download:
        page.click("#file-review-download")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    header, row = path.read_text(encoding="utf-8").splitlines()
    assert path.name == "notes.de.review.tsv" and header == "line\tquality\tflags\tsource\ttranslation"
    assert row.startswith("3\t") and f"\t{UNKNOWN}\t" in row
    page.close()


def test_a_file_left_untranslated_says_so_and_shows_the_servers_warnings_as_text(page):
    # A block without a timing line is no cue: nothing is translated ("0 of 0"), and the reader's
    # warning, which names the file, reaches the page as text (the name's <b> is not markup).
    name = "<b>untimed</b>.srt"
    page.set_input_files("#file", files=[{"name": name, "mimeType": "text/plain", "buffer": b"1\nA dog runs.\n"}])
    sync_api.expect(page.locator("body")).to_have_attribute("data-file-state", "done", timeout=30_000)
    items = page.locator("#file-warnings li")
    sync_api.expect(items).to_have_count(2)
    assert items.nth(0).text_content().startswith("Nothing in this file was translated")
    assert items.nth(1).text_content() == (f"{name}, line 1: a block without a timing line (00:00:01,000 --> "
                                           "00:00:02,500) is not a cue, so it is left untranslated (if it goes on "
                                           "with the cue before it, take out the blank line)")
    assert page.locator("#file-warnings b").count() == 0
    assert page.locator("#file-download").is_visible()


def test_a_chosen_subtitle_file_downloads_with_its_timings(page, tmp_path):
    srt = "1\n00:00:01,000 --> 00:00:02,000\na bird sings\n"
    page.set_input_files("#file", files=[{"name": "film.srt", "mimeType": "text/plain", "buffer": srt.encode()}])
    sync_api.expect(page.locator("body")).to_have_attribute("data-file-state", "done", timeout=30_000)
    assert downloaded(page, tmp_path) == ("film.de.srt", "1\n00:00:01,000 --> 00:00:02,000\nein vogel singt\n")


@pytest.mark.parametrize("name, data, message", [
    ("program.exe", b"MZ", "program.exe: the extension .exe is not a format attnmt translates"),
    ("big.txt", b"a" * 5001, "big.txt: the file is over 5,000 bytes, the most this server translates"),
    ("latin.txt", b"caf\xe9", "latin.txt, line 1: the text is not UTF-8 (byte 0xe9)"),
])
def test_a_file_the_server_refuses_shows_why(page, name, data, message):
    page.set_input_files("#file", files=[{"name": name, "mimeType": "text/plain", "buffer": data}])
    sync_api.expect(page.locator("body")).to_have_attribute("data-file-state", "error", timeout=30_000)
    sync_api.expect(page.locator("#file-error")).to_contain_text(message)
    assert page.locator("#file-download").is_hidden()
