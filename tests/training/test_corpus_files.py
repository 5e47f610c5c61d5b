"""Files given as training or validation text that hold none (a spreadsheet, a document, a TMX memory as one
side): refused in one line saying what each is, before any of it is read as sentences."""

import bz2
import gzip
import lzma
import os
import re
import tarfile
import zipfile

import pytest
from support import PAIRS, plain_spm_model, tiny_config, write_pairs

from attnmt.errors import DataError
from attnmt.text.parallel_text import ReadReport
from attnmt.train_config import CorpusSpec, TrainConfig
from attnmt.training import tokenize_corpora
from attnmt.training.corpus_files import check_corpora_found, check_corpora_text, check_corpus_file
from attnmt.training.start import run_start
from attnmt.training.tokenize_corpora import text_pairs
from attnmt.training.training_data import prepare_config, read_validation_text

TMX = ('\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en"/><body>\n'
       '<tu><tuv xml:lang="en"><seg>A dog runs.</seg></tuv><tuv xml:lang="de"><seg>Ein Hund rennt.</seg></tuv></tu>\n'
       "</body></tmx>\n")


def spreadsheet(path):
    with zipfile.ZipFile(path, "w") as sheet:
        sheet.writestr("xl/workbook.xml", "<workbook/>")
    return path


@pytest.mark.parametrize(("start", "kind"), [
    (bytes.fromhex("d0cf11e0a1b11ae1") + bytes(40), "an Office 97-2003 file (.xls, .doc)"),
    (b"%PDF-1.7\n", "a PDF document"), (b"{\\rtf1\\ansi A dog runs.}", "an RTF document"),
    (b"PAR1\x15\x04\x15\x10", "an Apache Parquet file (as Hugging Face datasets export a corpus)")])
def test_a_document_given_as_text_is_refused_saying_what_it_is(tmp_path, start, kind):
    path = tmp_path / "corpus.en"
    path.write_bytes(start)
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: {re.escape(kind)}, not text: give UTF-8 text "):
        check_corpus_file(path)


def test_a_spreadsheet_as_train_tsv_is_refused_before_a_line_is_read(tmp_path):
    """It was "corpus.xlsx:1: invalid UTF-8 (byte 0x85); convert the file to UTF-8, e.g. with iconv"."""
    path = spreadsheet(tmp_path / "corpus.xlsx")
    with pytest.raises(DataError, match=r"corpus\.xlsx: a zip archive \(an OPUS download, an \.xlsx, \.ods or "
                                        r"\.docx file\), not text: .*its two columns saved as tab-separated UTF-8"):
        next(text_pairs(CorpusSpec(tsv=str(path)), report=ReadReport(0, 0)))


@pytest.mark.parametrize("name", ["memory.tmx", "memory.tmx.gz"])
def test_a_tmx_memory_as_one_side_of_a_corpus_is_refused_saying_how_it_is_read(tmp_path, name):
    """As train_src, its XML lines were read as sentences."""
    path = tmp_path / name
    path.write_bytes(gzip.compress(TMX.encode()) if name.endswith(".gz") else TMX.encode())
    _, tgt = write_pairs(tmp_path, "tr", PAIRS[:3])
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: a TMX translation memory \(XML\), not one "
                                        "sentence a line: a memory is read as a training corpus's one file: give "
                                        "it as train_tsv"):
        next(text_pairs(CorpusSpec(src=str(path), tgt=str(tgt)), report=ReadReport(0, 0)))


@pytest.mark.parametrize(("name", "encoding"), [("memory.tmx", "utf-8"), ("memory.tmx.gz", "utf-8"),
                                                ("export.tmx", "utf-16")])
