"""attnmt evaluate: scores of a model's translations, or of any of translate's outputs (--hyp),
against one reference or more; what it refuses, in one line."""

import io
import json
import subprocess
import sys

import pytest
import sacrebleu
from support import PAIRS, run_cli, write_pairs

run = run_cli

REFS = ["ein hund rennt über die wiese", "", "zwei katzen schlafen auf dem sofa"]


def write(path, lines: list[str]):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def chrf_of(out: str) -> float:
    """chrF from --json (BLEU needs 4-grams, and the short lines here have few)."""
    return json.loads(out)[1]["score"]


def test_evaluate_prints_bleu_chrf_ter_as_sacrebleu_json(trained_model, tmp_path, capsys):
    src, ref = write_pairs(tmp_path, "test", PAIRS[:5])
    code, out, _ = run(["evaluate", "--model", trained_model, "--src", src, "--ref", ref, "--json"], capsys)
    bleu, chrf, ter = json.loads(out)
    assert code == 0
    assert (bleu["name"], chrf["name"], ter["name"]) == ("BLEU", "chrF2", "TER")
    assert bleu["score"] == pytest.approx(100.0) and ter["score"] == pytest.approx(0.0)
    assert "nrefs:1" in bleu["signature"] and "nc:6" in chrf["signature"]


@pytest.mark.parametrize("width", [[], ["--width", "2"], ["--width", "0"]])
def test_json_is_what_the_sacrebleu_command_prints_byte_for_byte(tmp_path, capsys, width):
    """Its scores had 2 decimals (chrF 43.79, TER 38.46) where sacrebleu -f json prints 1 (43.8, 38.5).
    The command runs in a process of its own: it reopens stdin and stdout by their descriptors."""
    hyp = write(tmp_path / "hyp.txt", ["the cat sat on the mat", "a dog runs through the green park"])
    ref = write(tmp_path / "ref.txt", ["the cat sat on a mat", "a dog is running in the park"])
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref, "--json", *width], capsys)
    command = [sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-m", "bleu", "chrf", "ter", "-f", "json", *width]
    assert code == 0 and out == subprocess.run(command, capture_output=True, text=True, check=True).stdout


def test_width_sets_the_decimals_of_the_text_lines_too(tmp_path, capsys):
    hyp = write(tmp_path / "hyp.txt", ["the cat sat on the mat", "a dog runs through the green park"])
    ref = write(tmp_path / "ref.txt", ["the cat sat on a mat", "a dog is running in the park"])
    _, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref], capsys)
    assert [line.split(" (")[0] for line in out.splitlines()] == ["BLEU = 29.90", "chrF = 43.79", "TER = 38.46"]
    _, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref, "--width", "3"], capsys)
    assert [line.split(" (")[0] for line in out.splitlines()] == ["BLEU = 29.900", "chrF = 43.785", "TER = 38.462"]


def test_evaluate_scores_an_existing_hypothesis_file(tmp_path, capsys):
    hyp, ref = write_pairs(tmp_path, "test", [("ein hund rennt", "ein hund rennt"), ("zwei katzen", "zwei hunde")])
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref], capsys)
    assert code == 0 and out.startswith("BLEU = ") and "chrF = " in out and "TER = " in out
    code, _, err = run(["evaluate", "--ref", ref], capsys)
    assert code == 2 and "nothing to score" in err


def test_evaluate_scores_translate_jsonl_output_by_its_best_hypotheses(tmp_path, capsys):
    """The JSON text itself was scored against the references (BLEU near 0)."""
    lines = [{"line": 1, "hypotheses": [{"text": "ein hund rennt", "score": -1.0}, {"text": "x", "score": -2.0}]},
             {"line": 2, "hypotheses": []}, {"line": 3, "hypotheses": [{"text": "zwei hunde", "score": None}]}]
    hyp = tmp_path / "out.jsonl"
    hyp.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("ein hund rennt\n\nzwei hunde\n", encoding="utf-8")
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref, "--json"], capsys)
    assert code == 0 and json.loads(out)[1]["score"] == pytest.approx(100.0)  # chrF: BLEU needs 4-grams
    hyp.write_text(json.dumps(lines[0]) + "\nein hund\nzwei hunde\n", encoding="utf-8")
    code, _, err = run(["evaluate", "--hyp", hyp, "--ref", ref], capsys)
    assert code == 2 and f"{hyp}, line 2: not a line of attnmt translate's JSONL output" in err


