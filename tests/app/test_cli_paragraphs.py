"""``attnmt translate`` splits a plain-text line into sentences in every mode, as the server
splits a text (attnmt.documents.paragraphs; docs/documents.md): n-best, alignments, confidence,
glossary and prefix answer what the server answers for the same text."""

import json

import pytest
from support import run_cli

import attnmt.decoding.quality as quality_module
from attnmt.checkpoint import load_model_dir
from attnmt.cli.lines import ANY_LINE_BREAK
from attnmt.decoding.quality import Assessment
from attnmt.decoding.translate import translate
from attnmt.inspect.align import align, pharaoh

FIRST, SECOND = "a dog runs.", "a cat sleeps."
PARAGRAPH = f"{FIRST} {SECOND}"  # the tiny model, given it whole, stops after one sentence's worth


def translate_paragraph(trained_model, tmp_path, capsys, *options) -> tuple[int, str]:
    """``attnmt translate`` of a blank line and PARAGRAPH: (exit status, stdout)."""
    source = tmp_path / "in.txt"
    source.write_text(f"\n{PARAGRAPH}\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, *options, source], capsys)
    return code, out


def served(client, **request) -> dict:
    return client.post("/v1/translate", json={"text": PARAGRAPH, **request}).json()


def jsonl_hypotheses(out: str) -> list[dict]:
    blank, paragraph = (json.loads(line) for line in out.splitlines())
    assert blank == {"line": 1, "hypotheses": []}
    return paragraph["hypotheses"]


def rounded(hypotheses: list[dict]) -> list[dict]:
    """The hypotheses with their score and log_prob within 2e-3 of each other's: the two batches round
    differently on some CPUs (-15.1085 once written -15.109 by one, -15.108 by the other, on a Zen 4 EPYC)."""
    return [{**h, "score": pytest.approx(h["score"], abs=2e-3), "log_prob": pytest.approx(h["log_prob"], abs=2e-3)}
            for h in hypotheses]


@pytest.mark.parametrize("guide", [["--glossary", "terms.tsv"], ["--prefix", "zwei"]], ids=["glossary", "prefix"])
def test_a_guided_line_is_translated_sentence_by_sentence_as_the_server_does(trained_model, tmp_path, capsys,
                                                                             client, reached, guide):
    (tmp_path / "terms.tsv").write_text("dog\thund\n", encoding="utf-8")
    guide = [str(tmp_path / g) if g == "terms.tsv" else g for g in guide]
    request = {"glossary": {"dog": "hund"}} if guide[0] == "--glossary" else {"prefix": "zwei"}
    [answer] = served(client, **request)["translations"]
    reached.clear()
    code, out = translate_paragraph(trained_model, tmp_path, capsys, *guide)
    assert code == 0 and reached == [FIRST, SECOND]
    assert out == f"\n{answer}\n"


def test_a_lines_alignment_numbers_the_second_sentences_words_after_the_firsts(trained_model, tmp_path, capsys,
                                                                             client, reached):
    [[answer]] = served(client, return_alignments=True, n_best=1)["hypotheses"]
    reached.clear()
    code, out = translate_paragraph(trained_model, tmp_path, capsys, "--alignments")
    assert code == 0 and reached == [FIRST, SECOND]
    assert out == f" ||| \n{answer['text']} ||| {answer['alignment']}\n"


def test_the_alignment_layer_and_heads_align_each_sentence(trained_model, tmp_path, capsys):
    code, out = translate_paragraph(trained_model, tmp_path, capsys, "--alignments", "--alignment-layer", "0",
                                    "--alignment-heads", "1")
    model = load_model_dir(trained_model)
    translations = translate(*model, [FIRST, SECOND])
    first, second = align(*model, [FIRST, SECOND], translations, layer=0, heads=[1])
    words_before = (len(FIRST.split()), len(translations[0].split()))
    pairs = first + [(s + words_before[0], t + words_before[1]) for s, t in second]
    assert code == 0 and out == f" ||| \n{' '.join(translations)} ||| {pharaoh(pairs)}\n"


def test_a_lines_hypotheses_join_its_sentences_as_the_servers_do(trained_model, tmp_path, capsys, client, reached):
    [answer] = served(client, n_best=2, return_alignments=True, return_confidence=True)["hypotheses"]
    reached.clear()
    code, out = translate_paragraph(trained_model, tmp_path, capsys, "--n-best", "2", "--output-format", "jsonl",
                                    "--alignments", "--confidence")
    assert code == 0 and reached == [FIRST, SECOND]
    assert jsonl_hypotheses(out) == rounded(answer)


def test_a_lines_tsv_rows_are_its_joined_hypotheses(trained_model, tmp_path, capsys, client):
    [answer] = served(client, n_best=2)["hypotheses"]
    code, out = translate_paragraph(trained_model, tmp_path, capsys, "--n-best", "2", "--output-format", "tsv")
    rows = [row.split("\t") for row in out.splitlines()]
    assert code == 0 and [row[:2] for row in rows] == [["2", "1"], ["2", "2"]]
    assert [row[4] for row in rows] == [hypothesis["text"] for hypothesis in answer]
    assert [float(row[2]) for row in rows] == pytest.approx([h["score"] for h in answer], abs=1e-3)


def test_no_split_still_translates_the_line_whole(trained_model, tmp_path, capsys, reached):
    code, _ = translate_paragraph(trained_model, tmp_path, capsys, "--no-split", "--prefix", "zwei")
    assert code == 0 and [sentence for sentence in reached if sentence] == [PARAGRAPH]


LETTERLESS = ["123", "!!!", "   ", "", FIRST]  # numbers, punctuation, spaces alone, a blank line, then words
PASSED_THROUGH = (  # how each output of the test below starts: the lines as they were, score 0, quality 1
    "123 ||| \n!!! ||| \n    ||| \n ||| \n", "123\n!!!\n   \n\n", "1\t1\t0.0000\t0.0000\t123\t\t1.0000\t-\n",
    '{"line": 1, "hypotheses": [{"text": "123", "score": 0, "log_prob": 0, "alignment": "", "confidence": [], '
    '"quality": 1.0, "flags": [], "calibrated": ')


@pytest.mark.parametrize("options", [["--alignments"], ["--min-quality", "1", "--below-quality", "mark"],
                                     ["--alignments", "--output-format", "tsv"],
                                     ["--alignments", "--confidence", "--n-best", "2", "--output-format", "jsonl"]],
                         ids=["text", "text-quality", "tsv", "jsonl"])
def test_a_jsonl_text_without_letters_comes_out_as_a_text_line_does(trained_model, tmp_path, capsys, reached,
                                                                    options):
    expected, code, out = as_text_and_as_jsonl(trained_model, tmp_path, capsys, reached, LETTERLESS, options)
    assert code == 0 and [sentence for sentence in reached if sentence] == [FIRST]
    assert out == expected and out.startswith(PASSED_THROUGH)


def test_a_line_of_one_letter_passes_through_as_text_and_as_jsonl(trained_model, tmp_path, capsys, reached):
    """Text and JSONL lines of one letter went to the model, which made up a sentence ("A" came out
    "Ein Mann befindet sich."); a document keeps such a text as written, and so do they now: score
    0, quality 1 and no flags, as a line without letters gets."""
    lines = ["A", "(b)", "I", FIRST]
    expected, code, out = as_text_and_as_jsonl(trained_model, tmp_path, capsys, reached, lines,
                                               ["--output-format", "jsonl", "--min-quality", "1"])
    assert code == 0 and [sentence for sentence in reached if sentence] == [FIRST] and out == expected
    records = [json.loads(line)["hypotheses"][0] for line in out.splitlines()]
    assert [r["text"] for r in records[:3]] == ["A", "(b)", "I"]
    assert all(r["score"] == 0 and r["quality"] == 1 and r["flags"] == [] for r in records[:3])


@pytest.mark.parametrize("request_body", [{"text": "A"}, {"text": "A", "n_best": 2, "return_quality": True},
                                          {"q": "A", "source": "en", "target": "de"}],
                         ids=["text", "n-best", "libretranslate"])
@pytest.mark.parametrize("path", ["/v1/translate", "/translate"])
def test_the_server_keeps_a_text_of_one_letter_as_written(client, reached, path, request_body):
    if "q" in request_body and path == "/v1/translate":
        pytest.skip("LibreTranslate's fields are /translate's")
    answer = client.post(path, json=request_body)
    body = answer.json()
    assert answer.status_code == 200 and reached == []
    assert body.get("translations", [body.get("translatedText")])[0] == "A"


@pytest.mark.parametrize("options", [[], ["--alignments"], ["--min-quality", "1", "--below-quality", "source"]],
                         ids=["text", "alignments", "below-quality-source"])
def test_a_jsonl_texts_line_breaks_never_add_output_lines(trained_model, tmp_path, capsys, options):
    """Text output writes a line break in a JSONL text as a space, between the translations of the
    parts it parts (attnmt.cli.jsonl_breaks), and where the text is passed through (no letters) or
    kept as the source: "12\\n34" was written as two lines, and every line after it was one off.
    Every break str.splitlines knows: a lone CR or a U+2028 was written as it was, a line more for
    Python's readlines."""
    jsonl = tmp_path / "in.jsonl"
    texts = [FIRST, "12\n34", "\n", "1\r\n2", f"{FIRST}\n{FIRST}", "1\r2", "1\u20282\u20293\x854\v5\f6\x1c7"]
    jsonl.write_text("".join(json.dumps({"text": text}) + "\n" for text in texts), encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, "--input-format", "jsonl", *options, jsonl], capsys)
    lines = [line.split(" ||| ")[0] for line in out.splitlines()]
    assert code == 0 and len(lines) == len(texts) and lines[1:4] == ["12 34", " ", "1 2"]
    assert lines[4] == f"{lines[0]} {lines[0]}"
    assert lines[5:] == ["1 2", "1 2 3 4 5 6 7"]


