"""What ``attnmt score`` and ``attnmt calibrate`` read as the sources of their ``--src``: a text a line,
or the texts of ``attnmt translate --input-format jsonl``'s records, read as translate reads them."""

from __future__ import annotations

from attnmt.errors import DataError, json_value

# Why a --src line with its own "glossary" is refused, and what to do (``source_texts``).
SCORE_GLOSSARY = ("which score does not read (it takes one --glossary for every line): score the lines with a "
                  "glossary of their own apart, with it")
CALIBRATE_GLOSSARY = ("which calibrate does not read (quality is fitted on the model's translations without "
                      "terms): leave the glossary out")


def source_texts(src: str, lines: list[str], own_glossary: str = SCORE_GLOSSARY) -> tuple[list[str], bool]:
    """The source ``lines`` of the file ``src`` as text, or each one's "text", read as ``translate
    --input-format jsonl`` reads it, where every line that is not blank is a JSON object with a
    "text" string (``is_text_object``), or whose name ends in .jsonl and whose first line is one (a
    malformed line after it is refused, named, as translate refuses it): a user's translate input is their
    score source, and read as text, each line's JSON was scored against its translation (0 and
    low_quality).  Only a file of such lines alone is read so: a text whose first line looks like
    JSON (a quoted record) was refused at its first line of text.  A line's own "glossary" changes
    how translate scored it, and score takes one --glossary for every line: it is refused, named;
    a "prefix" only guided the search, and the translation is scored as it is.  ``own_glossary``: why
    such a line is refused, and what to do (calibrate's --src is read so too).  Returns the texts and
    whether they are such records (``record_lines``)."""
    from attnmt.cli.lines import is_jsonl_name, read_inputs

    filled = [line for line in lines if line.strip()]
    if not filled:
        return lines, False
    try:
        inputs = read_inputs(lines, src, 1)  # each line parsed once where it is translate's input
    except DataError:
        # Named .jsonl and starting with a JSON object, as translate's input does, or all lines its
        # input's: a bad line of it is named, not scored as text ({"txt": …} a line was scored as its
        # JSON, where translate refuses it).  Any other file refused as JSONL is text.
        named = is_jsonl_name(src) and isinstance(json_object(filled[0]), dict)
        if named or all(map(is_text_object, filled)):
            raise
        return lines, False
    if own := next((n for n, glossary in enumerate(inputs.glossaries, 1) if glossary), None):
        raise DataError(f'{src}:{own}: the line has its own "glossary", {own_glossary}')
    return inputs.texts, True


def record_lines(texts: list[str], records: bool) -> list[str]:
    """``texts`` as score and calibrate read them: a JSONL record's (``records``) with each of its line
    breaks (U+2028 and CRLF too: attnmt.cli.lines.ANY_LINE_BREAK) a line feed, each line read whole
    (DocumentOptions.split false), as translate gives the model each part of a record between its
    breaks whole (attnmt.cli.jsonl_breaks).  Split into sentences, "ein hund rennt der junge lacht"
    for "a dog runs. the boy laughs." scored 0.9996 by two sentences translate never gave the model."""
    from attnmt.cli.lines import ANY_LINE_BREAK

    return [ANY_LINE_BREAK.sub("\n", text) for text in texts] if records else texts


def json_object(line: str) -> object:
    """The JSON value ``line`` holds, None where it holds none."""
    try:
        return json_value(line)
    except ValueError:
        return None


def is_text_object(line: str) -> bool:
    """Whether ``line`` is a JSON object with a "text" string, as a line of translate's JSONL input is."""
    item = json_object(line)
    return isinstance(item, dict) and isinstance(item.get("text"), str)
