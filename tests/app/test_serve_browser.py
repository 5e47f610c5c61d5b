"""The web page in a real browser: `attnmt serve` on loopback, headless Chromium driven by Playwright."""

import numpy as np
import pytest
from PIL import Image
from support import NEEDS_CHROMIUM, open_page, running_server

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (.[dev])")
pytestmark = NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def server_url(trained_model):
    with running_server(trained_model) as (_, url, _):
        yield url


@pytest.fixture
def page(browser, server_url):
    """A fresh page on the server (support.open_page)."""
    page = open_page(browser, server_url, viewport={"width": 900, "height": 700})
    yield page
    page.close()


def shows_translation(page, text: str) -> None:
    """Waits until the page has finished translating (streamed, then scored) and shows ``text``."""
    sync_api.expect(page.locator("body")).to_have_attribute("data-state", "done", timeout=30_000)
    sync_api.expect(page.locator("#translation")).to_have_text(text)


def test_typing_a_sentence_and_clicking_translate_shows_translation_and_attention(page, server_url):
    page.fill("#source", "a man rides a bike")
    page.click("#translate")
    shows_translation(page, "ein mann fährt ein fahrrad")
    sync_api.expect(page.locator("#attention")).to_be_visible()
    # It opens on the last layer's cross-attention, every head overlaid as lines.
    assert page.locator("body").get_attribute("data-view") == "mode=lines&kind=cross&layer=1&head=all"
    source_tokens = page.locator("svg#view g.token.col text").all_text_contents()
    assert "".join(source_tokens).replace("▁", " ").strip() == "a man rides a bike</s>"  # as the encoder reads it
    assert page.locator("svg#view g.token.row text").last.text_content() == "</s>"
    assert page.locator("svg#view line").count() > 0
    assert page.locator("#legend span").count() == 4  # every head of the tiny model, overlaid
    assert all(url.startswith(server_url) for url in page.requested), page.requested  # nothing off the server
    # The translation arrived as it grew (beam 4, 5 words: at least 5 steps) before the scored one.
    assert server_url + "translate/stream" in page.requested
    assert int(page.locator("#translation").get_attribute("data-partials")) >= 5
    assert page.blocked == []  # its Content-Security-Policy lets its own script and style run


def test_choosing_a_layer_and_head_redraws_the_view(page, tmp_path):
    page.fill("#source", "a dog runs")
    page.click("#translate")
    shows_translation(page, "ein hund rennt")
    shots = []
    for head in ("0", "3"):
        page.select_option("#layer", "1")
        page.select_option("#head", head)
        assert page.locator("body").get_attribute("data-view") == f"mode=lines&kind=cross&layer=1&head={head}"
        assert page.locator("#legend span").all_text_contents() == [f"head {head}"]
        page.locator("svg#view").screenshot(path=tmp_path / f"head{head}.png")
        shots.append(np.asarray(Image.open(tmp_path / f"head{head}.png").convert("RGB")).astype(int))
    assert (shots[0].sum(axis=2) < 600).mean() > 0.005, "the attention view is blank"
    assert (np.abs(shots[0] - shots[1]).sum(axis=2) > 60).mean() > 0.002, "head 0 and head 3 look the same"


def test_the_translation_is_shaded_by_confidence_and_the_alternatives_are_listed(page, tmp_path):
    page.fill("#source", "a dog runs")
    page.click("#translate")
    shows_translation(page, "ein hund rennt")
    pieces = page.locator("#translation span")
    assert pieces.count() >= 3
    assert all(0.8 < float(p) <= 1.0 for p in pieces.evaluate_all("spans => spans.map(s => s.dataset.p)"))
    alternatives = page.locator("#alternatives li")
    assert alternatives.count() == 2  # beam 4: the best and two more (n_best 3)
    assert all("score -" in text for text in alternatives.all_text_contents())
    page.locator("#translation").screenshot(path=tmp_path / "translation.png")


def test_the_alternatives_of_a_text_of_lines_keep_its_lines_as_the_translation_does(page):
    page.fill("#source", "a dog runs\na cat sleeps")
    page.click("#translate")
    sync_api.expect(page.locator("body")).to_have_attribute("data-state", "done", timeout=30_000)
    assert "\n" in page.locator("#translation").inner_text()
    shown = page.locator("#alternatives li").all_inner_texts()  # as rendered: a line break not kept reads as " "
    assert shown and all("\n" in alternative for alternative in shown), shown


