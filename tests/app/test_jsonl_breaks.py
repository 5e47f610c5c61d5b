"""A line break inside a JSONL text (attnmt.cli.jsonl_breaks): every part between breaks is translated,
and the output record's text holds the same breaks where they stood, as a text file's lines keep
theirs; LibreTranslate's /translate keeps a ``q``'s breaks alike.  The model, given
``"a dog runs.\\nA cat sleeps."`` whole, wrote one sentence's translation: the part after the
break was lost, and the break with it."""

import io
import json
from types import SimpleNamespace

import pytest
from support import run_cli, write, write_pairs

import attnmt.decoding.quality as quality_module
from attnmt.cli.commands.quality import write_scores
from attnmt.cli.lines import json_line, tsv_text, tsv_unescaped, write_hypotheses
from attnmt.decoding.quality import Assessment
from attnmt.decoding.translate import Translation

FIRST, SECOND = "a dog runs.", "a cat sleeps."
# every break str.splitlines knows (attnmt.cli.lines.ANY_LINE_BREAK), CRLF as one
BREAKS = ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\v", "\f", "\x1c", "\x1d", "\x1e"]


def translated(trained_model, tmp_path, capsys, records: list[dict], *options: str) -> tuple[int, str, str]:
    """``attnmt translate`` of a JSONL file of ``records``: (exit status, stdout, stderr)."""
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return run_cli(["translate", "--model", trained_model, *options, source], capsys)


def hypotheses(trained_model, tmp_path, capsys, texts: list[str], *options: str) -> list[list[dict]]:
    """Each text's hypotheses, from one run with --output-format jsonl, their line numbers checked: a
    record per line as str.splitlines reads them (a U+2028 in a text is written escaped)."""
    code, out, _ = translated(trained_model, tmp_path, capsys, [{"text": text} for text in texts],
                              "--output-format", "jsonl", *options)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [record["line"] for record in records] == list(range(1, len(texts) + 1))
    return [record["hypotheses"] for record in records]


def best(found: list[list[dict]]) -> list[str]:
    return [each[0]["text"] if each else "" for each in found]


@pytest.mark.parametrize("line_break", BREAKS, ids=[f"U+{ord(b[0]):04X}{'+000A' * (len(b) > 1)}" for b in BREAKS])
def test_each_part_between_line_breaks_is_translated_and_the_break_kept(trained_model, tmp_path, capsys, reached,
                                                                        line_break):
    first, second, both = best(hypotheses(trained_model, tmp_path, capsys,
                                          [FIRST, SECOND, f"{FIRST}{line_break}{SECOND}"]))
    assert (first, second) == ("ein hund rennt", "eine katze schläft")
    assert both == f"{first}{line_break}{second}"
    assert [sentence for sentence in reached if sentence] == [FIRST, SECOND]  # the parts, never the whole


@pytest.mark.parametrize("line_break", BREAKS, ids=[f"U+{ord(b[0]):04X}{'+000A' * (len(b) > 1)}" for b in BREAKS])
def test_text_output_writes_each_break_as_one_space_between_the_parts_translations(trained_model, tmp_path, capsys,
                                                                                   line_break):
    """One output line per record, always: a CRLF is one break, one space, not a CR, an empty part and an LF."""
    texts = [FIRST, SECOND, f"{FIRST}{line_break}{SECOND}", "a horse jumps."]
    code, out, _ = translated(trained_model, tmp_path, capsys, [{"text": text} for text in texts])
    first, second, both, last = out.split("\n")[:-1]
    assert code == 0 and both == f"{first} {second}" and last == "ein pferd springt"


def test_a_break_at_the_start_or_the_end_of_a_text_stays_there(trained_model, tmp_path, capsys):
    texts = [FIRST, f"\n{FIRST}", f"{FIRST}\r\n", f"\u2028{FIRST}\u2029", f"\r\n\r\n{FIRST}\x0b\x0c"]
    first, *found = best(hypotheses(trained_model, tmp_path, capsys, texts))
    assert found == [f"\n{first}", f"{first}\r\n", f"\u2028{first}\u2029", f"\r\n\r\n{first}\x0b\x0c"]


