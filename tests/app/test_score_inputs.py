"""What attnmt score reads: --hyp in any of attnmt translate's output formats, and stdin for "-",
as attnmt evaluate --hyp reads them (attnmt.cli.hypotheses); --src as text or as translate's JSONL
input; and calibrate's stdin."""

import io
import json
import subprocess
import sys

import pytest
from support import PAIRS, calibration_pairs, run_cli, write_pairs

LINES = ["a dog runs", "", "a cat sleeps", ""]  # a blank line inside and one at the end: no TSV row


def translated(model, tmp_path, capsys, options: list[str]):
    """The source file of LINES and translate's output of it with ``options``, written to a file."""
    source = tmp_path / "in.txt"
    source.write_text("".join(line + "\n" for line in LINES), encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", model, "--beam", "2", *options, source], capsys)
    assert code == 0
    hyp = tmp_path / "out.txt"
    hyp.write_text(out, encoding="utf-8")
    return source, hyp


@pytest.mark.parametrize("options", [["--output-format", "jsonl"], ["--output-format", "tsv"],
                                     ["--output-format", "tsv", "--n-best", "2"], ["--alignments"]],
                         ids=["jsonl", "tsv", "tsv n-best", "alignments"])
def test_score_reads_each_of_translates_outputs_as_the_translations_it_holds(trained_model, tmp_path, capsys,
                                                                            options):
    """Read as text, each line's JSON or TSV row was scored: every line 0.0 and low_quality."""
    (tmp_path / "text").mkdir()
    source, text = translated(trained_model, tmp_path / "text", capsys, [])
    _, other = translated(trained_model, tmp_path, capsys, options)
    scores = [run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp, "--output-format", "tsv"],
                      capsys) for hyp in (text, other)]
    assert scores[0] == scores[1]
    assert scores[0][1].splitlines()[0].split("\t")[2:] == ["-", "ein hund rennt"]
    assert scores[0][1].splitlines()[3] == "4\t1.0000\t-\t"  # a blank line: passed through


def test_score_counts_a_cut_tsv_file_by_its_last_rows_line_as_evaluate_does(trained_model, tmp_path, capsys):
    """Five rows of an n-best file (head -5) were "5 lines": they hold translations of lines 1 and 2."""
    src, hyp = write_pairs(tmp_path, "x", PAIRS[:10])
    rows = [f"{line}\t{rank}\t-0.5\t-1.0\tein hund {rank}\t0.9\t-" for line, rank in
            ((1, 1), (1, 2), (1, 3), (2, 1), (2, 2))]
    hyp.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, _, err = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp], capsys)
    assert code == 2
    assert err.startswith(f"attnmt: error: {hyp} has rows up to line 2 but {src} has 10: score needs one "
                          "translation a source line; a blank input line has no row")


def test_score_reads_stdin_for_a_dash(trained_model, tmp_path, capsys, monkeypatch):
    """It was "cannot read -: no such file or directory", where evaluate reads stdin."""
    source, hyp = translated(trained_model, tmp_path, capsys, ["--output-format", "jsonl"])
    expected = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp], capsys)
    for src, given, stdin in ((source, "-", hyp), ("-", hyp, source)):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.read_bytes())))
        args = ["score", "--model", trained_model, "--src", src, "--hyp", given]
        assert run_cli(args, capsys) == expected
    code, _, err = run_cli(["score", "--model", trained_model, "--src", "-", "--hyp", "-"], capsys)
    assert code == 2 and err == "attnmt: error: --src and --hyp name stdin (-), which can be read once: give all " \
                                "but one as files\n"


@pytest.mark.parametrize(("src", "hyp"), [("/dev/stdin", "-"), ("-", "/proc/self/fd/0"), ("/dev/fd/0", "/dev/stdin")])
def test_score_refuses_two_names_of_a_piped_stdin_in_one_line(trained_model, src, hyp):
    """The pipe was read for --src and was empty for --hyp: "<stdin> has 0 lines but /dev/stdin has 2"."""
    found = subprocess.run([sys.executable, "-m", "attnmt", "score", "--model", str(trained_model), "--src", src,
                            "--hyp", hyp], input="a dog runs\na cat sleeps\n", capture_output=True, text=True)
    assert found.returncode == 2
    assert found.stderr == (f"attnmt: error: --src ({src}) and --hyp ({hyp}) name stdin, which can be read once: "
                            "give all but one as files\n")