@pytest.mark.parametrize("numbers, message", [
    ([2, 1, 3], "line 1: an object of line 2, as the first: attnmt translate writes the lines in order"),
    ([1, 3, 2], "line 2: an object of line 3, after one of line 1: attnmt translate writes the lines in order"),
    ([1, 2, 2], "line 3: an object of line 2, after one of line 2"),
    ([1, "2", 3], 'line 2: its "line" is "2", not a line number'),
], ids=["reversed", "a line left out", "a line twice", "a string"])
def test_a_jsonl_file_whose_line_numbers_are_out_of_order_is_refused(tmp_path, capsys, numbers, message):
    """``tac out.jsonl`` was scored by position, each translation against another line's
    reference, exit 0, where a TSV file out of order is refused."""
    texts = ["ein hund rennt", "", "zwei hunde"]
    hyp = write(tmp_path / "out.jsonl", [json.dumps({"line": number, "hypotheses": [{"text": text}] if text else []})
                                         for number, text in zip(numbers, texts, strict=True)])
    code, _, err = run(["evaluate", "--hyp", hyp, "--ref", write(tmp_path / "ref.txt", texts)], capsys)
    assert code == 2 and err.count("\n") == 1 and f"{hyp}, {message}" in err


def test_a_jsonl_file_without_line_numbers_is_scored_by_position(tmp_path, capsys):
    """A file written by hand, not by translate, may leave "line" out: each object is where it stands."""
    texts = ["ein hund rennt", "", "zwei hunde"]
    hyp = write(tmp_path / "out.jsonl", [json.dumps({"hypotheses": [{"text": text}] if text else []})
                                         for text in texts])
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", write(tmp_path / "ref.txt", texts), "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)


def test_a_json_line_whose_hypotheses_are_not_objects_with_a_text_is_scored_as_text(tmp_path, capsys):
    """It was taken for translate's JSONL, then refused: "line 1: not a line of attnmt translate's
    JSONL output ..., as line 1 is"."""
    lines = ['{"Titel": "ein hund", "hypotheses": ["x"]}', "zwei hunde"]
    code, out, _ = run(["evaluate", "--hyp", write(tmp_path / "hyp.txt", lines),
                        "--ref", write(tmp_path / "ref.txt", lines), "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)


def test_evaluate_scores_translate_tsv_output_by_each_lines_rank_1(tmp_path, capsys):
    """The rows were scored as text, line and rank numbers, scores and all (BLEU 22 for 34), exit 0."""
    ref = write(tmp_path / "ref.txt", REFS)
    rows = ["1\t1\t-0.5000\t-1.0000\tein hund rennt über die wiese\t0-0 1-1\t0.91\t-",
            "1\t2\t-0.9000\t-2.0000\tein hund läuft\t0-0\t0.52\tlow_quality",  # --n-best 2: rank 2 is not scored
            "3\t1\t-inf\t-inf\tzwei katzen schlafen auf dem sofa\t\t1.0\t-"]  # line 2 blank: no row
    hyp = write(tmp_path / "out.tsv", rows)
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref, "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)
    write(hyp, [rows[0], "2\t1\t-0.1000\t-0.1000\tescaped \\t tab\t\t0.9\t-", rows[2]])
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", write(tmp_path / "tab.txt", [REFS[0], "escaped \t tab",
                                                                                       REFS[2]]), "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)


def test_a_tsv_file_of_input_that_ended_in_blank_lines_is_scored(tmp_path, capsys):
    """Blank input lines at the end have no row: the file held rows up to line 3 of 5 and was refused."""
    rows = ["1\t1\t-0.5000\t-1.0000\tein hund rennt über die wiese\t0.91\t-",
            "3\t1\t-0.5000\t-1.0000\tzwei katzen schlafen auf dem sofa\t0.90\t-"]
    hyp = write(tmp_path / "out.tsv", rows)
    ref = write(tmp_path / "ref.txt", [*REFS, "", " "])
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref, "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)
    write(ref, [*REFS, "", "ein satz"])  # the reference goes on with a sentence: a file cut short
    code, _, err = run(["evaluate", "--hyp", hyp, "--ref", ref], capsys)
    assert code == 2 and f"{hyp} has rows up to line 3 but {ref} has 5" in err


