"""A corpus's lines as bytes: a line over the limit is None, read a limit at a time; CR-ended files split at CR."""

import io

from attnmt.text.long_lines import corpus_raw_lines


def raw_lines(data: bytes, limit: int) -> list[bytes | None]:
    return list(corpus_raw_lines(io.BufferedReader(io.BytesIO(data)), limit))


def test_a_line_over_the_limit_is_none_and_the_lines_after_it_are_whole():
    assert raw_lines(b"short\n" + b"x" * 30 + b"\nnext\nlast", limit=8) == [b"short\n", None, b"next\n", b"last"]


def test_a_line_of_exactly_the_limit_is_kept_with_its_ending():
    assert raw_lines(b"12345678\n123456789\n", limit=8) == [b"12345678\n", None]


def test_an_over_long_first_line_is_skipped_too():
    assert raw_lines(b"x" * 30 + b"\r\nok\r\n", limit=8) == [None, b"ok\r\n"]


def test_a_file_of_cr_ended_lines_longer_than_the_limit_is_still_split_at_cr():
    """Excel's "Text (Macintosh)" is one line to LF: one over the limit was skipped whole."""
    data = b"".join(b"line %d\r" % i for i in range(10))
    assert raw_lines(data, limit=8) == [b"line %d" % i for i in range(10)]


def test_a_cr_ended_line_over_the_limit_is_none_among_the_others():
    assert raw_lines(b"a\r" + b"x" * 30 + b"\rb\r\n", limit=8) == [b"a", None, b"b"]


def test_a_single_line_with_a_cr_inside_is_split_as_a_cr_ended_file():
    assert raw_lines(b"one\rtwo\n", limit=64) == [b"one", b"two"]


def test_an_over_long_first_line_with_a_cr_inside_keeps_the_lf_ended_lines_after_it():
    """Read as a file of CR-ended lines, all the lines after it were one line over the limit, dropped."""
    assert raw_lines(b"xxxxx\r" + b"y" * 20 + b"\nline one\nline two\r\n", limit=10) == [
        b"xxxxx", None, b"line one", b"line two"]


def test_a_crlf_cut_between_two_reads_is_one_line_break():
    assert raw_lines(b"ab\rcd\refghi" + b"jklmnopqr\r" + b"\nend", limit=10) == [b"ab", b"cd", None, b"end"]