def test_any_line_break_is_every_break_str_splitlines_knows():
    breaks = {chr(c) for c in range(0x110000) if len(f"a{chr(c)}b".splitlines()) == 2}
    assert {chr(c) for c in range(0x110000) if ANY_LINE_BREAK.fullmatch(chr(c))} == breaks
    assert ANY_LINE_BREAK.sub(" ", "1\r\n2") == "1 2"  # CRLF: one break, as splitlines reads it


def test_alignments_leave_a_no_split_lines_translation_as_it_is(trained_model, tmp_path, capsys, reached):
    source = tmp_path / "in.txt"
    source.write_text(f"123\n{FIRST}\t{SECOND}\n", encoding="utf-8")  # a tab parts fields, translated apart
    _, plain, _ = run_cli(["translate", "--model", trained_model, "--no-split", source], capsys)
    reached.clear()
    code, aligned, _ = run_cli(["translate", "--model", trained_model, "--no-split", "--alignments", source], capsys)
    assert code == 0 and [sentence for sentence in reached if sentence] == [FIRST, SECOND]
    assert [line.split(" ||| ")[0] for line in aligned.splitlines()] == plain.splitlines()
    assert aligned.splitlines()[0] == "123 ||| "


SYMBOLS = ["a dog 🐕 runs.", "» a cat sleeps | →"]  # what the tiny model's vocabulary cannot write: emoji, signs