def test_a_tmx_memory_as_train_tsv_is_checked_and_read_as_its_pairs(tmp_path, name, encoding):
    """It was refused: "attnmt reads plain text: export the memory's segments as two files"; a CAT tool's UTF-16
    export passes the check that a tsv is UTF-8, its XML declaring its encoding."""
    text = TMX.lstrip("\ufeff").replace('"UTF-8"', f'"{encoding.upper()}"').encode(encoding)
    path = tmp_path / name
    path.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    config = TrainConfig.from_dict(dict(train_tsv=str(path), source_lang="en", target_lang="de"))
    check_corpora_found(config)
    check_corpora_text(config)
    assert list(text_pairs(config.corpora()[0], ReadReport(0, 0))) == [("A dog runs.", "Ein Hund rennt.")]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_tmx_memory_in_utf16_is_refused_as_a_tmx_not_as_text_to_convert(tmp_path, encoding):
    """A CAT tool's TMX export is often UTF-16: it was "the text is UTF-16 …; convert it to UTF-8 first, e.g. with
    iconv", and once converted, refused as a TMX memory."""
    path = tmp_path / "memory.tmx"
    path.write_bytes(TMX.lstrip("\ufeff").replace('"UTF-8"', '"UTF-16"').encode(encoding))
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: a TMX translation memory \(XML\), not one "):
        check_corpus_file(path)


SGML = ('<refset setid="newstest2014" srclang="any" trglang="de">\n<doc sysid="ref" docid="1012-bbc" genre="news">\n'
        '<p>\n<seg id="1">Ein Hund rennt.</seg>\n</p>\n</doc>\n</refset>\n')


def test_a_wmt_test_set_in_sgml_as_a_validation_file_is_refused_naming_its_key(tmp_path):
    """newstest2014-deen-ref.de.sgm as valid_tgt: its seven lines of markup were scored as sentences, without a
    word, where valid_src had as many."""
    src, _ = write_pairs(tmp_path, "va", PAIRS[:7])
    path = tmp_path / "newstest2014-deen-ref.de.sgm"
    path.write_text(SGML, encoding="utf-8")
    with pytest.raises(DataError, match=rf"^valid_tgt: {re.escape(str(path))}: a WMT test set in SGML \(<srcset>, "
                                        r"<seg>\), not one sentence a line: give the text of its <seg> elements, one "
                                        r"a line \(sacrebleu -t wmt14 .*\)$"):
        read_validation_text(str(src), str(path))


def test_a_tmx_memory_as_a_validation_file_is_refused_saying_what_validation_text_is(tmp_path):
    """Told to give it as train_tsv, a user wanting it as validation text was sent to the wrong key."""
    _, tgt = write_pairs(tmp_path, "va", PAIRS[:1])
    path = tmp_path / "memory.tmx"
    path.write_text(TMX, encoding="utf-8")
    with pytest.raises(DataError, match=r"^valid_src: .*memory.tmx: a TMX translation memory \(XML\), .*; validation "
                                        "text is two files of one sentence a line$"):
        read_validation_text(str(path), str(tgt))


def test_a_validation_file_that_is_a_spreadsheet_is_refused_naming_its_key(tmp_path):
    _, tgt = write_pairs(tmp_path, "va", PAIRS[:3])
    path = spreadsheet(tmp_path / "va.xlsx")
    with pytest.raises(DataError, match=r"^valid_src: .*va\.xlsx: a zip archive"):
        read_validation_text(str(path), str(tgt))


@pytest.mark.parametrize(("compress", "kind"), [(lzma.compress, "compressed with xz"),
                                                  (bz2.compress, "compressed with bzip2")])
def test_a_corpus_compressed_under_a_name_that_does_not_say_so_is_refused_saying_how_it_is(tmp_path, compress, kind):
    """It was "tr.en:1: invalid UTF-8 (byte 0xfd); convert the file to UTF-8, e.g. with iconv"."""
    path = tmp_path / "tr.en"
    path.write_bytes(compress(b"A dog runs.\nTwo men talk.\n"))
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: {kind}, not text: decompress it first, or name "
                                        r"it for its compression: a name ending in \.gz, \.xz or \.bz2 is read "):
        check_corpus_file(path)


@pytest.mark.parametrize(("suffix", "compress"), [(".xz", lzma.compress), (".bz2", bz2.compress)])
def test_a_corpus_compressed_with_xz_or_bzip2_is_read_as_a_gz_one_is(tmp_path, suffix, compress):
    """An OPUS or WMT download's train.de-en.en.xz was refused as "compressed with xz, not text"."""
    src, tgt = tmp_path / f"tr.en{suffix}", tmp_path / f"tr.de{suffix}"
    src.write_bytes(compress("".join(f"{en}\n" for en, _ in PAIRS).encode()))
    tgt.write_bytes(compress("".join(f"{de}\n" for _, de in PAIRS).encode()))
    report = ReadReport(0, 0)
    assert list(text_pairs(CorpusSpec(src=str(src), tgt=str(tgt)), report)) == PAIRS
    assert report.pairs == len(PAIRS)