def test_the_spaces_beside_a_break_are_kept_where_they_stood(trained_model, tmp_path, capsys, reached):
    """A part's translation has no spaces at its ends: ``"a \\nb"`` came back as ``"x\\ny"``, the space lost."""
    texts = [FIRST, SECOND, f"{FIRST} \n{SECOND}", f"{FIRST}\r\n  {SECOND}", f"{FIRST}\t\u2028\u00a0{SECOND} \n",
             f"{FIRST} \n \n{SECOND}"]
    first, second, *found = best(hypotheses(trained_model, tmp_path, capsys, texts))
    assert found == [f"{first} \n{second}", f"{first}\r\n  {second}", f"{first}\t\u2028\u00a0{second} \n",
                     f"{first} \n \n{second}"]
    assert set(reached) - {""} == {FIRST, SECOND}  # the parts, without the spaces


def test_a_tab_inside_a_text_parts_it_as_a_text_line_s_tab_does(trained_model, tmp_path, capsys, reached):
    """Read whole, the model took the tab for a space: the demo model wrote "Fecheme Folne." for
    ``"Name:\\tJohn Smith"``, where a text line gave each field's translation with the tab between them."""
    texts = [f"{FIRST}\t{SECOND}", f"{FIRST} \t 42", f"\t{FIRST}"]
    found = best(hypotheses(trained_model, tmp_path, capsys, texts))
    assert found == ["ein hund rennt\teine katze schläft", "ein hund rennt \t 42", "\tein hund rennt"]
    code, out, _ = run_cli(["translate", "--model", trained_model, write(tmp_path / "in.txt", "\n".join(texts) + "\n")],
                           capsys)
    assert code == 0 and out.split("\n")[:-1] == found  # a text line's
    assert set(reached) - {""} == {FIRST, SECOND}


EDGED = [f" {FIRST} ", f"\t{FIRST}\u00a0 ", f" \u2067{FIRST}\u2069 ", f"\u2067 {FIRST} \u2069",
         f"\u200b {FIRST} \u200b", f"\ufeff{FIRST}\u3000", f" {FIRST} \n {SECOND} "]


def test_a_texts_own_leading_and_trailing_spaces_are_kept_as_the_server_keeps_them(trained_model, tmp_path, capsys,
                                                                                 client, reached):
    """``{"text": " a dog runs. "}`` came back ``"ein hund rennt"``, where /v1/translate answers
    ``" ein hund rennt "`` and a text line keeps its spaces too: the spaces, invisible characters and
    controls at a text's ends stand where they stood, the model reading what is between them."""
    answer = client.post("/v1/translate", json={"texts": EDGED, "return_alignments": True}).json()["hypotheses"]
    found = hypotheses(trained_model, tmp_path, capsys, EDGED, "--alignments")
    assert [h[0]["text"] for h in found] == [h[0]["text"] for h in answer]
    assert [h[0]["alignment"] for h in found] == [h[0]["alignment"] for h in answer]
    assert found[0][0]["text"] == " ein hund rennt " and set(reached) - {""} == {FIRST, SECOND}
    code, out, _ = translated(trained_model, tmp_path, capsys, [{"text": text} for text in EDGED])
    assert code == 0 and out.split("\n")[:2] == [" ein hund rennt ", "\tein hund rennt\u00a0 "]


def test_text_output_writes_a_break_and_the_spaces_beside_it_as_one_space(trained_model, tmp_path, capsys):
    texts = [FIRST, SECOND, f"{FIRST} \n  {SECOND}", f"{FIRST} \n \n{SECOND}"]
    code, out, _ = translated(trained_model, tmp_path, capsys, [{"text": text} for text in texts])
    first, second, both, twice = out.split("\n")[:-1]
    assert code == 0 and both == f"{first} {second}" and twice == f"{first}  {second}"  # a space a break