@pytest.mark.parametrize("options", [[], ["--alignments"], ["--min-quality", "1", "--below-quality", "mark"],
                                     ["--alignments", "--n-best", "2", "--output-format", "tsv"],
                                     ["--alignments", "--confidence", "--n-best", "2", "--output-format", "jsonl"]],
                         ids=["text", "alignments", "text-quality", "tsv", "jsonl"])
def test_a_jsonl_text_keeps_the_symbols_its_vocabulary_cannot_write_as_a_text_line_does(trained_model, tmp_path,
                                                                                       capsys, reached, options):
    """The model read "a dog 🐕 runs." whole, "🐕" as an unknown piece, and wrote no "🐕": the JSONL
    line came back without it (and without "»", "|", "→"), where a text line of one sentence keeps
    each where its neighbours' words went (attnmt.documents.symbols).  Every output field is the
    text line's: its alignment numbers the words of the line and of the translation written, the
    symbols' too, aligned to none; its confidence and scores are those of what the model wrote."""
    expected, code, out = as_text_and_as_jsonl(trained_model, tmp_path, capsys, reached, SYMBOLS, options)
    assert code == 0 and out == expected
    assert [sentence for sentence in reached if sentence] == [FIRST, "a cat sleeps"]  # no symbol reaches the model
    assert all(symbol in out for symbol in "🐕»|→")


