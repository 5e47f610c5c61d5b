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
