"""The command-line options several commands share, declared once: the model directory, the
machine (device, threads, precision), decoding and batching; and loading the model they name."""

from __future__ import annotations

import argparse
import logging
import math
import re
import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from attnmt.decoding import DEFAULT, MAX_BEAM, MOST_SEED, Decoding
from attnmt.errors import ConfigError
from attnmt.hardware import MOST_THREADS, check_device
from attnmt.text.language_codes import as_bcp_47, is_language_code

if TYPE_CHECKING:  # read only where a command is given a glossary
    from attnmt.decoding.glossary import Glossary

DEVICES = ("cpu", "cuda", "mps")
INT8_HELP = ("int8 linear layers (dynamic quantisation): faster on CPU, BLEU within 0.2 of fp32 "
             "(docs/performance.md)")
THREADS_HELP = ("PyTorch CPU threads (default 0: as many as the cores other processes leave free, looked at again "
                "between batches; OMP_NUM_THREADS fixes it too)")
VERBOSE_HELP = "say on stderr how many threads run, why, and when that changes"
BF16_HELP = ("bf16 linear layers on CPU, only where the CPU has AVX512-BF16 or AMX (refused elsewhere); "
             "BLEU within 0.2 of fp32 (docs/performance.md)")


def language_code(text: str) -> str:
    """An argparse type: a language code for the sentence splitter (attnmt.text.language_codes)."""
    if not is_language_code(text):
        raise argparse.ArgumentTypeError(f"expected a language code such as en, de or pt-BR, got {text!r} (the "
                                         "sentence splitter would take its default rules without a word)")
    return text


def target_language_code(text: str) -> str:
    """An argparse type: the language code written into a translated file's language attributes
    (``lang``, ``w:lang``, ``target-language``), as BCP 47 writes it: ``de_DE`` is ``de-DE``."""
    if not is_language_code(text):
        raise argparse.ArgumentTypeError(f"expected a language code such as de, fr or pt-BR, got {text!r} (it is "
                                         "written into the translated file's language attributes)")
    return as_bcp_47(text)


def whole_number(least: int, most: int | None = None):
    """An argparse type: a whole number from least (to most, where given)."""

    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {least}, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}, got {value}")
        return value

    return check


positive_int = whole_number(1)  # a beam of 0 has no hypothesis to keep


def finite_number(least: float):
    """An argparse type: a finite number >= least (no nan, no inf)."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not math.isfinite(value) or value < least:
            raise argparse.ArgumentTypeError(f"expected a finite number >= {least:g}, got {text!r}")
        return value

    return check


def positive_number(text: str) -> float:
    """An argparse type: a finite number above 0 (no nan, no inf), e.g. a time budget."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a finite number above 0, got {text!r}")
    return value


def not_empty(what: str, empty: str) -> Callable[[str], str]:
    """An argparse type: the name of ``what`` (a file, a folder), not empty, so that argparse
    refuses it naming the option.  An empty one (``--glossary=``, or ``--glossary "$TERMS"`` with
    TERMS unset) was read as the option left out, silently (no glossary, the model's own weights,
    no shortlist, no API keys), or refused by the loader in its Python argument's name ("model_dir:
    expected the path of a model directory, got ''"); and Path("") is the current folder."""

    def check(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"expected {what}, got {empty} ({text!r}: an unset shell variable?)")
        return text

    return check


file_name = not_empty("a file name", "an empty one")
model_directory = not_empty("a model directory", "an empty name")  # --model's


def check_file_name(path: str | None, name: str) -> None:
    """Refuses an empty file name ("" or blanks: ``attnmt translate "$IN"`` with IN unset) in one
    line naming whose it is (``input``).  Path("") is the current folder, so such a name was refused
    as "cannot read .: is a directory", which named neither the argument nor the mistake."""
    if path is not None and not path.strip():
        raise ConfigError(f"{name}: the file name is empty ({path!r}): give a file (an unset shell variable?)")


