import bz2
import gzip
import lzma
import re

import pytest
import torch
from support import write

from attnmt.text.data import (
    Batch,
    DataError,
    Example,
    collate,
    decode_lines,
    encode_pairs,
    line_endings,
    read_lines,
    with_endings,
)


class WordTokenizer:
    """Stands in for Tokenizer: one id (7) per whitespace-separated word."""

    def encode_batch(self, texts):
        return [[7] * len(text.split()) for text in texts]

    encode_target_batch = encode_batch


# reading


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


@pytest.mark.parametrize(("latin1", "named"), [(b"Die Stra\xdfe ist nass.\n", "Straße"),
                                              (b"L'\xe9t\xe9 est arriv\xe9.\n", "L'été"),
                                              (b"He said \x93A dog runs.\x94\n", "“A"),  # Word's quotes, no letter
                                              (b"It\x92s a cat \x96 a big one.\n", "It’s")])
def test_a_line_that_reads_as_windows_1252_is_named_with_the_iconv_options_and_its_word(tmp_path, latin1, named):
    """It was "invalid UTF-8 (byte 0xdf); convert the file to UTF-8, e.g. with iconv", which left the user to
    find the file's encoding for iconv's -f."""
    path = tmp_path / "train.de"
    path.write_bytes(b"Ein Hund rennt.\n" + latin1)
    with pytest.raises(DataError, match=rf"train\.de:2: invalid UTF-8 \(byte 0x..\); convert the file to UTF-8, e\.g\. "
                                        rf'with iconv -f WINDOWS-1252 -t UTF-8, if "{named}" is what the line says'):
        read_lines(path)
    with pytest.raises(DataError, match=f'<stdin>:3: .*iconv -f WINDOWS-1252 -t UTF-8, if "{named}"'):
        decode_lines(b"a\nb\n" + latin1, "<stdin>")


@pytest.mark.parametrize("data", ["Собака бежит.\n".encode("cp1251"), b"%\x85\x99\x01\n", b"Gr\xc3\xbc\xc3e\n",
                                  "Grüße\n".encode() + b"Stra\xdfe\n"],
                         ids=["cyrillic", "binary", "damaged-utf8", "utf8-then-latin1"])
def test_a_line_of_another_script_or_after_utf8_gets_no_windows_1252_options(tmp_path, data):
    """Converting a file of UTF-8 (damaged in one place, or mixing encodings) from Windows-1252 would garble
    every letter past ASCII in it."""
    path = tmp_path / "train.ru"
    path.write_bytes(data)
    with pytest.raises(DataError, match=r"train\.ru:\d: invalid UTF-8 \(byte 0x..\); convert the file to UTF-8, "
                                        r"e\.g\. with iconv$"):
        read_lines(path)
    with pytest.raises(DataError, match=r"<stdin>:\d: .* with iconv$"):
        decode_lines(data, "<stdin>")


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


@pytest.mark.parametrize(("suffix", "compress", "kind"), [(".xz", lzma.compress, "xz"),
                                                          (".bz2", bz2.compress, "bzip2")])
@pytest.mark.parametrize("damage", ["cut", "flipped"])
def test_a_damaged_xz_or_bzip2_file_is_named_as_a_damaged_gz_one_is(tmp_path, suffix, compress, kind, damage):
    """A download cut short, or bytes flipped mid-stream: one line naming the file, never lzma's or bz2's traceback."""
    text = "".join(f"A dog number {i} runs through the park.\n" for i in range(400)).encode()
    data = bytearray(compress(text))
    if damage == "cut":
        del data[len(data) // 2:]
    else:
        data[60:120] = bytes(byte ^ 0x5A for byte in data[60:120])
    path = tmp_path / f"train.en{suffix}"
    path.write_bytes(bytes(data))
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: not a valid {kind} file \(.+\)$"):
        read_lines(path)


def test_xz_and_bzip2_files_are_read_as_their_text(tmp_path):
    text = "Ein Hund läuft.\r\nZwei Männer reden.\n"
    (tmp_path / "a.de.xz").write_bytes(lzma.compress(text.encode()))
    (tmp_path / "a.de.bz2").write_bytes(bz2.compress(text.encode()))
    for path in (tmp_path / "a.de.xz", tmp_path / "a.de.bz2"):
        assert read_lines(path) == ["Ein Hund läuft.", "Zwei Männer reden."]
        assert line_endings(path) == ("", ["\r\n", "\n"])


@pytest.mark.parametrize("suffix", [".xz", ".bz2"])
def test_line_endings_name_a_damaged_xz_or_bzip2_file(tmp_path, suffix):
    path = tmp_path / f"in.txt{suffix}"
    path.write_bytes((lzma if suffix == ".xz" else bz2).compress(b"A dog runs.\n" * 200)[:-30] + b"\x00" * 30)
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: not a valid "):
        line_endings(path)


def test_corrupt_gzip_names_the_file(tmp_path):
    path = tmp_path / "broken.gz"
    path.write_bytes(b"not gzip at all")
    with pytest.raises(DataError, match=r"broken\.gz"):
        read_lines(path)


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


def test_the_parallel_readers_still_import_from_here_with_a_warning():
    from attnmt.text import data, parallel_text

    with pytest.warns(DeprecationWarning, match="attnmt.text.data.read_parallel moved to attnmt.text.parallel_text"):
        assert data.read_parallel is parallel_text.read_parallel
    with pytest.raises(AttributeError):
        data.no_such_name  # noqa: B018
