"""Training a SentencePiece model on a corpus, in attnmt's id layout (attnmt.text.tokenizer).

``train_sentencepiece`` streams the sentences once, subsampling a corpus of more than
MAX_TRAINING_SENTENCES (``sample_sentences``), and hands SentencePiece ``tokenizer_options``
as ``sentencepiece_options`` spells them: the form a prepared directory records and compares,
so that two spellings of one tokenizer are one.  Running a trained model is attnmt.text.tokenizer's.
"""

from __future__ import annotations

import csv
import json
import random
import re
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path, PurePath

from attnmt.config_ranges import TRAIN_RANGES, check_function, check_tokenizer_options, typed, whole_number
from attnmt.errors import AttnmtWarning, ConfigError
from attnmt.text.encodings import check_encodable, encodable, given_text
from attnmt.text.id_layout import BOS_ID, EOS_ID, PAD_ID, SPECIAL_PIECES, UNK_ID, load_proto, protobuf_messages
from attnmt.text.tokenizer import NUM_THREADS, check_text_list

# A corpus larger than this is subsampled (uniformly, seeded) before training, so
# training memory stays bounded on big corpora.
MAX_TRAINING_SENTENCES = 1_000_000
# SentencePiece's max_sentence_length: its trainer leaves out every sentence of more UTF-8 bytes than this.
MAX_SENTENCE_BYTES = 4192
CHILD = Path(__file__).with_name("sentencepiece_child.py")  # the script a tokenizer trains in


def train_sentencepiece(sentences: Iterable[str], vocab_size: int = 8000, seed: int = 0,
                        text: str | PurePath = "the training text", say: Callable[[str], None] | None = None,
                        **options) -> bytes:
    """A serialized SentencePiece model in attnmt's id layout, trained on `sentences`.

    Deterministic in (sentences, seed).  `vocab_size` is an upper bound: a corpus too
    small to support it gives a smaller vocabulary and a warning rather than an error.
    `seed` only matters for a corpus of more than MAX_TRAINING_SENTENCES sentences,
    which is subsampled.  `options` (attnmt.config_ranges.TOKENIZER_OPTIONS, checked there):
    model_type "unigram" or "bpe" ("char" and "word" too), character_coverage (below 1.0 for scripts with thousands
    of rare characters, e.g. 0.9995 for Chinese), user_defined_symbols kept whole (language
    tags such as ">>de<<"), byte_fallback.  `text` names the sentences in messages ("the source side's text").
    `say` tells the smaller vocabulary where the caller tells its other lines (a training run: its console and
    train.log); without it, that is an AttnmtWarning.

    A lone str is refused (``check_text_list``): it was trained on as sentences of one character each,
    the letters of a file's name.  So is a text of nothing but empty lines, where SentencePiece's own
    error names a line of its C++.  So, before any training, are a vocab_size, a sentence or a
    user_defined_symbols item SentencePiece would refuse (``check_vocab_size``, ``given_sentences``,
    ``check_symbols``), a seed that is no whole number (``check_seed``), a ``say`` that is neither
    None nor a function, and a ``text`` that is neither a str nor a Path (3 was taken, and named the
    sentences "3" in its messages).
    """
    check_text_list(sentences, "sentences")
    vocab_size = check_vocab_size(vocab_size)
    seed = check_seed(seed)
    check_function(say, "say", "say(line)")
    if not isinstance(text, str | PurePath):
        raise ConfigError(f"text: expected a str or a Path, what the sentences are called in messages "
                          f"(\"the source side's text\"), got {type(text).__name__} {text!r:.60}")
    check_tokenizer_options(options)
    options = sentencepiece_options(options)
    check_symbols(options.get("user_defined_symbols", []))
    sample = sample_sentences(given_sentences(sentences), MAX_TRAINING_SENTENCES, seed)
    if all(not sentence.strip() for sentence in sample):
        raise ConfigError(f"{text} has no sentences (or only empty ones): give at least one sentence to train "
                          "the tokenizer on")
    check_some_short(sample, text)
    try:
        proto = trained_model(
            sample,
            vocab_size=vocab_size,
            hard_vocab_limit=False,
            pad_id=PAD_ID, unk_id=UNK_ID, bos_id=BOS_ID, eos_id=EOS_ID,
            pad_piece=SPECIAL_PIECES[PAD_ID], unk_piece=SPECIAL_PIECES[UNK_ID],
            bos_piece=SPECIAL_PIECES[BOS_ID], eos_piece=SPECIAL_PIECES[EOS_ID],
            num_threads=NUM_THREADS,
            minloglevel=2,
            **options,
        )
    except RuntimeError as err:
        # SentencePiece needs a piece for each character of the text (after character_coverage)
        needed = re.search(r"Vocabulary size is smaller than required_chars\. \d+ vs (\d+)", str(err))
        if needed:
            raise ConfigError(f"vocab_size={vocab_size}: {text} needs at least {needed[1]} pieces "
                              f"({required_pieces(options, sample)}); use vocab_size {needed[1]} or more") from None
        raise ValueError(f"SentencePiece training failed: {err}") from None
    size = load_proto(proto).get_piece_size()
    if size < vocab_size:
        smaller = f"asked for vocab_size={vocab_size}, but {text} only supports {size} pieces; using {size}"
        if say is None:
            warnings.warn(smaller, AttnmtWarning, stacklevel=3)
        else:
            say(f"warning: {smaller}")
    return proto