@pytest.mark.parametrize("rows, message", [
    (["1\t1\t-0.5\t-1.0\tein hund\t0.9\t-", "a plain line"], "line 2: not a row of attnmt translate's TSV output"),
    (["1\t1\t-0.5\t-1.0\tein hund\t0.9\t-", "2\t1\t-0.5\t-1.0\tkatzen\t-"], "line 2: not a row"),  # a column short
    (["1\t1\t-0.5\t-1.0\tein hund\t0.9\t-", "1\t3\t-0.5\t-1.0\tein\t0.9\t-"], "line 2: a row of line 1, rank 3, after"),
    (["2\t1\t-0.5\t-1.0\tein hund\t0.9\t-", "1\t1\t-0.5\t-1.0\tein\t0.9\t-"], "line 2: a row of line 1, rank 1, after"),
    (["1\t1\t-0.5\t-1.0\tein hund\t0.9\t-"], "has rows up to line 1 but {ref} has 3: evaluate needs exactly one"),
    (["1\t1\t-0.5\t-1.0\tein hund\t0.9\t-", "2\t1\t" + "x" * 5000 + "\t-1.0\tkatzen\t0.9\t-"],
     "its score 'xxxx"),  # cut: the line is short (the test's length check)
])
def test_a_tsv_file_that_does_not_fit_is_refused_naming_the_line(tmp_path, capsys, rows, message):
    ref = write(tmp_path / "ref.txt", REFS)
    hyp = write(tmp_path / "out.tsv", rows)
    code, _, err = run(["evaluate", "--hyp", hyp, "--ref", ref], capsys)
    assert code == 2 and err.count("\n") == 1 and message.format(ref=ref) in err and len(err) < 500


def test_evaluate_scores_the_translations_of_alignments_output(tmp_path, capsys):
    """``translation ||| 0-0 1-1`` was scored whole, the pairs as words (BLEU 7.6 for 34), exit 0."""
    ref = write(tmp_path / "ref.txt", REFS)
    hyp = write(tmp_path / "out.al", [f"{REFS[0]} ||| 0-0 1-1 2-2 3-3", " ||| ", f"{REFS[2]} ||| 0-0 1-1"])
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref, "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)
    write(hyp, [f"{REFS[0]} ||| 0-0", REFS[1], REFS[2]])
    code, _, err = run(["evaluate", "--hyp", hyp, "--ref", ref], capsys)
    assert code == 2 and f"{hyp}, line 2: not a line of attnmt translate's --alignments output" in err


def test_a_plain_translation_holding_a_tab_or_bars_is_scored_as_text(tmp_path, capsys):
    lines = ["12\t34", "a ||| b", "1\t1\t0.5\tnot a score\tx"]
    code, out, _ = run(["evaluate", "--hyp", write(tmp_path / "hyp.txt", lines),
                        "--ref", write(tmp_path / "ref.txt", lines), "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)


def test_each_ref_is_a_reference_of_its_own_as_sacrebleu_scores_them(tmp_path, capsys):
    """A second --ref replaced the first: nrefs:1, and the score against the second alone."""
    hyps = ["ein hund rennt über die grüne wiese", "zwei katzen schlafen auf dem roten sofa"]
    first = ["ein hund läuft über die wiese", "zwei katzen schlafen auf einem sofa"]
    second = ["ein hund rennt über eine grüne wiese", "zwei kleine katzen schlafen auf dem sofa"]
    hyp, ref1, ref2 = (write(tmp_path / name, lines) for name, lines in
                       (("hyp", hyps), ("ref1", first), ("ref2", second)))
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref1, "--ref", ref2, "--json"], capsys)
    bleu, chrf, ter = json.loads(out)
    assert code == 0 and "nrefs:2" in bleu["signature"] and "nrefs:2" in chrf["signature"]
    assert bleu["score"] == round(sacrebleu.corpus_bleu(hyps, [first, second]).score, 1)
    assert chrf["score"] == round(sacrebleu.corpus_chrf(hyps, [first, second]).score, 1)
    assert ter["score"] == round(sacrebleu.corpus_ter(hyps, [first, second]).score, 1)
    write(ref2, second[:1])
    code, _, err = run(["evaluate", "--hyp", hyp, "--ref", ref1, "--ref", ref2], capsys)
    assert code == 2 and f"{hyp} has 2 lines but {ref2} has 1" in err


