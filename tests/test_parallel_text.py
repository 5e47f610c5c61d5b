"""Parallel text read into sentence pairs: two aligned files or one tsv file, stripped, the empty pairs and the
lines too long to read counted, files of different line counts named with both counts."""

import csv
import gzip
import io
import re
import tracemalloc

import pytest
from support import write

from attnmt.errors import DataError
from attnmt.text import parallel_text
from attnmt.text.parallel_text import ReadReport, check_parallel_files, read_parallel, read_tsv, stream_tsv


def test_read_parallel_pairs_lines_and_strips_them(tmp_path):
    src = write(tmp_path / "a.en", "Hello world\n  Two dogs \r\n")
    tgt = write(tmp_path / "a.de", "Hallo Welt\nZwei Hunde\n")
    pairs, report = read_parallel(src, tgt)
    assert pairs == [("Hello world", "Hallo Welt"), ("Two dogs", "Zwei Hunde")]
    assert report == ReadReport(pairs=2, skipped_empty=0)


def test_line_count_mismatch_names_both_files_and_counts(tmp_path):
    src = write(tmp_path / "three.en", "a\nb\nc\n")
    tgt = write(tmp_path / "two.de", "a\nb\n")
    with pytest.raises(DataError, match=r"three\.en has 3 lines, .*two\.de has 2"):
        read_parallel(src, tgt)


@pytest.mark.parametrize("extra", ["\n", "\n  \n\t\n"])
def test_blank_lines_past_the_other_files_end_are_empty_pairs_not_a_mismatch(tmp_path, extra):
    """An editor's empty last line in one file was "a.en has 3 lines, a.de has 2", the pairs aligned."""
    src = write(tmp_path / "a.en", "A dog runs.\nTwo men talk.\n" + extra)
    tgt = write(tmp_path / "a.de", "Ein Hund rennt.\nZwei Männer reden.\n")
    for first, second in ((src, tgt), (tgt, src)):
        pairs, report = read_parallel(first, second)
        assert len(pairs) == 2 and report == ReadReport(pairs=2, skipped_empty=extra.count("\n"))


def test_a_line_of_text_after_blank_lines_past_the_other_files_end_is_a_mismatch_counting_every_line(tmp_path):
    src = write(tmp_path / "a.en", "A dog runs.\nTwo men talk.\n\nA cat sleeps.\n\n")
    tgt = write(tmp_path / "a.de", "Ein Hund rennt.\nZwei Männer reden.\n")
    with pytest.raises(DataError, match=r"a\.en has 5 lines, .*a\.de has 2;"):
        read_parallel(src, tgt)
    with pytest.raises(DataError, match=r"a\.de has 2 lines, .*a\.en has 5;"):
        read_parallel(tgt, src)


def test_aligned_files_are_found_so_by_counting_their_lines_without_reading_them_as_pairs(tmp_path, monkeypatch):
    """What check_parallel_files costs a run whose files are aligned: a count of their bytes "\\n" and a check of their
    UTF-8 (a character cut between two chunks is whole), not a reading as lines."""
    monkeypatch.setattr(parallel_text, "COUNT_CHUNK", 4)  # lines and blank tails across the chunks' ends
    monkeypatch.setattr(parallel_text, "stream_parallel", lambda *files: pytest.fail("read as pairs"))
    src = tmp_path / "a.en.gz"
    src.write_bytes(gzip.compress(b"A dog runs.\nTwo men talk.\n\n \t\n"))
    tgt = write(tmp_path / "a.de", "Ein Hund rennt.\nZwei Männer reden.")
    check_parallel_files(src, tgt)
    check_parallel_files(tgt, src)


@pytest.mark.parametrize(("src_text", "tgt_text", "counts"), [
    ("a\nb\nc\n", "a\nb\n", (3, 2)), ("a\nb", "a\nb\n\nc\n", (2, 4)), ("a\rb\rc\r", "a\nb\n", (3, 2)),
    ("a\rb\rc\r", "a\rb\r", (3, 2))])