def test_score_reads_a_translation_of_invisible_characters_alone_as_empty_in_every_form(trained_model, tmp_path,
                                                                                         capsys, monkeypatch):
    """A zero-width space as translate's tsv row or jsonl hypothesis, from a file or stdin, is an
    empty translation of a line with words (quality 0, ``empty``), where translate's own output of
    such a line, passed through, stays quality 1 with no flags.  It scored 1 with no flags."""
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n\u200b\n", encoding="utf-8")
    rows = "1\t1\t-1.0000\t-1.0000\t\u200b\t0.0000\tempty,low_quality\n2\t1\t0.0000\t0.0000\t\u200b\t1.0000\t-\n"
    objects = "".join(json.dumps({"line": n, "hypotheses": [{"text": "\u200b"}]}) + "\n" for n in (1, 2))
    for text in (rows, objects):
        hyp = tmp_path / "out.txt"
        hyp.write_text(text, encoding="utf-8")
        for given in (hyp, "-"):
            monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
            code, out, err = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", given], capsys)
            assert code == 0, err
            assert [(a["quality"], a["flags"]) for a in map(json.loads, out.splitlines())] == \
                [(0.0, ["empty", "low_quality"]), (1.0, [])]


def translated_then_scored(trained_model, tmp_path, capsys, lines: str, terms: str) -> tuple[list, list]:
    """``lines`` translated with the glossary ``terms`` (tsv rows), and translate's output scored
    with the same glossary (tsv rows, each split at its tabs)."""
    source, glossary = tmp_path / "in.txt", tmp_path / "terms.tsv"
    source.write_text(lines, encoding="utf-8")
    glossary.write_text(terms, encoding="utf-8")
    code, out, err = run_cli(["translate", "--model", trained_model, "--glossary", glossary, "--output-format",
                              "tsv", source], capsys)
    assert code == 0, err
    rows = [row.split("\t") for row in out.splitlines()]
    hyp = tmp_path / "out.txt"
    hyp.write_text("".join(row[4] + "\n" for row in rows), encoding="utf-8")
    code, scored, _ = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp, "--glossary",
                               glossary, "--output-format", "tsv"], capsys)
    assert code == 0
    return rows, [row.split("\t") for row in scored.splitlines()]


def test_score_with_translates_glossary_scores_a_letterless_line_with_its_terms_as_translate_does(
        trained_model, tmp_path, capsys):
    """Without the glossary, score read ``zweitausendzwölf`` for ``2012`` as the model's own
    translation: quality near 0 and low_quality, where translate had given it quality 1."""
    rows, scored = translated_then_scored(trained_model, tmp_path, capsys, "2012\n4521 - 2012\n12/05/2012\n",
                                          "2012\tzweitausendzwölf\n")
    assert [row[1:] for row in scored] == [
        ["1.0000", "-", "zweitausendzwölf"], ["1.0000", "-", "4521 - zweitausendzwölf"], ["1.0000", "-", "12/05/2012"]]
    assert [row[5:7] for row in rows] == [["1.0000", "-"]] * 3


def test_score_gives_no_word_of_a_line_passed_through_a_probability_terms_replaced_or_not(
        trained_model, tmp_path, capsys):
    """Nothing of such a line reached the model, so its words are null, as a copy of ``12345``'s
    were: ``zweitausendzwölf`` for ``2012`` (the glossary's) and a URL alone had the forced pass's
    probabilities (the hand-trained model gave both 0.0)."""
    url = "https://example.com/docs/page"
    source, hyp, glossary = tmp_path / "in.txt", tmp_path / "out.txt", tmp_path / "terms.tsv"
    source.write_text(f"2012\n{url}\n12345\n", encoding="utf-8")
    hyp.write_text(f"zweitausendzwölf\n{url}\n12345\n", encoding="utf-8")
    glossary.write_text("2012\tzweitausendzwölf\n", encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp, "--glossary",
                              glossary, "--output-format", "jsonl"], capsys)
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(a["quality"], a["flags"]) for a in lines] == [(1.0, [])] * 3
    assert [a["words"] for a in lines] == [[["zweitausendzwölf", None]], [[url, None]], [["12345", None]]]


