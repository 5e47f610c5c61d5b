import gzip
import re
import tracemalloc

import pytest
import torch

from attnmt.text.data import (
    Batch,
    DataError,
    Example,
    ReadReport,
    collate,
    decode_lines,
    encode_pairs,
    line_endings,
    read_lines,
    read_parallel,
    read_tsv,
    with_endings,
)


def write(path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


class WordTokenizer:
    """Stands in for Tokenizer: one id (7) per whitespace-separated word."""

    def encode_batch(self, texts):
        return [[7] * len(text.split()) for text in texts]

    encode_target_batch = encode_batch


# reading


def test_read_parallel_pairs_lines_and_strips_them(tmp_path):
    src = write(tmp_path / "a.en", "Hello world\n  Two dogs \r\n")
    tgt = write(tmp_path / "a.de", "Hallo Welt\nZwei Hunde\n")
    pairs, report = read_parallel(src, tgt)
    assert pairs == [("Hello world", "Hallo Welt"), ("Two dogs", "Zwei Hunde")]
    assert report == ReadReport(pairs=2, skipped_empty=0)


def test_read_lines_reads_gzip_by_suffix(tmp_path):
    path = tmp_path / "a.de.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("Grüße\nSchöne Straße\n")
    assert read_lines(path) == ["Grüße", "Schöne Straße"]


def test_read_lines_keeps_inner_whitespace_and_last_line_without_newline(tmp_path):
    path = write(tmp_path / "a.txt", " a \t b \r\nlast")
    assert read_lines(path) == [" a \t b ", "last"]


@pytest.mark.parametrize("text, endings", [("a\nlast", ["\n", ""]), ("a\r\nlast\r\n", ["\r\n", "\r\n"]), ("", []),
                                           ("x", [""]), ("a\r\nb\nc\r\n", ["\r\n", "\n", "\r\n"]),
                                           ("a\rb\r", ["\r"]), ("a\nb\r", ["\n", "\r"]), ("a\r\r\n", ["\r\n"])],
                         ids=["no-last", "crlf", "empty", "one", "mixed", "old-mac", "last-cr", "cr-crlf"])
def test_line_endings_are_what_read_lines_removes_so_the_file_is_written_back_byte_for_byte(tmp_path, text, endings):
    """"a\nlast" and "a\nlast\n" give the same lines; a translation keeps each line's own ending, a
    lone CR that ends the file too (only LF ends a line: "a\rb\r" is one line, "a\rb")."""
    plain, packed = tmp_path / "a.txt", tmp_path / "a.txt.gz"
    plain.write_bytes(text.encode())
    with gzip.open(packed, "wb") as f:
        f.write(text.encode())
    assert line_endings(plain) == ("", endings) == line_endings(packed)
    assert with_endings(read_lines(plain), endings) == text == with_endings(read_lines(packed), endings)


def test_line_endings_name_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfa\r\nb")
    assert line_endings(path) == ("\ufeff", ["\r\n", ""])


def test_with_endings_ends_each_line_of_a_stream_in_lf():
    assert with_endings(["a", "b\r"], None) == "a\nb\r\n"


def test_read_lines_drops_a_utf8_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfHallo\n")
    assert read_lines(path) == ["Hallo"]


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


def test_invalid_utf8_names_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(DataError, match=r"bad\.txt:2: invalid UTF-8"):
        read_lines(path)


@pytest.mark.parametrize("encoding, named", [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE"),
                                             ("utf-16", "UTF-16")])
def test_utf16_is_named_with_how_to_convert_it_not_translated_as_garbage(tmp_path, encoding, named):
    """Without a byte order mark, UTF-16's bytes are valid UTF-8 with a NUL every other byte, and
    were translated; with one, the error was "invalid UTF-8 (byte 0xff)"."""
    data = "A dog runs.\nThe cat sleeps.\n".encode(encoding)
    message = rf"^in\.txt: the text is {named}, not UTF-8 \(.*\); .* iconv -f {named} -t UTF-8$"
    with pytest.raises(DataError, match=message):
        decode_lines(data, "in.txt")
    (tmp_path / "in.txt").write_bytes(data)
    with gzip.open(tmp_path / "in.txt.gz", "wb") as f:
        f.write(data)
    for path in tmp_path / "in.txt", tmp_path / "in.txt.gz":
        with pytest.raises(DataError, match=message.replace(r"in\.txt", re.escape(str(path)))):
            read_lines(path)


@pytest.mark.parametrize("text", ["Собака бежит.\nКошка спит.\n", "一只狗在跑。\n猫在睡觉。\n", "Ο σκύλος τρέχει.\n",
                                  "الكلب يركض.\n", "कुत्ता दौड़ता है।\n"])
@pytest.mark.parametrize("encoding, named", [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
def test_utf16_of_other_scripts_without_a_byte_order_mark_is_named(text, encoding, named):
    """Cyrillic or Greek UTF-16 is valid UTF-8 byte for byte (0x04 0x1f ...), and was translated
    as garbage; CJK's got "invalid UTF-8" without a word of UTF-16."""
    with pytest.raises(DataError, match=rf"^in\.txt: the text is {named}, not UTF-8"):
        decode_lines(text.encode(encoding), "in.txt")


@pytest.mark.parametrize("lines", [["Собака\0бежит.", "一只狗\0在跑。", "\0", "Ο σκύλος\tτρέχει.\0"],
                                   ["people\tPersonen", "\0dog\tHund"], ["dog\tHund\0"]])
def test_utf8_with_a_stray_nul_is_no_utf16(lines):
    """A glossary TSV with one NUL was refused as UTF-16BE: its tabs read as control characters,
    and its bytes as printable CJK."""
    assert decode_lines("".join(line + "\n" for line in lines).encode(), "in.txt") == lines


@pytest.mark.parametrize("control", ["\0", "\f", "\x1b"])
def test_a_long_utf8_text_of_another_script_with_a_stray_control_byte_is_no_utf16(control):
    """Its head, cut inside a two-byte letter, read as invalid UTF-8, and its bytes read as UTF-16
    are printable Hangul and CJK: a Russian file with one NUL line was refused as UTF-16BE."""
    lines = [f"Мужчина {k} в синей рубашке стоит на лестнице." for k in range(150)]
    lines[43] += control + "\0"
    data = "".join(line + "\n" for line in lines).encode()
    assert decode_lines(data, "ru.txt") == lines


@pytest.mark.parametrize("encoding, named", [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
def test_chinese_utf16_is_named_however_many_characters_have_a_zero_byte(encoding, named):
    """一 is U+4E00: its zero byte outnumbered the line breaks' and spaces'."""
    text = "这是一个关于一只小狗的故事。有一天，它在一条小河边遇到了一位老人。\n" * 3
    with pytest.raises(DataError, match=rf"^zh\.txt: the text is {named}, not UTF-8"):
        decode_lines(text.encode(encoding), "zh.txt")


def test_a_nul_here_and_there_is_no_utf16():
    assert decode_lines(b"A dog\0runs.\n\0\n\0\n\0\nThe cat sleeps.\0\n", "in.txt") == [
        "A dog\0runs.", "\0", "\0", "\0", "The cat sleeps.\0"]


@pytest.mark.parametrize("data", [b"a\0b\n", b"N\0A\n", b"k\0v\nk\0v\n", b"a\0b\0c\0d\n"])
def test_a_short_utf8_text_with_a_nul_is_no_latin_utf16(data):
    """``printf 'a\\0b\\n' | attnmt translate`` was refused as UTF-16LE: half its odd bytes are 0.
    Its line feed, read as UTF-16, is the high byte of a letter (U+0A62), where Latin UTF-16 with
    line breaks has them as characters."""
    assert decode_lines(data, "in.txt") == data.decode().split("\n")[:-1]


def test_a_file_of_a_byte_order_mark_alone_has_no_line_as_on_stdin(tmp_path):
    """Notepad's empty UTF-8 file is its byte order mark: read by name it was one blank line
    (``translate --output-format jsonl`` wrote ``{"line": 1, ...}``), from stdin none, as ``wc -l`` counts."""
    path = tmp_path / "empty.txt"
    path.write_bytes(b"\xef\xbb\xbf")
    assert read_lines(path) == decode_lines(path.read_bytes(), "<stdin>") == []


def test_a_gzip_file_without_gz_in_its_name_is_named_gzip_not_invalid_utf8(tmp_path):
    """It was "invalid UTF-8 (byte 0x8b) ... convert the file to UTF-8, e.g. with iconv"."""
    path = tmp_path / "out.txt"
    path.write_bytes(gzip.compress("Grüße\n".encode()))
    with pytest.raises(DataError, match=r"out\.txt: the file is gzip-compressed .* rename it out\.txt\.gz"):
        read_lines(path)


@pytest.mark.parametrize("read", [read_lines, line_endings], ids=["lines", "endings"])
def test_a_gzip_stream_damaged_past_its_header_names_the_file(tmp_path, read):
    """A download cut or damaged mid-stream was zlib's traceback, "zlib.error: Error -3 while decompressing
    data: invalid distance too far back", from every command that read the corpus, and from translating
    such a file (whose line endings are read for writing the translation back)."""
    text = "".join(f"A dog number {i} runs through the park.\n" for i in range(400)).encode()
    data = bytearray(gzip.compress(text, mtime=0))
    data[200:260] = bytes(byte ^ 0x5A for byte in data[200:260])
    path = tmp_path / "train.en.gz"
    path.write_bytes(bytes(data))
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: not a valid gzip file \(Error -3 while "
                                        r"decompressing data: invalid distance too far back\)$"):
        read(path)


def test_corrupt_gzip_names_the_file(tmp_path):
    path = tmp_path / "broken.gz"
    path.write_bytes(b"not gzip at all")
    with pytest.raises(DataError, match=r"broken\.gz"):
        read_lines(path)


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


def test_read_tsv_line_without_exactly_one_tab_names_file_and_line(tmp_path):
    path = write(tmp_path / "a.tsv", "a\tb\nno tab here\n")
    with pytest.raises(DataError, match=r"a\.tsv:2: .*found 0 tabs"):
        read_tsv(path)
    path = write(tmp_path / "b.tsv", "a\tb\tc\n")
    with pytest.raises(DataError, match=r"b\.tsv:1: .*found 2 tabs"):
        read_tsv(path)


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
    ("train.en", "A dog runs.\n", "a file of one side's sentences, one a line, is given with the other as train_src "
                                   "and train_tgt")])
def test_a_tsv_line_without_a_tab_says_what_the_file_may_be_instead(tmp_path, name, text, hint):
    """It was "expected 'source<TAB>target' with exactly one tab, found 0 tabs" alone."""
    path = tmp_path / name
    path.write_bytes(gzip.compress(text.encode()) if name.endswith(".gz") else text.encode())
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}:1: expected 'source<TAB>target' with exactly one "
                                        rf"tab, found 0 tabs; {re.escape(hint)}$"):
        read_tsv(path)


# encoding and collating


def test_encode_pairs_filters_too_long_and_counts_them():
    pairs = [
        ("a b c", "x y"),  # kept: src 3 <= 3, tgt 2 + 1 <= 3
        ("a b c d", "x"),  # src 4 > 3
        ("a", "x y z"),  # tgt 3 + 1 > 3
    ]
    examples, filtered = encode_pairs(pairs, WordTokenizer(), max_len=3)
    assert examples == [Example([7, 7, 7], [7, 7])]
    assert filtered == 2


def test_collate_pads_and_places_bos_and_eos():
    batch = collate([Example([11, 12, 13], [21]), Example([14], [22, 23])])
    assert batch.src.tolist() == [[11, 12, 13], [14, 0, 0]]
    assert batch.tgt_in.tolist() == [[2, 21, 0], [2, 22, 23]]
    assert batch.tgt_out.tolist() == [[21, 3, 0], [22, 23, 3]]
    assert batch.src.dtype == batch.tgt_in.dtype == batch.tgt_out.dtype == torch.long
    assert (len(batch), batch.n_src_tokens, batch.n_tgt_tokens) == (2, 4, 5)


def test_batch_to_moves_tensors_and_keeps_counts():
    batch = collate([Example([11], [21])]).to("cpu")
    assert isinstance(batch, Batch) and batch.src.device.type == "cpu"
    assert (batch.n_src_tokens, batch.n_tgt_tokens) == (1, 2)


def test_lines_of_a_file_that_changed_between_its_two_reads_are_all_written():
    """translate reads a file's lines, then their endings: a line added between the two reads
    raised from the strict zip after the whole translation, and nothing was written."""
    assert with_endings(["a", "b", "c"], ["\r\n", "\r\n"]) == "a\r\nb\r\nc\n"
    assert with_endings(["a"], ["\r\n", "\n"]) == "a\r\n"