def test_misaligned_files_are_named_with_the_line_counts_their_reading_gives(tmp_path, src_text, tgt_text, counts):
    src, tgt = write(tmp_path / "a.en", src_text), write(tmp_path / "a.de", tgt_text)
    with pytest.raises(DataError, match=rf"a\.en has {counts[0]} lines, .*a\.de has {counts[1]};"):
        check_parallel_files(src, tgt)


@pytest.mark.parametrize("damaged", ["a.en", "a.de"])
def test_aligned_files_with_a_line_that_is_no_utf8_are_named_at_that_line(tmp_path, damaged):
    """With a tokenizer given, the pairs before it were tokenised first: hours, for a line deep in a large corpus."""
    src = write(tmp_path / "a.en", "A dog runs.\nTwo men talk.\nA café.\n")
    tgt = write(tmp_path / "a.de", "Ein Hund rennt.\nZwei Männer reden.\nEin Café.\n")
    path = tmp_path / damaged
    path.write_bytes(path.read_bytes().replace("é".encode(), b"\xe9"))  # its line 3 saved as Windows-1252
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}:3: invalid UTF-8 \(byte 0xe9\)"):
        check_parallel_files(src, tgt)


def test_files_the_count_of_their_bytes_cannot_align_are_read_as_pairs_to_tell(tmp_path):
    """A file of CR-ended lines has no "\\n"; a line of U+3000 alone is blank to str.strip, not to bytes.strip."""
    check_parallel_files(write(tmp_path / "a.en", "a\rb\rc\r"), write(tmp_path / "a.de", "a\nb\nc\n"))
    check_parallel_files(write(tmp_path / "b.en", "a\nb\n\u3000\n"), write(tmp_path / "b.de", "a\nb\n"))


def test_pairs_with_an_empty_or_blank_side_are_skipped_and_counted(tmp_path):
    src = write(tmp_path / "a.en", "one\n\n   \nfour\nfive\n")
    tgt = write(tmp_path / "a.de", "eins\nzwei\ndrei\n \t \nfünf\n")
    pairs, report = read_parallel(src, tgt)
    assert pairs == [("one", "eins"), ("five", "fünf")]
    assert (report.pairs, report.skipped_empty) == (2, 3)


def test_read_tsv_splits_at_the_tab_and_skips_empty_lines(tmp_path):
    path = write(tmp_path / "a.tsv", "Hello world\tHallo Welt\n\nTwo dogs \t Zwei Hunde\n")
    pairs, report = read_tsv(path)
    assert pairs == [("Hello world", "Hallo Welt"), ("Two dogs", "Zwei Hunde")]
    assert (report.pairs, report.skipped_empty) == (2, 1)


def test_a_tsv_file_mostly_without_exactly_one_tab_is_refused_naming_its_first_such_line(tmp_path):
    path = write(tmp_path / "a.tsv", "a\tb\nno tab here\nnor here\n")
    with pytest.raises(DataError, match=r"a\.tsv:2: .*found 0 tabs \(2 of its 3 lines with text have not one tab\)"):
        read_tsv(path)
    path = write(tmp_path / "b.tsv", "a\tb\tc\n")
    with pytest.raises(DataError, match=r"b\.tsv:1: .*found 2 tabs; a file of more columns"):
        read_tsv(path)


def test_a_tsv_line_with_a_tab_inside_a_sentence_is_skipped_and_counted_with_its_line(tmp_path):
    """One such line among thousands of pairs stopped the whole run: "train.tsv:3: expected 'source<TAB>target'
    with exactly one tab, found 3 tabs"."""
    path = write(tmp_path / "train.tsv", "A dog runs.\tEin Hund rennt.\n\nName:\tAnna\tName:\tAnna\n"
                                         "Two men talk.\tZwei Männer reden.\n")
    pairs, report = read_tsv(path)
    assert pairs == [("A dog runs.", "Ein Hund rennt."), ("Two men talk.", "Zwei Männer reden.")]
    assert report == ReadReport(pairs=2, skipped_empty=1, malformed=1, first_malformed=3)