def glossary_files(args: argparse.Namespace) -> dict[str, str]:
    """Each --glossary file by the name an error gives it, as attnmt.output_checks.check_not_an_input
    takes them: "--glossary", or "--glossary #2" and so on where several are given."""
    paths = args.glossary or []
    return {"--glossary" if len(paths) == 1 else f"--glossary #{number}": path
            for number, path in enumerate(paths, start=1)}


def read_glossary_files(args: argparse.Namespace) -> Glossary | None:
    """The terms of --glossary's files, read as one glossary (attnmt.decoding.glossary.read_glossaries),
    or None without one.  A termbase's languages, and a CSV file's where it names them: each side's
    --source-lang or --target-lang where given, else the model's as its training files name it
    (attnmt.model_languages), else the option's own value (--source-lang's default en).  A language
    still unknown (--target-lang left out, a model that names none) stops a termbase with one line
    saying so; a CSV file is then read without its languages checked, its first row a header only
    where it names the columns or two languages ISO 639-1 lists (glossary_headers.csv_header)."""
    if not args.glossary:
        return None
    from attnmt.decoding.glossary import read_glossaries
    from attnmt.model_languages import languages_from_training

    names, given = ("source_lang", "target_lang"), getattr(args, "given", ())
    model = (None, None) if all(name in given for name in names) else languages_from_training(Path(args.model))
    source, target = (getattr(args, name) if name in given else known or getattr(args, name)
                      for name, known in zip(names, model, strict=True))
    return read_glossaries(args.glossary, source, target)


def add_model_options(p: argparse.ArgumentParser, required: bool = True, weights: bool = True) -> None:
    """--model MODEL_DIR (and --weights FILE)."""
    p.add_argument("--model", required=required, metavar="MODEL_DIR", type=model_directory,
                   help="model directory written by 'attnmt train' (or 'attnmt import')")
    if weights:
        p.add_argument("--weights", type=file_name, help="another weights file (e.g. averaged.safetensors)")


def add_model_dir_option(p: argparse.ArgumentParser) -> None:
    """--model MODEL_DIR for commands that took it as a positional argument until 0.1 (still
    accepted, with a note, for one release)."""
    p.add_argument("--model", metavar="MODEL_DIR", type=model_directory,
                   help="model directory written by 'attnmt train'")
    p.add_argument("model_dir", nargs="?", help=argparse.SUPPRESS)


def model_dir_of(args: argparse.Namespace) -> str:
    """The directory of --model, or of the old positional MODEL_DIR (with a note); one is needed."""
    if args.model_dir and args.model and args.model_dir != args.model:
        raise ConfigError(f"two model directories given: --model {args.model} and {args.model_dir}")
    if args.model_dir and not args.model:
        print(f"attnmt: note: give the model directory as --model {args.model_dir}; the positional form goes "
              "in the next release", file=sys.stderr)
    if not (args.model or args.model_dir):
        raise ConfigError("give the model directory: --model MODEL_DIR")
    return args.model or args.model_dir


def add_machine_options(p: argparse.ArgumentParser) -> None:
    """--device, --threads (and --verbose about them) and the precision of the inference copy
    (--int8 or --bf16)."""
    p.add_argument("--device", choices=DEVICES, default="cpu")
    add_threads_options(p)
    precision = p.add_mutually_exclusive_group()
    precision.add_argument("--int8", action="store_true", help=INT8_HELP)
    precision.add_argument("--bf16", action="store_true", help=BF16_HELP)


def add_threads_options(p: argparse.ArgumentParser) -> None:
    """--threads N (0: follow the free cores) and --verbose about the count."""
    p.add_argument("--threads", type=whole_number(0, MOST_THREADS), default=0, help=THREADS_HELP)
    p.add_argument("--verbose", action="store_true", help=VERBOSE_HELP)


def use_threads(args: argparse.Namespace) -> None:
    """Fixes PyTorch's thread count at --threads N, or follows the free cores (attnmt.threads);
    with --verbose, says the count and each change on stderr."""
    from attnmt import threads

    if args.verbose and not threads.LOG.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("attnmt: %(message)s"))
        threads.LOG.addHandler(handler)
        threads.LOG.setLevel(logging.INFO)
    threads.use_threads(args.threads, f"--threads {args.threads}")


