"""``attnmt translate`` writes a text file's translation in the file's style: its byte order mark,
its line endings and a last line without one, whichever options shape the lines (docs/documents.md)."""

import pytest
from support import run_cli

FIRST, SECOND = "a dog runs.", "a cat sleeps."


@pytest.mark.parametrize("options", [[], ["--glossary", "terms.tsv"], ["--prefix", "ein"], ["--alignments"],
                                     ["--min-quality", "1", "--below-quality", "mark"]],
                         ids=["plain", "glossary", "prefix", "alignments", "below-quality"])
def test_a_text_file_keeps_its_byte_order_mark_and_line_endings_with_any_option(trained_model, tmp_path, capsys,
                                                                                 options):
    """With a glossary, a prefix, alignments or marks, the translation lost the BOM, wrote LF for
    CRLF and added a final line ending the file did not have."""
    (tmp_path / "terms.tsv").write_text("dog\thund\n", encoding="utf-8")
    options = [str(tmp_path / o) if o == "terms.tsv" else o for o in options]
    source, translated = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_bytes(f"\ufeff{FIRST}\r\n{SECOND}".encode())
    code, _, _ = run_cli(["translate", "--model", trained_model, *options, source, translated], capsys)
    written = translated.read_bytes().decode()
    assert code == 0 and written.startswith("\ufeff") and written.count("\r\n") == 1
    assert written.count("\n") == 1 and not written.endswith(("\n", "\r"))


@pytest.mark.parametrize("options", [[], ["--prefix", "ein"]], ids=["plain", "prefix"])
def test_each_line_keeps_its_own_ending_and_a_lone_cr_that_ends_the_file_stays(trained_model, tmp_path, capsys,
                                                                               options):
    """A file mixing CRLF and LF came back with the first line's ending throughout, and the CR that
    ended it was dropped."""
    source, translated = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_bytes(f"{FIRST}\r\n{SECOND}\n{FIRST}\r".encode())
    code, _, _ = run_cli(["translate", "--model", trained_model, *options, source, translated], capsys)
    first, second, third = translated.read_bytes().decode().split("\n")
    assert code == 0 and "\r" not in second and first.count("\r") == third.count("\r") == 1
    assert first.endswith("\r") and third.endswith("\r")


def test_an_old_mac_file_is_one_line_whose_crs_part_it_as_a_tab_does(trained_model, tmp_path, capsys, reached):
    """Only LF ends a line (as ``wc -l`` counts them); a CR in one parts it, each part translated
    alone, and stays, the one that ends the file too."""
    source, translated = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_bytes(f"{FIRST}\r{SECOND}\r".encode())
    code, _, _ = run_cli(["translate", "--model", trained_model, "--no-split", source, translated], capsys)
    parts = translated.read_bytes().decode().split("\r")
    assert code == 0 and [sentence for sentence in reached if sentence] == [FIRST, SECOND]
    assert len(parts) == 3 and parts[2] == "" and "\n" not in parts[0] + parts[1]


def test_an_old_mac_subtitle_file_is_read_line_by_line_and_keeps_its_crs(trained_model, tmp_path, capsys):
    """It was one line holding no cue: it came back untranslated, exit 0, without a word."""
    cues = f"1\r00:00:01,000 --> 00:00:02,000\r{FIRST}\r\r2\r00:00:02,000 --> 00:00:03,000\r{SECOND}\r"
    source, translated = tmp_path / "film.srt", tmp_path / "film.de.srt"
    source.write_bytes(cues.encode())
    code, _, _ = run_cli(["translate", "--model", trained_model, source, translated], capsys)
    written = translated.read_bytes().decode()
    assert code == 0 and "\n" not in written and written.count("\r") == cues.count("\r")
    assert written.startswith("1\r00:00:01,000 --> 00:00:02,000\rein hund rennt")
    assert "\r\r2\r00:00:02,000 --> 00:00:03,000\reine katze schläft" in written


def test_a_subtitle_file_mixing_crlf_and_lf_keeps_each_lines_own_ending(trained_model, tmp_path, capsys):
    """It came back with the first line's ending on every line (as from the server and the library)."""
    cues = f"1\r\n00:00:01,000 --> 00:00:02,000\r\n{FIRST}\r\n\r\n2\n00:00:02,000 --> 00:00:03,000\n{SECOND}\n"
    source, translated = tmp_path / "film.srt", tmp_path / "film.de.srt"
    source.write_bytes(cues.encode())
    code, _, err = run_cli(["translate", "--model", trained_model, source, translated], capsys)
    assert code == 0, err
    expected = cues.replace(FIRST, "ein hund rennt").replace(SECOND, "eine katze schläft")
    assert translated.read_bytes().decode() == expected