def test_crlf_inside_a_text_is_one_break_kept_as_crlf(trained_model, tmp_path, capsys):
    """As str.splitlines reads it, and a text file's line ends; the tsv row writes it escaped."""
    texts = [FIRST, SECOND, f"{FIRST}\r\n{SECOND}"]
    first, second, both = best(hypotheses(trained_model, tmp_path, capsys, texts))
    assert both == f"{first}\r\n{second}"
    code, out, _ = translated(trained_model, tmp_path, capsys, [{"text": text} for text in texts],
                              "--output-format", "tsv")
    assert code == 0 and out.splitlines()[2].split("\t")[4] == f"{first}\\r\\n{second}"


@pytest.mark.parametrize("line_break", BREAKS, ids=[f"U+{ord(b[0]):04X}{'+000A' * (len(b) > 1)}" for b in BREAKS])
def test_tsv_output_is_a_row_a_hypothesis_to_str_splitlines_and_reads_back_with_the_break(trained_model, tmp_path,
                                                                                         capsys, line_break):
    """A U+2028, a form feed, … in a text was written raw: a reader splitting as str.splitlines does got two rows."""
    texts = [FIRST, SECOND, f"{FIRST}{line_break}{SECOND}"]
    first, second, both = best(hypotheses(trained_model, tmp_path, capsys, texts))
    code, out, _ = translated(trained_model, tmp_path, capsys, [{"text": text} for text in texts],
                              "--output-format", "tsv")
    rows = [row.split("\t") for row in out.splitlines()]
    assert code == 0 and [row[:2] for row in rows] == [["1", "1"], ["2", "1"], ["3", "1"]]
    assert tsv_unescaped(rows[2][4]) == both == f"{first}{line_break}{second}"


def test_tsv_escapes_every_line_break_and_reads_back_as_the_text_was():
    """As JSONL writes U+2028 (``\\u2028``); a backslash before a "u" in the text itself stays text."""
    text = "a\u2028b\u2029c\x85d\ve\ff\x1cg\x1dh\x1ei\tj\r\nk\\u2028l\\"
    written = tsv_text(text)
    assert written == "a\\u2028b\\u2029c\\u0085d\\u000be\\u000cf\\u001cg\\u001dh\\u001ei\\tj\\r\\nk\\\\u2028l\\\\"
    assert len(written.splitlines()) == 1 and "\t" not in written
    assert tsv_unescaped(written) == text
    assert tsv_unescaped("C:\\x\\u0041") == "C:\\x\\u0041"  # no escape tsv_text writes: left as it is


def test_a_text_of_only_breaks_is_blank_and_keeps_its_line(trained_model, tmp_path, capsys, reached):
    """Nothing to translate, as a text of spaces: no hypothesis in jsonl, its breaks as spaces in text output."""
    texts = ["\n", "\r\n\u2028\r", FIRST]
    found = hypotheses(trained_model, tmp_path, capsys, texts)
    assert found[:2] == [[], []] and found[2][0]["text"] == "ein hund rennt"
    assert [sentence for sentence in reached if sentence] == [FIRST]
    code, out, _ = translated(trained_model, tmp_path, capsys, [{"text": text} for text in texts])
    assert code == 0 and out == " \n   \nein hund rennt\n"


@pytest.mark.parametrize("line_break", ["\n", "\t"])
def test_a_texts_hypotheses_join_its_parts_scores_alignments_and_confidences(trained_model, tmp_path, capsys,
                                                                             line_break):
    """As a paragraph's join its sentences' (attnmt.documents.paragraphs): the k-th of each part, the
    scores summed, the word numbers those of the whole text and translation, the quality the worst part's.
    A tab parts a text as a break does: the confidences were of the pieces of the text read whole."""
    options = ["--n-best", "2", "--alignments", "--confidence"]
    first, second, both = hypotheses(trained_model, tmp_path, capsys, [FIRST, SECOND, f"{FIRST}{line_break}{SECOND}"],
                                     *options)
    assert len(both) == 2
    for rank, h in enumerate(both):
        a, b = first[rank], second[rank]
        shift = (len(FIRST.split()), len(a["text"].split()))
        pairs = [*a["alignment"].split(), *(f"{int(s) + shift[0]}-{int(t) + shift[1]}"
                                            for s, t in (pair.split("-") for pair in b["alignment"].split()))]
        assert h["text"] == f"{a['text']}{line_break}{b['text']}"
        assert h["score"] == pytest.approx(a["score"] + b["score"], abs=2e-4)
        assert h["log_prob"] == pytest.approx(a["log_prob"] + b["log_prob"], abs=2e-4)
        assert h["alignment"].split() == pairs and h["confidence"] == a["confidence"] + b["confidence"]
        assert h["quality"] == min(a["quality"], b["quality"]) and set(h["flags"]) >= set(a["flags"]) | set(b["flags"])