def test_options_of_the_model_and_its_search_are_refused_with_hyp(tmp_path, capsys):
    """They were ignored: --weights naming no file, --int8, a sampling search, and the score of the file."""
    hyp, ref = write_pairs(tmp_path, "test", [("ein hund rennt", "ein hund rennt")])
    code, _, err = run(["evaluate", "--hyp", hyp, "--ref", ref, "--int8", "--weights", "nosuch.safetensors",
                        "--beam", "5", "--sampling-topk", "5"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--hyp scores translations already made: --weights, --beam, --sampling-topk and --int8 would do " \
           "nothing" in err


@pytest.mark.parametrize("option", [["--beam", "4"], ["--max-tokens", "4096"], ["--threads", "0"],
                                    ["--device", "cpu"]])
def test_options_of_the_model_given_at_their_default_are_refused_with_hyp(tmp_path, capsys, option):
    """Only a value other than the default was caught: --beam 4 and --max-tokens 4096 (the
    defaults) were taken without a word and did nothing."""
    hyp, ref = write_pairs(tmp_path, "test", [("ein hund rennt", "ein hund rennt")])
    code, out, err = run(["evaluate", "--hyp", hyp, "--ref", ref, *option], capsys)
    assert (code, out) == (2, "")
    assert err == (f"attnmt: error: --hyp scores translations already made: {option[0]} would do nothing (it "
                   "chooses the model and how it translates --src): leave it out\n")


def test_verbose_is_no_model_option_and_goes_with_hyp(tmp_path, capsys):
    hyp, ref = write_pairs(tmp_path, "test", [("ein hund rennt", "ein hund rennt")])
    code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref, "--verbose"], capsys)
    assert code == 0 and out.startswith("BLEU = ")


def test_hyp_and_src_read_stdin_for_a_dash(tmp_path, capsys, monkeypatch):
    """It was "cannot read -: no such file or directory"."""
    ref = write(tmp_path / "ref.txt", REFS)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("\n".join(REFS).encode() + b"\n")))
    code, out, _ = run(["evaluate", "--hyp", "-", "--ref", ref, "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)
    import attnmt.cli.commands.evaluate as evaluate

    monkeypatch.setattr(evaluate, "load_for_translation", lambda args: (None, None, 0))
    monkeypatch.setattr(evaluate, "translated_whole", lambda model, tokenizer, lines, *a: list(lines))  # a copier
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("\n".join(REFS).encode() + b"\n")))
    code, out, _ = run(["evaluate", "--model", tmp_path, "--src", "-", "--ref", ref, "--json"], capsys)
    assert code == 0 and chrf_of(out) == pytest.approx(100.0)
    code, _, err = run(["evaluate", "--hyp", "-", "--ref", "-"], capsys)
    assert code == 2 and "--hyp and --ref name stdin (-), which can be read once" in err


def test_a_jsonl_hypothesis_with_an_unpaired_surrogate_is_refused_naming_its_line(tmp_path, capsys):
    """JSON's "\\ud800" alone is no text UTF-8 can hold: it was scored without a word."""
    hyp = tmp_path / "h.jsonl"
    hyp.write_text('{"line": 1, "hypotheses": [{"text": "Ein \\ud800 Hund."}]}\n', encoding="utf-8")
    code, out, err = run(["evaluate", "--hyp", hyp, "--ref", write(tmp_path / "r.de", ["Ein Hund."])], capsys)
    assert (code, out) == (2, "")
    assert err == f'attnmt: error: {hyp}, line 1: the hypothesis\'s "text" is not valid Unicode (it has an unpaired ' \
                  "surrogate)\n"


def test_the_mark_translate_below_quality_wrote_is_no_word_of_the_hypothesis(tmp_path, capsys):
    """``translate --below-quality mark``'s text output (with --alignments too): '[needs review] '
    was scored as two words of the translation (chrF 94.7 for 100), '[needs review]' alone as the
    translation of a line translated empty."""
    ref = write(tmp_path / "ref.txt", REFS)
    marked = [f"[needs review] {REFS[0]}", "[needs review]", REFS[2]]
    for hyp in (write(tmp_path / "marked.txt", marked),
                write(tmp_path / "marked.al", [f"{marked[0]} ||| 2-2", f"{marked[1]} ||| ", f"{marked[2]} ||| 0-0"])):
        code, out, _ = run(["evaluate", "--hyp", hyp, "--ref", ref, "--json"], capsys)
        assert code == 0 and chrf_of(out) == pytest.approx(100.0)