@pytest.mark.parametrize(("source", "kept"), [
    ("a dog runs\na cat sleeps", "\n"),  # were shown plain: a line break,
    ("a dog runs. 12345", "12345"),  # text passed through untranslated
])
def test_a_text_of_lines_or_with_untranslated_parts_is_shaded_around_them(page, source, kept):
    page.fill("#source", source)
    page.click("#translate")
    sync_api.expect(page.locator("body")).to_have_attribute("data-state", "done", timeout=30_000)
    shown = page.locator("#translation").text_content()
    spans = page.locator("#translation span")
    shaded = "".join(spans.all_text_contents())
    assert kept in shown and kept not in shaded and spans.count() >= 3
    assert "ein hund rennt" in shaded and not shaded.startswith(" ")


def test_a_paragraph_is_translated_whole_and_its_attention_shown_sentence_by_sentence(page):
    page.fill("#source", "a dog runs. a cat sleeps.")
    page.click("#translate")
    shows_translation(page, "ein hund rennt eine katze schläft")  # both sentences, joined
    sync_api.expect(page.locator("#sentence-choice")).to_be_visible()
    assert page.locator("#sentence option").all_text_contents() == ["1. a dog runs.", "2. a cat sleeps."]
    page.select_option("#sentence", "1")
    source_tokens = page.locator("svg#view g.token.col text").all_text_contents()
    assert "".join(source_tokens).replace("▁", " ").strip().startswith("a cat sleeps")


def test_the_overview_shows_every_layer_and_head_and_a_click_opens_one(page, tmp_path):
    page.fill("#source", "two men walk")
    page.click("#translate")
    shows_translation(page, "zwei männer gehen")
    page.select_option("#mode", "overview")
    assert page.locator("svg#view g.thumb").count() == 2 * 4  # 2 layers × 4 heads
    page.locator("svg#view").screenshot(path=tmp_path / "overview.png")
    shot = np.asarray(Image.open(tmp_path / "overview.png").convert("RGB")).astype(int)
    assert (shot.sum(axis=2) < 600).mean() > 0.005, "the overview is blank"
    page.locator('svg#view g.thumb[data-layer="0"][data-head="2"]').click()
    assert page.locator("body").get_attribute("data-view") == "mode=matrix&kind=cross&layer=0&head=2"
    rows = page.locator("svg#view text.token.row").count()
    cols = page.locator("svg#view text.token.col").count()
    assert page.locator("svg#view rect.cell").count() == rows * cols > 0


def test_a_second_translation_replaces_the_first_and_keeps_the_view(page):
    page.fill("#source", "a dog runs")
    page.click("#translate")
    shows_translation(page, "ein hund rennt")
    page.select_option("#kind", "encoder")
    page.fill("#source", "the boy laughs")
    page.keyboard.press("Control+Enter")
    shows_translation(page, "der junge lacht")
    assert page.locator("#kind").input_value() == "encoder"
    tokens = page.locator("svg#view g.token.row text").all_text_contents()
    assert "".join(tokens).replace("▁", " ").strip() == "the boy laughs</s>"  # encoder rows: the new source


def test_a_kind_the_data_lacks_in_the_address_leaves_the_view_working(page):
    page.fill("#source", "a dog runs")
    page.click("#translate")
    shows_translation(page, "ein hund rennt")
    page.evaluate("location.hash = '#kind=constructor&layer=0'")  # blanked the view, before: no weights
    sync_api.expect(page.locator("body")).to_have_attribute("data-view", "mode=lines&kind=cross&layer=0&head=all")
    assert page.locator("#kind").input_value() == "cross" and page.locator("svg#view line").count() > 0


def test_an_empty_text_shows_the_servers_message(page):
    page.fill("#source", "   ")
    page.click("#translate")
    sync_api.expect(page.locator("#error")).to_have_text("text is empty: give a sentence to translate")
    assert page.locator("#attention").is_hidden()


@pytest.mark.parametrize("empty", ["   ", "\n\t "])
def test_an_error_after_a_translation_clears_the_translation_and_all_it_showed(page, empty):
    page.fill("#source", "a dog runs")
    page.click("#translate")
    shows_translation(page, "ein hund rennt")
    page.fill("#source", empty)
    page.click("#translate")
    sync_api.expect(page.locator("body")).to_have_attribute("data-state", "error", timeout=30_000)
    assert page.locator("#error").text_content()  # the server's message, alone: the old translation stayed
    assert page.locator("#translation").text_content() == page.locator("#quality").text_content() == ""
    assert page.locator("#alternatives li").count() == 0 and page.locator("#attention").is_hidden()