def test_a_texts_glossary_holds_for_every_part_and_its_prefix_starts_the_first(trained_model, tmp_path, capsys):
    guides = {"glossary": {"dog": "köter", "cat": "mieze"}, "prefix": "zwei"}
    records = [{"text": FIRST, **guides}, {"text": SECOND, "glossary": guides["glossary"]},
               {"text": f"12\n{FIRST}\u2028{SECOND}", **guides}]
    code, out, _ = translated(trained_model, tmp_path, capsys, records, "--output-format", "jsonl")
    first, second, both = (json.loads(line)["hypotheses"][0]["text"] for line in out.splitlines())
    assert code == 0 and first.startswith("zwei") and "köter" in first and "mieze" in second
    assert both == f"12\n{first}\u2028{second}"


def test_a_text_the_model_fails_on_in_one_part_is_named_once_and_left_empty(trained_model, tmp_path, capsys,
                                                                           failing_on_the_boy):
    texts = [f"{FIRST}\n{failing_on_the_boy}\r{failing_on_the_boy}", SECOND]
    code, out, err = translated(trained_model, tmp_path, capsys, [{"text": text} for text in texts])
    assert out == "\neine katze schläft\n"
    assert err.count("not translated") == 1 and "in.jsonl:1: not translated" in err and code != 0


@pytest.mark.parametrize("line_break", BREAKS, ids=[f"U+{ord(b[0]):04X}{'+000A' * (len(b) > 1)}" for b in BREAKS])
def test_libretranslates_translate_keeps_a_qs_breaks_and_translates_each_part(client, line_break):
    def answer(q):
        found = client.post("/translate", json={"q": q, "source": "en", "target": "de"})
        assert found.status_code == 200
        return found.json()["translatedText"]

    first, second = answer([FIRST, SECOND])
    assert answer(f"{FIRST}{line_break}{SECOND}") == f"{first}{line_break}{second}"
    assert answer([f"{line_break}{FIRST}{line_break}", line_break]) == [f"{line_break}{first}{line_break}",
                                                                        line_break]


def test_jsonl_output_writes_the_breaks_json_leaves_raw_as_escapes():
    """json.dumps escapes every control character below U+0020, not U+0085, U+2028 and U+2029: written
    as they are, each was the end of a record to a reader that splits lines as str.splitlines does."""
    out = io.StringIO()
    write_hypotheses(out, 1, [[Translation("a\u2028b\x85c\u2029d\ne", -1.0, -2.0)]], "jsonl")
    assert out.getvalue() == ('{"line": 1, "hypotheses": [{"text": "a\\u2028b\\u0085c\\u2029d\\ne", "score": -1.0, '
                              '"log_prob": -2.0}]}\n')
    assert json.loads(out.getvalue())["hypotheses"][0]["text"] == "a\u2028b\x85c\u2029d\ne"


def test_score_jsonl_is_a_record_a_line_around_a_translations_breaks(trained_model, tmp_path, capsys):
    """A translation's U+2028, U+0085 and U+2029 end no record of ``score``: they part its words (split at
    whitespace), so no word holds one, and the records are written as translate's are (json_line)."""
    src, hyp = write_pairs(tmp_path, "x", [("a dog runs", "ein\u2028hund\x85rennt\u2029jetzt"), (FIRST, "ein hund")])
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--output-format",
                            "jsonl"], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [record["line"] for record in records] == [1, 2]
    assert [word for word, _ in records[0]["words"]] == ["ein", "hund", "rennt", "jetzt"]