def test_score_with_translates_glossary_reads_a_sentence_beside_a_letterless_part_with_terms_as_translate(
        trained_model, tmp_path, capsys):
    """``2012.`` beside a sentence came out ``zweitausendzwölf.``, which score looked for as
    ``2012.`` and so read the line whole: quality 0.1365 and low_quality for translate's 0.9857."""
    rows, scored = translated_then_scored(trained_model, tmp_path, capsys,
                                          "A dog runs in the park. 2012.\nA man rides a bicycle. 20 %\n",
                                          "2012\tzweitausendzwölf\n20 %\tzwanzig prozent\n")
    assert [row[1:3] for row in scored] == [row[5:7] for row in rows]


def test_score_with_translates_glossary_reads_a_sentence_with_a_term_as_translate_scored_it(
        calibrated, tmp_path, capsys):
    """The model's own translation was searched without the terms: translate's ``d katze rennt``
    read as a text written elsewhere against ``ein hund rennt``, and scored otherwise."""
    trained_copy, code, _ = calibrated
    assert code == 0
    rows, scored = translated_then_scored(trained_copy, tmp_path, capsys, "a dog runs\nthe boy laughs\n",
                                          "dog\tkatze\n")
    assert "katze" in rows[0][4].split() and rows[1][4] == "der junge lacht"
    assert [row[2] for row in scored] == [row[6] for row in rows]  # the flags
    # 3e-3: the line without a term is 5e-4 (Zen 3) to 1.2e-3 (Zen 4) apart with or without the fix (its
    # batch's rounding, through the calibration's slope); the term's line was 0.046 for translate's 0.1822
    assert [float(row[1]) for row in scored] == pytest.approx([float(row[5]) for row in rows], abs=3e-3)


def test_score_with_a_glossary_and_sampling_is_refused_before_the_model_loads_unless_it_searches_nothing(
        trained_model, tmp_path, capsys):
    """score searches the model's own translation with the glossary's terms, which sampling cannot
    hold: it failed after loading, in the Python API's words.  --no-search searches nothing, and
    takes the glossary (its search options are refused: they would do nothing)."""
    (tmp_path / "in.txt").write_text("the boy laughs\n", encoding="utf-8")
    (tmp_path / "out.txt").write_text("der junge lacht\n", encoding="utf-8")
    (tmp_path / "terms.tsv").write_text("dog\tkatze\n", encoding="utf-8")
    sampled = ["score", "--model", trained_model, "--src", tmp_path / "in.txt", "--hyp", tmp_path / "out.txt",
               "--glossary", tmp_path / "terms.tsv", "--beam", "1", "--sampling-topk", "0", "--seed", "1"]
    code, out, err = run_cli(sampled, capsys)
    assert code == 2 and out == ""
    assert err == ("attnmt: error: --glossary needs beam search (it steers the search to its terms); sampling draws "
                   "tokens at random: leave out --sampling-topk, or --glossary\n")
    code, out, _ = run_cli([*sampled[:9], "--no-search"], capsys)  # the glossary without the search's options
    assert code == 0 and out.count("\n") == 1


@pytest.mark.parametrize("options, named", [
    (["--sampling-topp", "0.9"], "--sampling-topp would do nothing (it chooses"),
    (["--beam", "8", "--alpha", "2", "--max-len-b", "0", "--shortlist", "sl.bin"],
     "--beam, --alpha, --max-len-b and --shortlist would do nothing (they choose"),
    (["--beam", "4"], "--beam would do nothing (it chooses")])