def test_a_tsv_a_spreadsheet_or_pandas_saved_is_read_as_the_text_its_cells_hold(tmp_path):
    """Excel, LibreOffice and pandas (csv.QUOTE_MINIMAL) quote a cell holding a quote or a tab, its quotes
    doubled: the model trained on '"She said ""hi"" to him."', and a cell with a tab made its line one of three
    fields, left out.  A corpus's own quotes (speech, '"Go!"') are kept as written."""
    cells = [('She said "hi" to him.', "Sie sagte „hi“ zu ihm."), ("Name:\tAnna", "Name:\tAnna"),
             ('"Go!"', '"Geh!"'), ('"Hello," he said.', "„Hallo“, sagte er.")]
    saved = io.StringIO()
    csv.writer(saved, dialect="excel-tab", lineterminator="\r\n").writerows(cells)
    spreadsheet = write(tmp_path / "sheet.tsv", saved.getvalue())
    assert read_tsv(spreadsheet) == (cells, ReadReport(pairs=4, skipped_empty=0))
    corpus = write(tmp_path / "corpus.tsv", '"Go!"\t"Geh!"\n"Hello," he said.\t„Hallo“, sagte er.\n')
    assert read_tsv(corpus)[0] == cells[2:]


def test_a_cell_excel_quoted_for_its_comma_is_its_text_in_a_file_of_such_quoting_alone(tmp_path):
    """Excel's "Text (Tab delimited)" quotes a cell with a comma: every such sentence was trained on in quotes.
    In quotes whole, such a field is a corpus's quoted speech too; a file whose every quote is a spreadsheet's
    reads as one's, and one with a quote of its own ('"Hello," he said.') as written."""
    excel = write(tmp_path / "excel.tsv", '"A cat, a dog."\tEine Katze, ein Hund.\r\n"Say ""hi""."\tSag „hi“.\r\n')
    assert read_tsv(excel)[0] == [("A cat, a dog.", "Eine Katze, ein Hund."), ('Say "hi".', "Sag „hi“.")]
    corpus = write(tmp_path / "corpus.tsv",
                   '"A cat, a dog."\t"Eine Katze, ein Hund."\n"Hi," he said.\t„Hi“, sagte er.\n')
    assert read_tsv(corpus)[0][0] == ('"A cat, a dog."', '"Eine Katze, ein Hund."')