@pytest.mark.parametrize(("name", "mode", "form"), [
    ("en-de.tsv.tar", "w", tarfile.GNU_FORMAT), ("en-de.tsv.tar.gz", "w:gz", tarfile.PAX_FORMAT)])
def test_a_tar_archive_as_train_tsv_is_refused_not_read_with_its_headers_as_text(tmp_path, name, mode, form):
    """Its first member's header (the name, then hundreds of zero bytes) was glued to the first pair's source and
    tokenised with it, its end's zero bytes a line "without exactly one tab"."""
    inner = tmp_path / "en-de.tsv"
    inner.write_text("".join(f"{src}\t{tgt}\n" for src, tgt in PAIRS), encoding="utf-8")
    with tarfile.open(tmp_path / name, mode, format=form) as archive:
        archive.add(inner, "en-de.tsv")
    with pytest.raises(DataError, match=rf"^{re.escape(str(tmp_path / name))}: a tar archive, not text: extract it "
                                        r"first \(tar -xf\) and give the files in it$"):
        next(text_pairs(CorpusSpec(tsv=str(tmp_path / name)), report=ReadReport(0, 0)))


@pytest.mark.parametrize("role", ["src", "tsv"])
def test_a_pipe_as_a_corpus_is_refused_before_a_byte_of_it_is_read(tmp_path, role):
    """<(xzcat tr.en.xz) was read again and again, each read finding what the one before had left: "/dev/fd/63 has
    400 lines, /dev/fd/62 has 433", or a run on part of the corpus.  As a tsv, it is not looked into for a TMX
    memory first."""
    read_end, write_end = os.pipe()
    os.write(write_end, b"A dog runs.\tEin Hund rennt.\n")
    os.close(write_end)
    path = f"/proc/self/fd/{read_end}"
    files = {"src": path, "tgt": path + "x"} if role == "src" else {"tsv": path}
    try:
        with pytest.raises(DataError, match=rf"^{path}: a pipe, which can be read once, but a run reads its text "
                                            r"several times \(.*\): write it to a file first$"):
            next(text_pairs(CorpusSpec(**files), report=ReadReport(0, 0)))
        with pytest.raises(DataError, match=rf"^train_{role}: {path}: a pipe"):
            check_corpora_found(TrainConfig(**{f"train_{key}": value for key, value in files.items()}))
        assert os.read(read_end, 100) == b"A dog runs.\tEin Hund rennt.\n"
    finally:
        os.close(read_end)