def test_score_no_search_refuses_the_search_options_it_does_not_use(tmp_path, capsys, options, named):
    """--no-search searches nothing: the options of the search (a shortlist too: a translation is
    read over the whole vocabulary) were taken without a word, at any value, and did nothing.
    Refused before the model loads, as evaluate --hyp refuses them."""
    code, out, err = run_cli(["score", "--model", "no-such-model", "--src", "in.txt", "--hyp", "out.txt",
                              "--no-search", *options], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("attnmt: error: --no-search reads each translation alone, without translating its "
                          f"source: {named} how the model's own translation is searched): leave ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("options", [[], ["--no-search", "--no-split"]], ids=["searched", "read alone"])
def test_score_names_a_jsonl_hypothesis_with_an_unpaired_surrogate_in_one_line(trained_model, tmp_path, capsys,
                                                                             options):
    """It was a UnicodeEncodeError traceback from the sentence splitter, or, read alone, a line
    naming ``translations[0]`` rather than the file."""
    source, hyp = tmp_path / "d.en", tmp_path / "h.jsonl"
    source.write_text("a dog runs\n", encoding="utf-8")
    hyp.write_text('{"line": 1, "hypotheses": [{"text": "ein \\ud800 hund"}]}\n', encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp, *options], capsys)
    assert (code, out) == (2, "")
    assert err == f'attnmt: error: {hyp}, line 1: the hypothesis\'s "text" is not valid Unicode (it has an unpaired ' \
                  "surrogate)\n"


def test_score_reads_translates_jsonl_input_as_its_source_texts(trained_model, tmp_path, capsys):
    """The source translate --input-format jsonl read, given to score: its JSON was scored
    against the translations, every line 0 and low_quality."""
    source, hyp = translated(trained_model, tmp_path, capsys, ["--output-format", "jsonl"])
    objects = tmp_path / "in.jsonl"  # a blank line stays blank, as translate reads it; a prefix only guided it
    objects.write_text("".join(json.dumps({"text": line, "prefix": "ein"}) + "\n" if line else "\n"
                               for line in LINES), encoding="utf-8")
    scores = [run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--output-format", "tsv"],
                      capsys) for src in (source, objects)]
    assert scores[1] == scores[0]
    assert scores[1][1].splitlines()[0].split("\t")[2:] == ["-", "ein hund rennt"]