def test_score_jsonl_writes_the_breaks_json_leaves_raw_as_escapes():
    """As write_hypotheses writes them: score wrote its records with json.dumps alone, each such break raw."""
    out = io.StringIO()
    write_scores(out, ["a\u2028b"], [Assessment(0.5, [], False, [("a\u2028b\x85c\u2029d", 0.25)])], "jsonl")
    assert out.getvalue() == ('{"line": 1, "quality": 0.5, "flags": [], "calibrated": false, '
                              '"words": [["a\\u2028b\\u0085c\\u2029d", 0.25]]}\n')
    assert json.loads(out.getvalue())["words"] == [["a\u2028b\x85c\u2029d", 0.25]]


def test_json_line_is_one_line_to_str_splitlines_and_reads_back():
    text = "".join(BREAKS) + "ü"
    written = json_line({"text": text})
    assert len(written.splitlines()) == 1 and written.endswith("}\n") and "ü" in written
    assert json.loads(written) == {"text": text}


def test_a_sound_description_opening_a_text_is_translated_alone_as_a_text_line_s(trained_model, tmp_path, capsys,
                                                                                 reached):
    """The demo model wrote the JSONL text "[LAUGHS] Yes, of course." as "Auf der Rennstrecke.", the description
    lost, where the same text line gave "[EINE LACHT] Große Baue."; each part now ends as its source does."""
    texts = [f"[a dog runs] {SECOND}", f"ANNA: (a cat sleeps)  {FIRST}"]
    assert best(hypotheses(trained_model, tmp_path, capsys, texts)) == [
        "[ein hund rennt] eine katze schläft", "ANNA: (eine katze schläft)  ein hund rennt"]
    assert sorted(set(reached)) == ["a cat sleeps", "a cat sleeps.", "a dog runs", "a dog runs."]


def test_a_fields_name_the_model_finds_garbled_keeps_its_source_as_a_text_line_s(trained_model, tmp_path, capsys,
                                                                                  monkeypatch):
    """The demo model wrote the JSONL text "BENEFITS: Free parking." as "EIN DEMA: In einem Parkplatz.", where the
    same text line kept "BENEFITS" (its translation's plausibility under 0.3); a plausible name whose translation
    opens with an article it lacks keeps its source too (the tiny model's "ein ..." for "Side Effects")."""
    plausible = {"INGREDIENTS": 0.05, "Side Effects": 0.9}

    def assess(model, tokenizer, sources, translations, **_):
        return [SimpleNamespace(quality=0.0, words=[(source, plausible.get(source, 0.01))]) for source in sources]

    monkeypatch.setattr(quality_module, "assess", assess)
    records = [{"text": f"INGREDIENTS: {FIRST}"}, {"text": f"- Side Effects: {SECOND}"}]
    code, out, _ = translated(trained_model, tmp_path, capsys, records)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "INGREDIENTS: ein hund rennt"
    assert lines[1] == "- Side Effects: eine katze schläft"


def test_each_hypothesis_of_a_texts_garbled_fields_name_keeps_its_source(trained_model, tmp_path, capsys,
                                                                         monkeypatch):
    """With --n-best, the JSONL text "BENEFITS: Free parking." came back "EIN DEMA: ...", "AUF DIESEM DE: ..." from
    the demo model, where its text output kept "BENEFITS"; a plausible name whose translation opens with an article
    it lacks (the tiny model's "ein ..." for "Side Effects") keeps its source in each too."""
    def assess(model, tokenizer, sources, translations, *_, **__):
        return [Assessment(0.9 if source == "Side Effects" else 0.01, [], False) for source in sources]

    monkeypatch.setattr(quality_module, "assess", assess)
    found = hypotheses(trained_model, tmp_path, capsys, [f"INGREDIENTS: {FIRST}", f"- Side Effects: {SECOND}"],
                       "--beam", "2", "--n-best", "2")
    assert [h["text"].startswith("INGREDIENTS: ") for h in found[0]] == [True, True]
    assert found[1] and all(h["text"].startswith("- Side Effects: ") for h in found[1])