def add_decoding_options(p: argparse.ArgumentParser) -> None:
    """The search options of a ``Decoding`` (attnmt.decoding), with its defaults."""
    p.add_argument("--beam", type=whole_number(1, MAX_BEAM), default=DEFAULT.beam_size,
                   help=f"beam size, 1 to {MAX_BEAM} (1 = greedy)")
    p.add_argument("--alpha", type=finite_number(0), default=DEFAULT.alpha, help="length penalty α")
    p.add_argument("--max-len-a", type=finite_number(0), default=DEFAULT.max_len_a,
                   help="at most a·source length + b output tokens")
    p.add_argument("--max-len-b", type=whole_number(0), default=DEFAULT.max_len_b, help="see --max-len-a")
    p.add_argument("--min-len", type=whole_number(0), default=DEFAULT.min_len,
                   help="EOS is ruled out before this many output tokens")
    p.add_argument("--sampling-topk", type=whole_number(0), default=DEFAULT.sampling_topk,
                   help="1: no sampling; 0 or K > 1: draw each token at random from all tokens (0) or the K most "
                        "likely (with --beam 1; for back-translation)")
    p.add_argument("--sampling-topp", type=finite_number(0), default=DEFAULT.sampling_topp,
                   help="with sampling: draw from the fewest most likely tokens holding this much probability")
    p.add_argument("--sampling-temperature", type=finite_number(0), default=DEFAULT.sampling_temperature,
                   help="with sampling: draw from softmax(logits / temperature)")
    p.add_argument("--seed", type=whole_number(0, MOST_SEED), default=DEFAULT.seed,
                   help="with sampling: the same seed, the same output")
    p.add_argument("--no-repeat-ngram-size", type=whole_number(0), default=DEFAULT.no_repeat_ngram_size,
                   help="no n-gram of this many tokens twice in an output (0: off)")
    p.add_argument("--repetition-penalty", type=finite_number(0), default=DEFAULT.repetition_penalty,
                   help="make tokens already in the output less likely (> 1), as CTRL does (1: off)")
    p.add_argument("--disable-unk", action="store_true", help="never generate the unknown piece")


def option_dests(add: Callable[[argparse.ArgumentParser], None]) -> list[str]:
    """The dests of the options ``add`` declares (add_decoding_options: beam, alpha, ...), in order."""
    parser = argparse.ArgumentParser(add_help=False)
    add(parser)
    return list(vars(parser.parse_args([])))


def check_not_given(args: argparse.Namespace, dests: list[str], what: str, chosen: str) -> None:
    """Refuses the options among ``dests`` given on the command line (``args.given``:
    attnmt.cli.main.CommandParser.options_given), at any value, the default's too: ``what`` makes
    them do nothing, ``chosen`` is what they choose ("how a line is split"), said of one option
    ("it chooses") or of several ("they choose").  Compared with their defaults, ``--beam 4`` was
    let through."""
    given = [f"--{dest.replace('_', '-')}" for dest in dests if dest in args.given]
    if given:
        several = len(given) > 1
        named = " and ".join([", ".join(given[:-1]), given[-1]] if several else given)
        choose = "they choose" if several else "it chooses"
        raise ConfigError(f"{what}: {named} would do nothing ({choose} {chosen}): leave {'them' if several else 'it'} "
                          "out")


def add_batch_size_option(p: argparse.ArgumentParser, help_text: str, least: int = 0) -> None:
    """--batch-size: how many sentences are translated together (one name in every command), at least
    ``least``.  Left out it is None, so that the command's own default is told from a value given."""
    p.add_argument("--batch-size", type=whole_number(least), help=help_text)


# The flag of each Decoding field, for its errors: "--" and the field's name with dashes
# (sampling_topk: --sampling-topk), or the option's own name where it is named otherwise.
OPTION_NAMES = {"beam_size": "beam"}
DECODING_FLAGS = {field.name: "--" + OPTION_NAMES.get(field.name, field.name.replace("_", "-"))
                  for field in fields(Decoding)}
