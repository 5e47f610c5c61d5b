"""How long the sentences a model was trained on were: MODEL_DIR/lengths.json, which training writes.

A model learns to read and write sentences as long as those it was trained on.  One trained on
short ones (Multi30k's longest source is 53 pieces of an 8,000-piece vocabulary) writes a few
words for a sentence of a thousand pieces, though its max_positions lets it read one: a
12,000-character paragraph parted into 1,022-piece parts came out as 394 characters.  So training
records the longest source it kept, in pieces as the tokenizer encodes a source (its </s> included
where the model reads one), and translation parts a longer sentence to that length
(attnmt.decoding.inputs.longest_part).

The record is a file of its own, ``{"longest_source": 53}``: config.json stays what every earlier
release and the prepared copies' names read, and a folder without the record (an earlier release's
model, an OPUS-MT model imported from Marian) translates as before.  ``attnmt export`` carries the
file into its folders, and ``attnmt import --from-marian`` back (attnmt.interop).
"""

from __future__ import annotations

import json
from pathlib import Path

from attnmt.config_ranges import whole_number
from attnmt.errors import ModelDirError, json_value
from attnmt.files import write_text

LENGTHS = "lengths.json"
KEY = "longest_source"


def write_longest_source(model_dir: Path, longest: int) -> None:
    """Writes lengths.json into ``model_dir``: ``longest``, the most pieces of a source training kept."""
    write_text(Path(model_dir) / LENGTHS, json.dumps({KEY: longest}, indent=1) + "\n")


def read_longest_source(model_dir: str | Path) -> int | None:
    """The longest source ``model_dir``'s training kept, in pieces, as its lengths.json records it;
    None where there is no such file.  One that cannot be read, or whose longest_source is no whole
    number of at least 1, is a ModelDirError naming the file and the key: parts of another length
    than the model was trained for would be sent without a word."""
    path = Path(model_dir) / LENGTHS
    if not path.is_file():
        return None
    fix = f"put back the {LENGTHS} 'attnmt train' wrote, or remove it to part only what max_positions cannot hold"
    try:
        values = json_value(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelDirError(f"{path}: cannot read the length of the sentences the model was trained on "
                            f"({error}); {fix}") from None
    longest = whole_number(values.get(KEY)) if isinstance(values, dict) else None
    if longest is None or longest < 1:
        found = values.get(KEY) if isinstance(values, dict) else values
        raise ModelDirError(f"{path}: {KEY} must be a whole number of pieces of at least 1, got {found!r}; {fix}")
    return longest