CODED = ["a \x1b[31mdog\x1b[0m runs.", "\x1b[1mwarning:\x1b[0m a cat sleeps.", "a cat sleeps \x1b[K",
         "a dog\x00 runs\x07.", "\x1b[32m42\x1b[0m"]  # the last no text: a code's "m" is no letter


@pytest.mark.parametrize("options", [[], ["--alignments", "--n-best", "2", "--output-format", "jsonl"]],
                         ids=["text", "jsonl"])
def test_a_jsonl_text_keeps_a_terminal_s_codes_around_their_words_as_a_text_line_does(trained_model, tmp_path,
                                                                                     capsys, reached, options):
    """The model read "\x1b[31m" as words, and a line's first ESC, left out as a control at its edge, as
    "[1mwarning:": the JSONL line came back without its colours, where a text line's wrap their words; a NUL
    and a bell, which the model reads as no piece, were lost from both; a text of codes and no words ("42" in a
    colour) was given to the model, the code's "m" taken for a letter, and got its scores and quality."""
    expected, code, out = as_text_and_as_jsonl(trained_model, tmp_path, capsys, reached, CODED, options)
    assert code == 0 and out == expected
    assert [sentence for sentence in reached if sentence] == ["a dog runs.", "warning: a cat sleeps.", "a cat sleeps",
                                                                 "a dog runs"]
    assert out.count("\\u001b" if options else "\x1b") == (12 if options else 7)  # 5 codes a hypothesis, 2 passed
    controls = ("\\u0000", "\\u0007") if options else ("\x00", "\x07")
    assert [out.count(control) for control in controls] == ([2, 2] if options else [1, 1])


SOFT_HYPHENED = ["a d\u00adog runs.", "\x1b[1ma cat sle\u00adeps\x1b[0m"]  # a page's hyphenation points, copied


def test_a_jsonl_text_is_read_without_its_soft_hyphens_as_a_text_line_is(trained_model, tmp_path, capsys, reached):
    """The model read a soft hyphen in a JSONL text as an unknown piece in the middle of its word ("play\u00ading
    the gui\u00adtar" came back "Ausspprüssssen" from the demo model), where a text line drops it."""
    expected, code, out = as_text_and_as_jsonl(trained_model, tmp_path, capsys, reached, SOFT_HYPHENED, [])
    assert code == 0 and out == expected
    assert [sentence for sentence in reached if sentence] == ["a dog runs.", "a cat sleeps"]