def test_score_reads_a_jsonl_record_as_translate_reads_it_whole_between_its_line_breaks(trained_model, tmp_path,
                                                                                       capsys):
    """translate --input-format jsonl gives the model each record's text whole (each part between its
    line breaks, a U+2028 too); score split a record into sentences: "ein hund rennt der junge lacht" for
    "a dog runs. the boy laughs." scored 0.9996, read as two sentences translate never gave the model,
    where read whole, as translate reads the record, it is 0.005 and low_quality."""
    texts = ["a dog runs. the boy laughs.", "a cat sleeps\u2028the boy laughs. a bird sings."]
    records, lines = tmp_path / "in.jsonl", tmp_path / "in.txt"
    records.write_text("".join(json.dumps({"text": text}) + "\n" for text in texts), encoding="utf-8")
    lines.write_text(f"{texts[0]}\na cat sleeps\nthe boy laughs. a bird sings.\n", encoding="utf-8")
    hyp, hyps = tmp_path / "out.de", tmp_path / "outs.de"
    hyp.write_text("ein hund rennt der junge lacht\neine katze schläft\u2028der junge lacht ein vogel singt\n",
                   encoding="utf-8")
    hyps.write_text("ein hund rennt der junge lacht\neine katze schläft\nder junge lacht ein vogel singt\n",
                    encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", records, "--hyp", hyp], capsys)
    assert code == 0, err
    found = [(a["quality"], sorted(a["flags"])) for a in map(json.loads, out.splitlines())]
    code, out, err = run_cli(["score", "--model", trained_model, "--src", lines, "--hyp", hyps, "--no-split"],
                             capsys)
    assert code == 0, err
    whole = [(a["quality"], sorted(a["flags"])) for a in map(json.loads, out.splitlines())]
    assert found == [whole[0], (min(whole[1][0], whole[2][0]), sorted({*whole[1][1], *whole[2][1]}))]
    assert "low_quality" in found[0][1]


def test_score_splits_lines_by_the_models_languages_where_none_is_given_as_translate_does(trained_copy, tmp_path,
                                                                                          capsys):
    """A model trained on train.de -> train.en: translate splits its lines by German rules, which keep
    "a dog runs. the boy laughs." one sentence; score split them by English rules, into two, and read
    the translation by sentences translate never gave the model (0.0183 where read whole, 0.0008)."""
    import yaml

    config = yaml.safe_load((trained_copy / "train.yaml").read_text(encoding="utf-8"))
    config.update(train_src=str(tmp_path / "train.de"), train_tgt=str(tmp_path / "train.en"))
    (trained_copy / "train.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    src, hyp = write_pairs(tmp_path, "x", [("a dog runs. the boy laughs.", "ein hund rennt. der junge lacht.")])
    scored = {}
    for languages in ([], ["--source-lang", "de", "--target-lang", "en"], ["--source-lang", "en"]):
        code, out, err = run_cli(["score", "--model", trained_copy, "--src", src, "--hyp", hyp, "--no-search",
                                  *languages], capsys)
        assert code == 0, err
        scored[" ".join(languages)] = json.loads(out)["quality"]
    assert scored[""] == scored["--source-lang de --target-lang en"] != scored["--source-lang en"]


@pytest.mark.parametrize("command, texts, option", [
    ("score", "--hyp", ["--no-split"]), ("calibrate", "--ref", ["--no-split"]),
    ("calibrate", "--ref", ["--source-lang", "de"]), ("calibrate", "--ref", ["--target-lang", "fr"])])
def test_a_jsonl_source_refuses_the_options_that_would_split_its_records(trained_copy, tmp_path, capsys, command,
                                                                        texts, option):
    """A record's text is read whole between its line breaks, as translate reads it, which refuses
    --no-split and --source-lang with JSONL input: score and calibrate took them and did nothing.  Score's
    --source-lang and --target-lang name the languages of its flags too (test_score_jsonl_takes_...)."""
    source, given = tmp_path / "in.jsonl", tmp_path / "given.de"
    source.write_text('{"text": "a dog runs"}\n', encoding="utf-8")
    given.write_text("ein hund rennt\n", encoding="utf-8")
    code, _, err = run_cli([command, "--model", trained_copy, "--src", source, texts, given, *option], capsys)
    assert code == 2 and err == (f"attnmt: error: {source} is translate's JSONL input, each record's text read whole "
                                 f"between its line breaks: {option[0]} would do nothing (it chooses how a line is "
                                 "split into sentences): leave it out\n")


@pytest.mark.parametrize("command, texts", [("score", "--hyp"), ("calibrate", "--ref")])
def test_a_jsonl_source_line_with_a_glossary_of_its_own_is_refused_naming_it(trained_copy, tmp_path, capsys,
                                                                            command, texts):
    """translate read such a line with its terms; score and calibrate take one --glossary for every line."""
    source, given = tmp_path / "in.jsonl", tmp_path / "given.de"
    source.write_text('{"text": "a dog runs"}\n{"text": "a cat sleeps", "glossary": {"cat": "katze"}}\n',
                      encoding="utf-8")
    given.write_text("ein hund rennt\neine katze schläft\n", encoding="utf-8")
    code, _, err = run_cli([command, "--model", trained_copy, "--src", source, texts, given], capsys)
    assert code == 2
    assert err.startswith(f'attnmt: error: {source}:2: the line has its own "glossary", which {command} does not '
                          "read")


def test_score_reads_a_text_source_whose_first_line_looks_like_json_as_text(trained_model, tmp_path, capsys):
    """Only a file whose every line is an object with a "text" is translate's JSONL input: this
    one was refused at line 2, "not valid JSON"."""
    source, hyp = tmp_path / "d.en", tmp_path / "h.de"
    source.write_text('{"text": "a dog runs"}\na cat sleeps\n', encoding="utf-8")
    hyp.write_text("ein hund rennt\neine katze schläft\n", encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp, "--output-format",
                              "tsv", "--no-search"], capsys)
    assert code == 0, err
    assert [row.split("\t")[0] for row in out.splitlines()] == ["1", "2"]


@pytest.mark.parametrize("rows", [
    ["1\t1\t3\t4\tfive", "2\t1\t0\t0\tsix", "3\t1\t1\t1\tseven"],  # numbers, not translate's scores
    ["1\t1\t-1\t-1\tfive", "2\t1\t-1\t-1\tsix", "3\t1\t-1\t-1\tseven"],
], ids=["plain numbers", "whole scores"])
def test_score_reads_rows_whose_scores_are_not_as_translate_writes_them_as_text(trained_model, tmp_path, capsys,
                                                                               rows):
    """A score of any decimal made plain lines of numbers and tabs TSV rows: only "five" was scored."""
    source, hyp = tmp_path / "d.en", tmp_path / "h.tsv"
    source.write_text("one\ntwo\nthree\n", encoding="utf-8")
    hyp.write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp, "--output-format",
                              "tsv", "--no-search"], capsys)
    assert code == 0, err
    assert [row.split("\t", 3)[3] for row in out.splitlines()] == [row.replace("\t", "\\t") for row in rows]