DECODING_FIELD = re.compile(r"\b(" + "|".join(DECODING_FLAGS) + r")\b")
# How Decoding's errors begin, so that a Python caller knows beam_size for an option; a flag says it itself.
DECODING_LEAD = re.compile(r"^decoding options? ")


def decoding(args: argparse.Namespace) -> Decoding:
    """The Decoding of --beam, --alpha, --max-len-a/b, --min-len, sampling, the penalties,
    --disable-unk and --n-best (where the command has it); Decoding's errors in the command line's
    words ("set --beam 1", not "set beam_size 1"; "set --sampling-topk to 0", not sampling_topk), and
    led by the flags they name, as the other refusals are ("--n-best 5 needs --beam 5 or more", not
    "decoding option --n-best 5 needs …")."""
    try:
        return Decoding(beam_size=args.beam, alpha=args.alpha, max_len_a=args.max_len_a, max_len_b=args.max_len_b,
                        n_best=getattr(args, "n_best", DEFAULT.n_best), min_len=args.min_len,
                        sampling_topk=args.sampling_topk, sampling_topp=args.sampling_topp,
                        sampling_temperature=args.sampling_temperature, seed=args.seed,
                        no_repeat_ngram_size=args.no_repeat_ngram_size, repetition_penalty=args.repetition_penalty,
                        disable_unk=args.disable_unk)
    except ConfigError as error:
        flagged = DECODING_FIELD.sub(lambda name: DECODING_FLAGS[name[0]], str(error))
        raise ConfigError(DECODING_LEAD.sub("", flagged)) from None


def batching(args: argparse.Namespace) -> dict:
    """The batch limits of --max-tokens and --batch-size, as keyword arguments of attnmt.decoding.translate."""
    return dict(max_tokens=args.max_tokens, max_sentences=args.batch_size)


def add_shortlist_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--shortlist", metavar="FILE", type=file_name,
                   help="compute the output layer only for the target pieces this "
                   "vocabulary shortlist allows each batch (written by 'attnmt shortlist')")


def model_files(args: argparse.Namespace) -> dict[str, str | None]:
    """The files a command reads through --model (its config, weights, tokenizer and quality
    calibration), --weights and --shortlist, by the name an error gives each, as
    attnmt.output_checks.check_not_an_input takes them: an output written over one would destroy
    what it was made with.  Where --model is a training run, its other files are kept too (its
    train.yaml, logs, checkpoints, and the corpora, validation sets and tokenizer files its
    train.yaml names: attnmt.training.run_dir.model_inputs, as ``attnmt average`` keeps them):
    written over, the run would no longer resume or average.  Other files beside the model stay
    the user's to write; a run's corpora.json that cannot be read protects nothing, as the model
    loads without it."""
    from attnmt.training.run_dir import model_inputs

    return {**model_inputs(Path(args.model)), "--weights": args.weights,
            "--shortlist": getattr(args, "shortlist", None)}


def load_for_translation(args: argparse.Namespace):
    """The model of --model/--weights on --device with --threads, as the fast copy (int8 linear
    layers with --int8: prepared once and memory-mapped after; float32 or, with --bf16, bf16 ones
    packed a layer at a time: attnmt.fast.prepared; the output layer restricted by --shortlist),
    and its tokenizer; also the trained model's parameter count (the copy's layers hold their
    weights in other forms).  The shortlist is read first: a mistake in its name or its lines is
    named before the model's seconds of loading."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.fast import prepare
    from attnmt.fast.prepared import load_int8, load_packed
    from attnmt.fast.shortlist import Shortlist, use_shortlist

    shortlist = Shortlist.load(args.shortlist) if getattr(args, "shortlist", None) else None
    check_device(args.device)
    use_threads(args)
    if args.int8 and args.device == "cpu":
        fast, tokenizer = load_int8(args.model, args.weights)
    elif args.device == "cpu":
        fast, tokenizer = load_packed(args.model, args.weights, bf16=args.bf16)
    else:
        model, tokenizer = load_model_dir(args.model, args.weights)
        fast = prepare(model.to(args.device), int8=args.int8, bf16=args.bf16)
    if shortlist is not None:
        use_shortlist(fast, shortlist)
    return fast, tokenizer, fast.trained_parameters