def test_a_jsonl_text_keeps_its_list_mark_as_a_text_line_does(trained_model, tmp_path, capsys, reached):
    """The model read "- " and "1)" as words and dropped them from a JSONL text (translate's quality 0.8975 and
    "untranslated" for the demo model's "- A dog runs in the park.", where score, reading the line as a text
    line, gave 0.9826 and no flag)."""
    expected, code, out = as_text_and_as_jsonl(trained_model, tmp_path, capsys, reached, ["- a dog runs.",
                                                                                          "1) a cat sleeps"], [])
    assert code == 0 and out == expected and out.startswith("- ") and "\n1) " in out
    assert [sentence for sentence in reached if sentence] == ["a dog runs.", "a cat sleeps"]


RLI, PDI = "\u2067", "\u2069"
WRAPPED = [FIRST, f"{RLI}{FIRST}{PDI}", f"{RLI} {FIRST} {PDI} "]  # the third's isolate: words of the line of its own


def shifted(alignment: str) -> str:
    """Pharaoh pairs with each word one further on (the "\\u2067" standing alone before them, a word
    of the line and of its translation)."""
    return " ".join(f"{int(s) + 1}-{int(t) + 1}" for s, t in (pair.split("-") for pair in alignment.split()))


@pytest.mark.parametrize("options", [[], ["--min-quality", "0", "--below-quality", "mark"]],
                         ids=["translate", "translate_n_best"])
def test_a_jsonl_text_is_read_without_the_bidi_controls_at_its_edges_which_wrap_its_translation(
        trained_model, tmp_path, capsys, reached, options):
    """The model read "\\u2067a dog runs.\\u2069" with both isolates, as unknown pieces, and wrote
    neither back: the line lost its direction, and the translation was another."""
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text("".join(json.dumps({"text": text}) + "\n" for text in WRAPPED), encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, "--input-format", "jsonl", "--alignments",
                            *options, jsonl], capsys)
    (plain, pairs), (first, first_pairs), (spaced, spaced_pairs) = (line.split(" ||| ") for line in out.splitlines())
    assert code == 0 and [sentence for sentence in reached if sentence] == [FIRST]  # the three read alike: once
    assert first == f"{RLI}{plain}{PDI}" and spaced == f"{RLI} {plain} {PDI} "  # the spaces where they stood
    assert first_pairs == pairs and spaced_pairs == shifted(pairs)


@pytest.mark.parametrize("output_format", ["jsonl", "tsv"])
def test_a_jsonl_texts_hypotheses_wrap_their_text_in_its_controls_and_number_its_words(trained_model, tmp_path,
                                                                                       capsys, output_format):
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text("".join(json.dumps({"text": text}) + "\n" for text in WRAPPED), encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, "--input-format", "jsonl", "--alignments",
                            "--n-best", "2", "--output-format", output_format, jsonl], capsys)
    if output_format == "jsonl":
        plain, first, spaced = (json.loads(line)["hypotheses"] for line in out.splitlines())
    else:
        rows = [dict(zip(["line", "rank", "score", "log_prob", "text", "alignment"], row.split("\t"), strict=False))
                for row in out.splitlines()]
        plain, first, spaced = ([{k: v for k, v in row.items() if k != "line"} for row in rows if row["line"] == n]
                                for n in "123")
    assert code == 0 and len(plain) == 2
    assert first == [{**h, "text": f"{RLI}{h['text']}{PDI}"} for h in plain]
    assert spaced == [{**h, "text": f"{RLI} {h['text']} {PDI} ", "alignment": shifted(h["alignment"])} for h in plain]