def test_a_text_whose_attention_is_over_the_servers_limit_is_shown_without_it(page):
    """The server refuses return_attention for one sentence of ~1,000 characters on a base-sized
    model (2,088,804 weights, over max_attention_weights: the tiny model never reaches it, so a
    stand-in answers that refusal), though it translates it: the page asks again without, and says
    why there is no viewer.  It showed the refusal, with no confidences, quality or alternatives."""
    asked = []

    def over_the_limit(route):
        asked.append(route.request.post_data_json["return_attention"])
        if asked[-1]:
            route.fulfill(status=413, content_type="application/json", json={
                "detail": "return_attention could send 2,088,804 attention weights (…); at most 2,000,000 a request"})
        else:
            route.continue_()

    page.route("**/v1/translate", over_the_limit)
    page.fill("#source", "a dog runs")
    page.click("#translate")
    shows_translation(page, "ein hund rennt")
    assert asked == [True, False] and page.locator("#error").text_content() == ""
    assert page.locator("#translation span").count() >= 3 and page.locator("#alternatives li").count() == 2
    assert page.locator("#quality").text_content().startswith("quality ")
    assert page.locator("#attention").is_hidden()
    sync_api.expect(page.locator("#attention-note")).to_have_text(
        "The attention is not shown: this text is too long for the server to send it.")
    page.unroute("**/v1/translate")
    page.click("#translate")  # within the limit again: the viewer, and no note
    sync_api.expect(page.locator("#attention")).to_be_visible(timeout=30_000)
    assert page.locator("#attention-note").text_content() == ""


def test_the_page_loads_with_no_error_in_the_console(browser, server_url):
    """It had a 404 each time: the browser asks for /favicon.ico where a page names no icon."""
    page, errors = browser.new_page(), []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    try:
        page.goto(server_url)
        page.wait_for_load_state("networkidle")
    finally:
        page.close()
    assert errors == []


def test_with_api_keys_the_page_sends_the_key_of_its_address(browser, trained_model, tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text("page-key\n", encoding="utf-8")
    with running_server(trained_model, "--api-keys", str(keys)) as (_, url, _):
        page = browser.new_page()
        try:
            page.goto(url)  # no key: the server's answer is shown
            page.fill("#source", "a dog runs")
            page.click("#translate")
            sync_api.expect(page.locator("#error")).to_have_text(
                "Please contact the server operator to get an API key", timeout=30_000)
            page.goto(url + "?api_key=page-key")
            page.fill("#source", "a dog runs")
            page.click("#translate")
            shows_translation(page, "ein hund rennt")
            assert int(page.locator("#translation").get_attribute("data-partials")) >= 3  # streamed with the key
        finally:
            page.close()


def test_a_glossary_in_the_box_puts_its_term_into_the_translation_and_outlines_it(page):
    page.fill("#source", "a dog runs")
    page.click("#glossary-box summary")
    page.fill("#glossary", "dog = katze\nnot a term line")
    page.click("#translate")
    sync_api.expect(page.locator("#translation span.term")).not_to_have_count(0, timeout=30_000)
    assert "katze" in page.locator("#translation").text_content().split()
    assert "".join(page.locator("#translation span.term").all_text_contents()).strip() == "katze"


def test_each_streamed_event_replaces_the_text_shown_and_the_stream_has_the_chosen_beam(page):
    # A beam search's best hypothesis may be rewritten from one step to the next: the page shows
    # each event's text in place of the last.  The scored request fails here, so the stream's stays.
    streamed = []

    def scripted_stream(route):
        streamed.append(route.request.post_data_json)
        events = [("partial", "ein hund"), ("partial", "zwei hunde"), ("done", "zwei hunde rennen")]
        route.fulfill(status=200, content_type="text/event-stream",
                      body="".join(f'event: {name}\ndata: {{"translatedText": "{text}"}}\n\n' for name, text in events))

    page.route("**/translate/stream", scripted_stream)
    page.route("**/v1/translate", lambda route: route.abort())
    page.fill("#source", "two dogs run")
    page.select_option("#beam", "8")
    page.click("#translate")
    sync_api.expect(page.locator("body")).to_have_attribute("data-state", "error", timeout=30_000)
    assert streamed == [{"q": "two dogs run", "beam": 8}]
    assert page.locator("#translation").text_content() == "zwei hunde rennen"
    assert page.locator("#translation").get_attribute("data-partials") == "2"
    assert page.locator("#translation").get_attribute("class") == ""


def test_a_sentence_that_needs_review_is_underlined_with_its_flags(page):
    page.fill("#source", "a dog runs")
    page.click("#translate")
    shows_translation(page, "ein hund rennt")
    assert page.locator("#translation span.review").count() == 0
    assert page.locator("#quality").text_content().startswith("quality ")
    assert "needs review" not in page.locator("#quality").text_content()
    page.fill("#source", "zebra quantum xylophone")  # words the tiny model never saw: unknown pieces
    page.click("#translate")
    sync_api.expect(page.locator("#quality")).to_contain_text("needs review: ", timeout=30_000)
    spans = page.locator("#translation span")
    assert spans.count() > 0 and page.locator("#translation span.review").count() == spans.count()
    assert "unknown" in page.locator("#translation span.review").first.get_attribute("title")