def test_score_names_a_hand_made_score_in_translates_tsv_output(trained_model, tmp_path, capsys):
    """A row of line 1's columns whose score is ``-1`` (not ``-1.0000``) was refused as of other columns."""
    source, hyp = tmp_path / "d.en", tmp_path / "h.tsv"
    source.write_text("a dog runs\na cat sleeps\n", encoding="utf-8")
    hyp.write_text("1\t1\t-1.0000\t-2.0000\tein hund rennt\t0.9\t-\n2\t1\t-1\t-1.0000\teine katze schläft\t0.9\t-\n",
                   encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp], capsys)
    assert (code, out) == (2, "")
    assert err == f"attnmt: error: {hyp}, line 2: not a row of attnmt translate's TSV output (line, rank, score, " \
                  "log_prob, translation, ...: 7 columns), as line 1 is: its score '-1' is not a number as attnmt " \
                  "translate writes it (-1.0000)\n"


def test_score_says_how_many_columns_a_row_has_and_what_a_tab_inside_a_translation_does(trained_model, tmp_path,
                                                                                           capsys):
    """Line 1's translation holds a tab, written by hand (translate writes ``\\t``): line 2 was refused as not of
    line 1's 8 columns, with nothing to say that line 1 was the row one column over."""
    source, hyp = tmp_path / "d.en", tmp_path / "h.tsv"
    source.write_text("a dog runs\na cat sleeps\n", encoding="utf-8")
    hyp.write_text("1\t1\t-1.0000\t-2.0000\tein hund\trennt\t0.9000\t-\n"
                   "2\t1\t-1.0000\t-1.0000\teine katze\t0.9000\t-\n", encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp], capsys)
    assert (code, out) == (2, "")
    assert err == f"attnmt: error: {hyp}, line 2: not a row of attnmt translate's TSV output (line, rank, score, " \
                  "log_prob, translation, ...: 8 columns), as line 1 is: it has 7; a tab inside a translation, which " \
                  "attnmt translate writes as \\t, makes one column more\n"


def test_calibrate_reads_stdin_for_a_dash_as_score_does(trained_copy, tmp_path, capsys, monkeypatch):
    """It was "cannot read -: no such file or directory"."""
    src, ref = write_pairs(tmp_path, "valid", calibration_pairs())
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(src.read_bytes())))
    code, out, err = run_cli(["calibrate", "--model", trained_copy, "--src", "-", "--ref", ref], capsys)
    assert code == 0, err
    assert out.startswith("quality: P(sentence chrF >= 50), fitted on 120 sentences of <stdin>")
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", "-", "--ref", "-"], capsys)
    assert code == 2 and err == "attnmt: error: --src and --ref name stdin (-), which can be read once: give all " \
                                "but one as files\n"


def test_calibrate_reads_translates_jsonl_input_as_its_source_texts_as_score_does(calibrated, tmp_path, capsys):
    """Read as text, each line's JSON was translated, and the fit on those translations stored:
    every reference low_quality.  The same pairs as text: ``calibrated``'s run."""
    trained_copy, code, _ = calibrated
    assert code == 0
    from_text = (trained_copy / "quality.json").read_text(encoding="utf-8")
    _, ref = write_pairs(tmp_path, "valid", calibration_pairs())
    objects = tmp_path / "valid.jsonl"
    objects.write_text("".join(json.dumps({"text": s}) + "\n" for s, _ in calibration_pairs()), encoding="utf-8")
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", objects, "--ref", ref], capsys)
    assert code == 0, err
    assert (trained_copy / "quality.json").read_text(encoding="utf-8") == from_text