def test_a_tsv_of_every_field_quoted_is_read_as_its_cells_whether_quotes_are_doubled_or_escaped(tmp_path):
    """pandas' to_csv(quoting=csv.QUOTE_ALL) doubles a quote in a cell, R's write.table (qmethod "escape", its
    default) writes it as \\": one such cell among the first thousand lines and every sentence of R's file was
    trained on in its quotes.  A backslash of the text's own stays."""
    cells = [("A dog runs in the park.", "Ein Hund rennt im Park."), ('She said "hi" to him.', 'Sie sagte "hallo".'),
             ("Two men, one woman.", "Zwei Männer, eine Frau."), ("Open C:\\Temp\\", "Öffne C:\\Temp\\")]
    pandas = io.StringIO()
    csv.writer(pandas, delimiter="\t", quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(cells)
    r_lines = "".join("\t".join('"' + cell.replace('"', '\\"') + '"' for cell in pair) + "\n" for pair in cells)
    assert '"She said \\"hi\\" to him."\t' in r_lines
    for name, text in (("pandas.tsv", pandas.getvalue()), ("r.tsv", r_lines)):
        assert read_tsv(write(tmp_path / name, text)) == (cells, ReadReport(pairs=4, skipped_empty=0))


def test_a_cell_holding_a_line_break_is_one_sentence_and_the_other_cells_are_unquoted(tmp_path):
    """pandas' to_csv(quoting=csv.QUOTE_ALL), Excel and R write a cell's line break as it is: its first line,
    a quote opened and not closed, told the file was no spreadsheet's, and every sentence kept its quotes."""
    cells = [("A dog runs.", "Ein Hund rennt."), ("A dog runs.\nIt is fast.", "Ein Hund rennt.\r\nEr ist schnell."),
             ('She said "hi".', 'Sie sagte "hallo".')]
    pandas = io.StringIO()
    csv.writer(pandas, delimiter="\t", quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(cells)
    pairs, report = read_tsv(write(tmp_path / "pandas.tsv", pandas.getvalue()))
    assert pairs == [cells[0], ("A dog runs. It is fast.", "Ein Hund rennt. Er ist schnell."), cells[2]]
    assert report == ReadReport(pairs=3, skipped_empty=0)


def test_a_cell_whose_quote_never_closes_in_a_quoted_file_is_named_by_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel_text, "TSV_SAMPLE", 2)  # the quoting is told from the first two lines
    path = write(tmp_path / "cut.tsv", '"a"\t"b"\n"c"\t"d"\n"e"\t"f\ng\n')
    with pytest.raises(DataError, match=r"cut\.tsv:3: a cell opened in quotes on this line is not closed within 2 "):
        read_tsv(path)


def test_a_report_shared_by_tsv_files_judges_each_file_on_its_own_lines(tmp_path):
    """One ReadReport counts a run's corpora in turn: a small file after one with lines skipped was
    refused as mostly malformed for the other file's lines."""
    first = write(tmp_path / "a.tsv", "a\tb\n" * 10 + "x\ty\tz\n" * 3)
    second = write(tmp_path / "b.tsv", "c\td\n" * 2)
    report = ReadReport(pairs=0, skipped_empty=0)
    pairs = [*stream_tsv(first, report), *stream_tsv(second, report)]
    assert (len(pairs), report.malformed, report.first_malformed) == (12, 3, 11)


def test_a_tsv_file_mostly_of_three_columns_is_refused_after_its_first_thousand_lines(tmp_path, monkeypatch):
    """A scored corpus (source, target, score) is no tsv of pairs: it stops before the rest is read."""
    read = []
    monkeypatch.setattr(parallel_text, "corpus_lines", lambda path: (read.append(line) or line for line in
                                                                     ["A dog.\tEin Hund.\t0.9"] * 5000))
    with pytest.raises(DataError, match=r"x\.tsv:1: .*found 2 tabs \(1000 of its 1000 lines with text have not one "
                                        r"tab\); a file of more columns \(scores, ids\) is given as its two sentence "
                                        r"columns alone, cut out with cut -f$"):
        read_tsv("x.tsv")
    assert len(read) == 2 * parallel_text.TSV_SAMPLE + 1  # the first lines twice: spreadsheet_quoting reads them


def test_corpus_files_whose_lines_end_in_cr_alone_are_read_line_by_line(tmp_path):
    """Classic Mac OS and Excel's "Text (Macintosh)" end lines in CR alone: such a corpus was one line, "a.en
    has 1 lines, a.de has 3" (or, both sides so, one pair too long to keep, and SentencePiece's INTERNAL error)."""
    src = write(tmp_path / "a.en", "A dog runs.\rTwo men talk.\rA girl sings.\r")
    tgt = write(tmp_path / "a.de", "Ein Hund rennt.\nZwei Männer reden.\nEin Mädchen singt.\n")
    pairs, _ = read_parallel(src, tgt)
    assert pairs == [("A dog runs.", "Ein Hund rennt."), ("Two men talk.", "Zwei Männer reden."),
                     ("A girl sings.", "Ein Mädchen singt.")]
    tsv = write(tmp_path / "a.tsv", "A dog runs.\tEin Hund rennt.\rTwo men talk.\tZwei Männer reden.")
    assert read_tsv(tsv)[0] == [("A dog runs.", "Ein Hund rennt."), ("Two men talk.", "Zwei Männer reden.")]


def test_a_corpus_line_of_20_mb_is_skipped_and_counted_without_being_held_whole(tmp_path):
    """A whole document pasted on one line was read, decoded and tokenised before the length filter
    dropped it: memory grew by several times its size."""
    src = write(tmp_path / "train.en", "A dog runs.\n" + "word " * 4_000_000 + "\nTwo men talk.\n")
    tgt = write(tmp_path / "train.de", "Ein Hund rennt.\nEin Dokument.\nZwei Männer reden.\n")
    tracemalloc.start()
    try:
        pairs, report = read_parallel(src, tgt)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert pairs == [("A dog runs.", "Ein Hund rennt."), ("Two men talk.", "Zwei Männer reden.")]
    assert report == ReadReport(pairs=2, skipped_empty=0, skipped_long=1)
    assert peak < 8 * 2**20  # the line is 20 MB; it is read 1 MiB at a time


def test_a_tsv_line_over_a_mebibyte_is_skipped_as_too_long_not_as_empty(tmp_path):
    path = write(tmp_path / "train.tsv", "A dog.\tEin Hund.\n" + "word " * 300_000 + "\tText.\n\n")
    assert read_tsv(path) == ([("A dog.", "Ein Hund.")], ReadReport(pairs=1, skipped_empty=1, skipped_long=1))


def test_a_cr_inside_a_line_of_a_corpus_of_several_lines_stays_in_it(tmp_path):
    src = write(tmp_path / "a.en", "A dog\rruns.\nTwo men talk.\n")
    tgt = write(tmp_path / "a.de", "Ein Hund rennt.\nZwei Männer reden.\n")
    assert read_parallel(src, tgt)[0] == [("A dog\rruns.", "Ein Hund rennt."), ("Two men talk.", "Zwei Männer reden.")]


def test_read_tsv_leaves_out_the_empty_columns_a_spreadsheet_ends_its_rows_in(tmp_path):
    """A sheet saved as tab-separated text writes a tab for each empty column of its used range: every
    row was refused, "expected 'source<TAB>target' with exactly one tab, found 3 tabs"."""
    path = write(tmp_path / "a.tsv", "A dog runs.\tEin Hund rennt.\t\t\nTwo men talk.\t\t \n")
    pairs, report = read_tsv(path)
    assert pairs == [("A dog runs.", "Ein Hund rennt.")]
    assert (report.pairs, report.skipped_empty) == (1, 1)  # the second row's target is empty
    path = write(tmp_path / "b.tsv", "A dog runs.\tEin Hund rennt.\t(note)\n")
    with pytest.raises(DataError, match=r"b\.tsv:1: .*found 2 tabs"):  # a third column with text is no empty one
        read_tsv(path)


@pytest.mark.parametrize(("name", "text", "hint"), [
    ("pairs.csv", "A dog runs.,Ein Hund rennt.\n", "a CSV file is not read: save it tab-separated (TSV)"),
    ("pairs.csv.gz", "A dog runs.;Ein Hund rennt.\n", "a CSV file is not read: save it tab-separated (TSV)"),
    ("train.jsonl", '{"translation": {"en": "A dog runs.", "de": "Ein Hund rennt."}}\n',
     "a JSON Lines file (as Hugging Face datasets export a corpus) is not read: write its two sides as "
     "'source<TAB>target' lines, e.g. jq -r '[.translation.en, .translation.de] | @tsv'"),
    ("train.en", "A dog runs.\n", "a file of one side's sentences, one a line, is given with the other as train_src "
                                   "and train_tgt")])
def test_a_tsv_line_without_a_tab_says_what_the_file_may_be_instead(tmp_path, name, text, hint):
    """It was "expected 'source<TAB>target' with exactly one tab, found 0 tabs" alone."""
    path = tmp_path / name
    path.write_bytes(gzip.compress(text.encode()) if name.endswith(".gz") else text.encode())
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}:1: expected 'source<TAB>target' with exactly one "
                                        rf"tab, found 0 tabs; {re.escape(hint)}$"):
        read_tsv(path)