@pytest.mark.parametrize(("line", "read", "words"), [
    ("a man \u200b rides a bike", "a man rides a bike", {2: 3, 3: 4, 4: 5}),  # U+200B: dropped, a word to split()
    ("a man´s dog runs", "a man \u0301s dog runs", {2: 1, 3: 2, 4: 3}),  # ´: read as a space and an accent
])
def test_alignments_number_the_words_of_the_line_as_written(trained_model, tmp_path, capsys, client, line, read,
                                                           words):
    """Each line has the pieces of ``read``, whose words ``words`` renumbers as the line's.  Pieces that
    start with "▁" were counted as words: after a lone U+200B the line's words were one off, and in
    "a man´s dog runs" the last pair named word 4 of four."""
    def aligned(text: str) -> tuple[str, str, str]:  # the server's translation and alignment, the command's
        [[answer]] = client.post("/v1/translate", json={"text": text, "return_alignments": True}).json()["hypotheses"]
        (tmp_path / "in.txt").write_text(f"{text}\n", encoding="utf-8")
        code, out, _ = run_cli(["translate", "--model", trained_model, "--alignments", tmp_path / "in.txt"], capsys)
        assert code == 0
        return answer["text"], answer["alignment"], out

    translation, pairs, _ = aligned(read)
    renumbered = sorted({(words.get(s, s), t) for s, t in (map(int, pair.split("-")) for pair in pairs.split())})
    expected = pharaoh(renumbered)
    assert aligned(line) == (translation, expected, f"{translation} ||| {expected}\n")
    assert max(s for s, _ in renumbered) < len(line.split())


def as_text_and_as_jsonl(trained_model, tmp_path, capsys, reached, lines, options):
    """``lines`` translated as a text file, then as JSONL texts (``reached`` cleared between, so that
    it holds what the JSONL run sent the model): the text run's output, and the JSONL run's code
    and output."""
    text, jsonl = tmp_path / "in.txt", tmp_path / "in.jsonl"
    text.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    jsonl.write_text("".join(json.dumps({"text": line}) + "\n" for line in lines), encoding="utf-8")
    _, expected, _ = run_cli(["translate", "--model", trained_model, *options, text], capsys)
    reached.clear()
    code, out, _ = run_cli(["translate", "--model", trained_model, "--input-format", "jsonl", *options, jsonl], capsys)
    return expected, code, out


def test_a_garbled_fields_name_keeps_its_source_in_every_hypothesis_as_in_the_text_output(trained_model, tmp_path,
                                                                                         capsys, client, monkeypatch):
    """The demo model's n-best rows, LibreTranslate's alternatives and a request with a prefix wrote "BENEFITS" as
    "EIN DEMA", "AUF DIESEM DE", where the text output kept it (plausibility under 0.3); a plausible name whose
    translation opens with an article it lacks (the tiny model's "ein ..." for "Side Effects") keeps its source too,
    and rank 1 is the text output's line."""
    def assess(model, tokenizer, sources, translations, *_, **__):
        return [Assessment(0.9 if source == "Side Effects" else 0.01, [], False) for source in sources]

    monkeypatch.setattr(quality_module, "assess", assess)
    lines = [f"INGREDIENTS: {FIRST}", f"Side Effects: {SECOND}"]
    source = tmp_path / "fields.txt"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    _, text, _ = run_cli(["translate", "--model", trained_model, "--beam", "2", source], capsys)
    code, out, _ = run_cli(["translate", "--model", trained_model, "--beam", "2", "--n-best", "2",
                            "--output-format", "tsv", source], capsys)
    rows = [row.split("\t") for row in out.splitlines()]
    assert code == 0 and [row[4] for row in rows if row[1] == "1"] == text.splitlines()
    assert [row[4].startswith("INGREDIENTS: ") for row in rows if row[0] == "1"] == [True, True]
    assert all(row[4].startswith("Side Effects: ") for row in rows if row[0] == "2")
    answer = client.post("/translate", json={"q": lines[0], "source": "en", "target": "de", "alternatives": 2}).json()
    assert all(each.startswith("INGREDIENTS: ") for each in [answer["translatedText"], *answer["alternatives"]])
    [prefixed] = client.post("/v1/translate", json={"text": f"{FIRST}\n{lines[0]}", "prefix": "zwei"}).json()[
        "translations"]
    assert prefixed.startswith("zwei") and prefixed.split("\n")[1].startswith("INGREDIENTS: ")