def test_calibrate_gives_the_model_a_records_lines_apart_as_translate_does(trained_copy, tmp_path, capsys,
                                                                          monkeypatch):
    """translate gives the model "a cat runs" and "the man laughs" of the record "a cat runs\nthe man
    laughs" apart (attnmt.cli.jsonl_breaks); calibrate gave it the text whole, the break read as a
    space, and fitted on that translation against the whole reference.  Each line is now fitted on
    with the run of the reference's words closest to the model's translation of it."""
    from attnmt.decoding import calibration

    given: list[str] = []
    translate = calibration.translate
    monkeypatch.setattr(calibration, "translate", lambda model, tokenizer, texts, *rest: given.extend(texts)
                        or translate(model, tokenizer, texts, *rest))
    records = [("a cat runs\nthe man laughs", "eine katze rennt! der mann lacht!"),
               ("a boy swims\u2028two birds sing\n12345", "ein junge schwimmt! zwei vögel singen! 12345")]
    pairs = [*calibration_pairs(), *records]
    src, ref = write_pairs(tmp_path, "valid", pairs)
    objects = tmp_path / "valid.jsonl"
    objects.write_text("".join(json.dumps({"text": s}) + "\n" for s, _ in pairs), encoding="utf-8")
    code, out, err = run_cli(["calibrate", "--model", trained_copy, "--src", objects, "--ref", ref], capsys)
    assert code == 0, err
    assert "fitted on 124 sentences" in out
    assert not any("\n" in text or "\u2028" in text for text in given)
    assert {"a cat runs", "the man laughs", "a boy swims", "two birds sing"} <= set(given)


def test_a_jsonl_named_source_with_a_malformed_line_is_refused_naming_it(trained_model, tmp_path, capsys):
    """Read as text (every line was no longer a JSON object), its good lines' JSON was scored: a file
    named .jsonl is translate's input, its bad line named as translate names it."""
    src, hyp = tmp_path / "in.jsonl", tmp_path / "out.de"
    src.write_text('{"text": "a dog runs"}\n{"text": "a cat sleeps"\n', encoding="utf-8")
    hyp.write_text("ein hund rennt\neine katze schläft\n", encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", str(src), "--hyp", str(hyp), "--no-search"],
                             capsys)
    assert code == 2 and out == "" and f"{src}:2: not valid JSON" in err


@pytest.mark.parametrize("command", ["score", "calibrate"])
def test_a_jsonl_named_source_of_objects_without_text_is_refused_naming_its_line(trained_copy, tmp_path, capsys,
                                                                                 command):
    """{"txt": …} a line, a slip of the key: translate refuses it; score read each line's JSON as the
    source and scored it (0.0, low_quality), and calibrate fitted on it."""
    src, hyp = tmp_path / "in.jsonl", tmp_path / "out.de"
    src.write_text('{"txt": "a dog runs"}\n{"txt": "a cat sleeps"}\n', encoding="utf-8")
    hyp.write_text("ein hund rennt\neine katze schläft\n", encoding="utf-8")
    second = ["--hyp", str(hyp), "--no-search"] if command == "score" else ["--ref", str(hyp)]
    code, out, err = run_cli([command, "--model", trained_copy, "--src", str(src), *second], capsys)
    assert code == 2 and out == ""
    assert err == f'attnmt: error: {src}:1: expected an object with a "text" string, e.g. {{"text": "A dog runs."}}\n'


def test_a_plain_text_source_named_jsonl_is_read_as_text(trained_model, tmp_path, capsys):
    """translate reads a file by its --input-format, not by a .jsonl name: one that does not start as
    its JSONL input is text."""
    src, hyp = tmp_path / "textual.jsonl", tmp_path / "out.de"
    src.write_text("a dog runs\na cat sleeps\n", encoding="utf-8")
    hyp.write_text("ein hund rennt\neine katze schläft\n", encoding="utf-8")
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", str(src), "--hyp", str(hyp), "--no-search"],
                           capsys)
    assert code == 0 and len(out.splitlines()) == 2


@pytest.mark.parametrize("line", ["a dog runs, and a cat sleeps", "a dog runs, and a cat sleeps. the boy laughs."],
                         ids=["one sentence", "with another"])