def trained_model(sample: list[str], **arguments: object) -> bytes:
    """The serialized model SentencePiece's trainer makes of ``sample`` with ``arguments``, trained in a child
    process (attnmt.text.sentencepiece_child).  The trainer is one C++ call that holds the main thread until it
    ends, and Python runs a signal's handler only between its own steps: a Ctrl-C or SIGTERM waited for the whole
    training (39 s on 870,000 lines) and the command looked hung.  Waiting on a pipe instead, the command's
    handler runs at once and the child is killed; the model comes back through the pipe whole, so nothing
    half-written is left anywhere.  The child is a script of its own, not a multiprocessing Process: with the
    "spawn" start method (macOS, Windows) that imported the calling program again, and a script calling
    Tokenizer.train at its top level, without ``if __name__ == "__main__":``, ran a second time and failed in
    "its process ended with status 1".  SentencePiece's refusal comes back as the RuntimeError it raised."""
    request = json.dumps({"sample": sample, "arguments": arguments}).encode("utf-8")
    # -P: the script's folder (attnmt/text, whose encodings.py and data.py have the standard library's names) is
    # not put on sys.path.
    child = subprocess.Popen([sys.executable, "-P", str(CHILD)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        answer, _ = child.communicate(request)
    finally:
        child.kill()  # at once, also on Ctrl-C or SIGTERM: the child's SentencePiece would not stop for a signal
        child.wait()
    ended, _, value = answer.partition(b"\n")
    if ended == b"refused":
        raise RuntimeError(value.decode("utf-8", "replace"))
    if ended != b"trained":
        raise RuntimeError(f"its process ended with status {child.returncode} before the model was made")
    return value


def check_some_short(sample: list[str], text: str | PurePath) -> None:
    """Refuses sentences that are each longer than SentencePiece trains on (MAX_SENTENCE_BYTES): a corpus of a
    paragraph or a document a line left it none, and its error named a line of its C++ ("INTERNAL:
    trainer_interface.cc(467) [!sentences_.empty()]").  A few such sentences among others it leaves out."""
    if any(sentence.strip() and len(sentence) <= MAX_SENTENCE_BYTES and len(sentence.encode()) <= MAX_SENTENCE_BYTES
           for sentence in sample):  # a str's length in characters is at most its length in bytes
        return
    shortest = min(len(sentence.encode()) for sentence in sample if sentence.strip())
    raise ConfigError(f"{text}: every sentence is longer than the {MAX_SENTENCE_BYTES:,} bytes SentencePiece trains "
                      f"on (the shortest has {shortest:,}): give one sentence a line, not a paragraph or a document")


def check_vocab_size(vocab_size: object) -> int:
    """``vocab_size`` as an int, where it is a whole number in TrainConfig's range for it (of any
    numeric type: 8000.0 is 8000); one clear error otherwise.  SentencePiece's were its C++'s
    ("trainer_interface.cc(78)") for 0 or -1, ``cannot parse "60.5" as int`` for 60.5, 60.0 or True,
    and "60" trained the whole tokenizer before a TypeError."""
    size = whole_number(vocab_size)
    if size is None or not TRAIN_RANGES["vocab_size"].holds(size):
        raise ConfigError(f"vocab_size must be {TRAIN_RANGES['vocab_size'].describe(True)} (the 4 special pieces "
                          f"and at least one more), got {vocab_size!r}")
    return size


def check_seed(seed: object) -> int:
    """``seed`` as an int, where it is a whole number in TrainConfig's range for it (of any numeric type:
    1.0 is 1, which seeds the sample as 1.0 did); one clear error otherwise.  Any value seeds Python's
    random, so ``seed="x"`` or None was taken, without a word, as another seed than the caller meant."""
    number = whole_number(seed)
    if number is None or not TRAIN_RANGES["seed"].holds(number):
        raise ConfigError(f"seed must be {TRAIN_RANGES['seed'].describe(True)}, got {seed!r:.60}")
    return number


def given_sentences(sentences: Iterable[object]) -> Iterator[str]:
    """``sentences`` as they stream, each a str (UTF-8 bytes decoded), with one clear error naming the
    first that is neither, ``sentences[i]`` (``given_text``): None was SentencePiece's "Iterator must
    return str or bytes", with no index; and one naming the first str that is not valid Unicode
    (``check_encodable``: "\\ud800" alone), which was pybind11's "Unable to cast Python instance of
    type <class 'str'> to C++ type '?'".  A str is named only where it fails: a corpus streams
    millions, and naming each would cost a second a million (encoding each costs a fifth of that)."""
    for i, sentence in enumerate(sentences):
        if type(sentence) is not str:
            sentence = given_text(sentence, f"sentences[{i}]")
        elif not encodable(sentence):
            check_encodable([(f"sentences[{i}]", sentence)])
        yield sentence


def check_symbols(symbols: list[str]) -> None:
    """One clear error for an empty user_defined_symbols item or one given twice (as
    sentencepiece_options lists them, 2020 as "2020"), which SentencePiece refused in its own words
    ("trainer_interface.cc(718) [!sp->piece().empty()]", ">>de<< is already defined")."""
    first: dict[str, int] = {}  # each symbol's first place
    for i, symbol in enumerate(symbols):
        if not symbol:
            raise ConfigError(f"tokenizer_options: user_defined_symbols[{i}] is empty: leave it out")
        if symbol in first:
            raise ConfigError(f"tokenizer_options: user_defined_symbols[{i}] is {symbol!r}, as "
                              f"user_defined_symbols[{first[symbol]}] is: give each symbol once")
        first[symbol] = i


def required_pieces(options: dict, sentences: Iterable[str]) -> str:
    """What SentencePiece counts in the vocabulary it needs at least, in words, for ``options`` as
    sentencepiece_options gives them: besides a piece per character of ``sentences`` and the special
    pieces, the user_defined_symbols that are not one of those characters already (a one-character
    symbol of the text adds no piece), and byte_fallback's 256 byte pieces (with it, 322 pieces were
    said to be one per character of a text of 62 characters)."""
    parts = ["one per character it has", "the special pieces"]
    characters = set().union(*map(set, sentences))
    added = [symbol for symbol in options.get("user_defined_symbols", []) if symbol not in characters]
    if added:
        parts.append(f"{len(added)} {'symbol' if len(added) == 1 else 'symbols'} of user_defined_symbols")
    if options.get("byte_fallback"):
        parts.append("byte_fallback's 256 byte pieces")
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def sentencepiece_options(options: dict) -> dict:
    """``tokenizer_options`` (checked: check_tokenizer_options) as train_sentencepiece passes them on, and
    as a prepared directory records and compares them, so that two spellings of one tokenizer are one:
    attnmt's defaults where they are not given (a unigram model covering every character; SentencePiece's
    own coverage is 0.9995), SentencePiece's own defaults left out (no byte_fallback, no symbols), and
    each value as SentencePiece reads it: model_type in lower case ("BPE"), character_coverage a number
    (YAML reads ``1e0`` as text), user_defined_symbols a list of texts (SentencePiece's one text, the
    symbols apart by commas, split as it splits it: as CSV)."""
    given = {"model_type": "unigram", "character_coverage": 1.0, **options}
    symbols = given.pop("user_defined_symbols", None) or []
    fallback = given.pop("byte_fallback", False)
    return {**given, "model_type": str(given["model_type"]).lower(),
            "character_coverage": typed(given["character_coverage"], "float", "tokenizer_options: character_coverage"),
            **({"byte_fallback": True} if fallback else {}),
            **({"user_defined_symbols": symbol_list(symbols)} if symbols else {})}


def as_trained(options: dict) -> dict:
    """``tokenizer_options`` as sentencepiece_options gives them, character_coverage to 6 places: a trained
    model keeps it as a 32-bit float (0.9995 comes back 0.99949997), so both sides compare rounded."""
    given = sentencepiece_options(options)
    return {**given, "character_coverage": round(given["character_coverage"], 6)}


def trained_options(proto: bytes) -> dict:
    """The tokenizer_options the SentencePiece model ``proto`` was trained with, from its trainer_spec, as
    ``as_trained`` gives them: what a fine-tune's config may repeat (attnmt.training.start)."""
    messages = protobuf_messages()[0]
    model = messages.ModelProto()
    model.ParseFromString(proto)
    spec = model.trainer_spec
    return as_trained({"model_type": messages.TrainerSpec.ModelType.Name(spec.model_type),
                       "character_coverage": spec.character_coverage, "byte_fallback": spec.byte_fallback,
                       "user_defined_symbols": list(spec.user_defined_symbols)})


def symbol_list(symbols: str | list) -> list[str]:
    """user_defined_symbols as a list of texts: a text is SentencePiece's own form, ``">>de<<,>>fr<<"``,
    read as SentencePiece reads it (CSV: a quoted symbol may hold a comma); a number is its text."""
    if isinstance(symbols, str):
        return next(csv.reader([symbols]), [])
    return [str(symbol) for symbol in symbols]


def sample_sentences(sentences: Iterable[str], k: int, seed: int) -> list[str]:
    """A uniform sample of k sentences (all of them, in order, if there are at most k).

    Reservoir sampling, so the corpus is streamed once and only k sentences are held.
    We sample here rather than with SentencePiece's `input_sentence_size` because its
    sampling differs from run to run whatever the seed.
    """
    rng = random.Random(seed)
    sample: list[str] = []
    for n, sentence in enumerate(sentences):
        if n < k:
            sample.append(sentence)
        elif (j := rng.randrange(n + 1)) < k:
            sample[j] = sentence
    return sample