def test_a_damaged_gzip_corpus_is_left_for_its_reading_to_name(tmp_path):
    """Its first bytes, looked at, raised zlib's own error: a traceback before the reading could name the file."""
    text = "".join(f"A dog number {i} runs through the park.\n" for i in range(400)).encode()
    data = bytearray(gzip.compress(text, mtime=0))
    data[200:260] = bytes(byte ^ 0x5A for byte in data[200:260])
    path = tmp_path / "train.en.gz"
    path.write_bytes(bytes(data))
    _, tgt = write_pairs(tmp_path, "tr", PAIRS[:3])
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}: not a valid gzip file \(Error -3 "):
        next(text_pairs(CorpusSpec(src=str(path), tgt=str(tgt)), report=ReadReport(0, 0)))


@pytest.mark.parametrize("text", ["<b>A dog</b> runs.\n", "BZh is no bzip2 stream.\n", "Use a <tmx> file.\n",
                                   "<!-- a comment -->\n", ""])
def test_text_that_starts_like_markup_or_a_signature_is_text(tmp_path, text):
    path = tmp_path / "tr.en"
    path.write_text(text, encoding="utf-8")
    check_corpus_file(path)


@pytest.mark.parametrize("missing", ["src", "tgt", "tsv"])
def test_a_missing_file_of_a_train_list_is_refused_naming_its_entry_and_side(tmp_path, missing):
    """It was "cannot read b.src: no such file or directory", after a tokenizer's training on the others."""
    src, tgt = write_pairs(tmp_path, "a", PAIRS)
    gone = tmp_path / f"b.{missing}"
    entry = {"tsv": str(gone)} if missing == "tsv" else {"src": str(src), "tgt": str(tgt), missing: str(gone)}
    config = TrainConfig(train=[{"src": str(src), "tgt": str(tgt)}, entry], out_dir=str(tmp_path / "run"))
    with pytest.raises(DataError, match=rf"^train\[1\]\.{missing}: cannot read {re.escape(str(gone))}: no such file"):
        run_start(config, say=lambda line: None)


def test_a_missing_train_src_is_refused_naming_its_key(tmp_path):
    src, tgt = write_pairs(tmp_path, "a", PAIRS)
    config = TrainConfig(train_src=str(tmp_path / "b.src"), train_tgt=str(tgt), out_dir=str(tmp_path / "run"))
    with pytest.raises(DataError, match=r"^train_src: cannot read .*b\.src: no such file"):
        run_start(config, say=lambda line: None)


@pytest.mark.parametrize("listed", [False, True])
def test_misaligned_files_with_a_given_tokenizer_are_refused_before_a_pair_is_tokenised(tmp_path, monkeypatch, listed):
    """With a tokenizer given, the whole shorter file was tokenised before "differ in length": hours, on a large
    corpus, before the one line; now the files' lines are counted first, and their keys named."""
    src, tgt = write_pairs(tmp_path, "a", PAIRS)
    tgt.write_text("".join(t + "\n" for _, t in PAIRS[:-1]), encoding="utf-8")
    files = {"src": str(src), "tgt": str(tgt)}
    corpus = {"train": [files]} if listed else {"train_src": files["src"], "train_tgt": files["tgt"]}
    config = tiny_config(tmp_path / "c", **corpus, tokenizer=str(plain_spm_model(tmp_path / "plain.model")),
                         vocab_size=None)
    monkeypatch.setattr(tokenize_corpora, "encode_chunk", lambda *args: pytest.fail("a pair was tokenised"))
    keys = "train\\[0\\]\\.src, train\\[0\\]\\.tgt" if listed else "train_src, train_tgt"
    with pytest.raises(DataError, match=rf"^{keys}: parallel files differ in length: {re.escape(str(src))} has 20 "
                                        rf"lines, {re.escape(str(tgt))} has 19; "):
        prepare_config(config, tmp_path / "prepared", log=lambda line: None)


def test_an_opus_zip_as_train_src_is_refused_naming_its_key_not_as_misaligned(tmp_path):
    """A zip of the two sides is one line to count: named as a zip archive, by its own key, before any count."""
    src, tgt = write_pairs(tmp_path, "a", PAIRS)
    with zipfile.ZipFile(tmp_path / "en-de.txt.zip", "w") as download:
        download.write(src, "Tatoeba.en-de.en")
        download.write(tgt, "Tatoeba.en-de.de")
    config = TrainConfig(train_src=str(tmp_path / "en-de.txt.zip"), train_tgt=str(tgt), out_dir=str(tmp_path / "run"))
    with pytest.raises(DataError, match=r"^train_src: .*en-de\.txt\.zip: a zip archive \(an OPUS download"):
        run_start(config, say=lambda line: None)


def test_a_tsv_line_that_is_no_utf8_is_named_before_a_pair_is_tokenised(tmp_path, monkeypatch):
    """With a tokenizer given, every pair before it was tokenised first: hours, for a line deep in a large corpus."""
    path = tmp_path / "tr.tsv"
    path.write_bytes("".join(f"{src}\t{tgt}\n" for src, tgt in PAIRS).encode()[:-1] + b" caf\xe9\n")  # Windows-1252
    config = tiny_config(tmp_path / "c", train_tsv=str(path), tokenizer=str(plain_spm_model(tmp_path / "plain.model")),
                         vocab_size=None)
    monkeypatch.setattr(tokenize_corpora, "encode_chunk", lambda *args: pytest.fail("a pair was tokenised"))
    with pytest.raises(DataError, match=rf"^train_tsv: {re.escape(str(path))}:20: invalid UTF-8 \(byte 0xe9\)"):
        prepare_config(config, tmp_path / "prepared", log=lambda line: None)