def test_score_reads_a_sentence_translate_parted_part_by_part_as_translate_scored_it(trained_copy, tmp_path, capsys,
                                                                                     line):
    """A sentence longer than the model was trained on is translated in parts ("a dog runs," and "and
    a cat sleeps") joined by a space; score split the translation by the source's limit instead
    ("ein hund rennt eine katze" and "schläft") and gave translate's 0.9844 as 0.0026; beside
    another sentence, with no stop written to tell them apart, it read the line whole.  The words
    the model writes for the parts are left unchecked: its training's rounding differs by CPU (the
    lower-ISA run's model wrote "ein hund rennt der mann lacht")."""
    from attnmt.trained_lengths import write_longest_source

    write_longest_source(trained_copy, 14)
    source, hyp = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text(line + "\n", encoding="utf-8")
    code, rows, _ = run_cli(["translate", "--model", trained_copy, source, "--output-format", "tsv"], capsys)
    assert code == 0
    _, _, _, _, text, quality, flags = rows.splitlines()[0].split("\t")
    hyp.write_text(text + "\n", encoding="utf-8")
    code, scored, _ = run_cli(["score", "--model", trained_copy, "--src", source, "--hyp", hyp, "--output-format",
                               "tsv"], capsys)
    assert code == 0 and scored.split("\t")[1:3] == [quality, flags]


def test_score_reads_translates_sentences_joined_without_stops_sentence_by_sentence(trained_model, tmp_path, capsys):
    """The model writes no full stop: translate's "ein hund rennt eine katze schläft" for "a dog runs. a
    cat sleeps." (0.9994, two sentences read) has one sentence, and score read the line whole: 0.0189."""
    source, hyp = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("a dog runs. a cat sleeps.\n", encoding="utf-8")
    code, rows, _ = run_cli(["translate", "--model", trained_model, source, "--output-format", "tsv"], capsys)
    assert code == 0
    _, _, _, _, text, quality, flags = rows.splitlines()[0].split("\t")
    assert text == "ein hund rennt eine katze schläft"
    hyp.write_text(text + "\n", encoding="utf-8")
    code, scored, _ = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", hyp, "--output-format",
                               "tsv"], capsys)
    assert code == 0 and scored.split("\t")[1:3] == [quality, flags]


@pytest.mark.parametrize("options", [[], ["--no-search"], ["--output-format", "tsv"]])
def test_score_names_a_line_the_model_fails_on_and_scores_the_others(trained_model, failing_on_the_boy, tmp_path,
                                                                     capsys, options):
    """The model's error was a traceback, and no line was scored; translate names such a line and goes on."""
    src, hyp = tmp_path / "in.txt", tmp_path / "out.de"
    src.write_text(f"a dog runs\n{failing_on_the_boy}\na cat sleeps\n", encoding="utf-8")
    hyp.write_text("ein hund rennt\nder junge lacht\neine katze schläft\n", encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, *options], capsys)
    assert code == 1
    assert err == f"attnmt: error: {src}:2: not scored, the model failed on it (RuntimeError: boom); it has no " \
                  "line in the scores\n"
    lines = [row.split("\t")[0] if options[-1:] == ["tsv"] else json.loads(row)["line"] for row in out.splitlines()]
    assert lines == (["1", "3"] if options[-1:] == ["tsv"] else [1, 3])


def test_calibrate_names_a_sentence_the_model_fails_on_in_one_line(trained_copy, failing_on_the_boy, tmp_path,
                                                                   capsys):
    """It was SentencesFailed's traceback."""
    src, ref = write_pairs(tmp_path, "valid", calibration_pairs())
    code, out, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 2 and out == "" and not (trained_copy / "quality.json").exists()
    assert err.startswith("attnmt: error: the model failed on 6 of the 120 sentences to calibrate on, the first "
                          f"'{failing_on_the_boy}' (RuntimeError: boom): leave them out of the set")


def test_score_jsonl_takes_the_languages_its_flags_read(trained_model, tmp_path, capsys):
    """--target-lang with translate's JSONL input was refused as doing nothing; it names the language the
    language flag expects: an English translation of a record given as German is flagged."""
    source, given = tmp_path / "in.jsonl", tmp_path / "given.de"
    source.write_text('{"text": "a man rides a bike"}\n', encoding="utf-8")
    given.write_text("the man is riding on his bike with a friend\n", encoding="utf-8")
    code, out, err = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", given, "--no-search",
                              "--source-lang", "en", "--target-lang", "de"], capsys)
    assert code == 0, err
    assert "language" in json.loads(out)["flags"]
