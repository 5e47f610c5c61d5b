"""``attnmt evaluate``: sacreBLEU's BLEU, chrF and TER of a model's translations of --src, or of
an existing --hyp file, against --ref."""

from __future__ import annotations

import argparse
import json

from attnmt.cli.commands.translate import add_model_run_options, batching
from attnmt.cli.options import decoding, load_for_translation
from attnmt.errors import ConfigError, DataError


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.decoding.translate import translate
    from attnmt.evaluate import score
    from attnmt.text.data import read_lines

    if args.hyp and (args.model or args.src):
        raise ConfigError("give either --hyp (score that file) or --model and --src (translate, then score)")
    if not (args.hyp or (args.model and args.src)):
        raise ConfigError("nothing to score: give --model and --src to translate, or --hyp with translations")
    references = read_lines(args.ref)
    lines = read_lines(args.hyp or args.src)
    check_line_counts(args.hyp or args.src, len(lines), args.ref, len(references))  # before any translating
    if args.hyp:
        hypotheses = best_texts(args.hyp, lines) if is_translate_jsonl(lines) else lines
    else:
        model, tokenizer, _ = load_for_translation(args)
        hypotheses = translate(model, tokenizer, lines, decoding(args), **batching(args))
    scores = score(hypotheses, references)
    print(json.dumps(scores.sacrebleu_json, indent=1, ensure_ascii=False) if args.json else scores)
    return 0


def is_translate_jsonl(lines: list[str]) -> bool:
    """Whether ``lines`` are ``attnmt translate --output-format jsonl``'s: scoring them as text
    scored the JSON (``{"line": 1, "hypotheses": [...]}``) against the references."""
    try:
        first = json.loads(lines[0]) if lines else None
    except ValueError:
        return False
    return isinstance(first, dict) and isinstance(first.get("hypotheses"), list)


def best_texts(path: str, lines: list[str]) -> list[str]:
    """Each JSONL line's best hypothesis ("" for a blank input line, which has none)."""
    texts = []
    for number, line in enumerate(lines, 1):
        try:
            hypotheses = json.loads(line)["hypotheses"]
            texts.append(hypotheses[0]["text"] if hypotheses else "")
        except (ValueError, TypeError, KeyError, IndexError):
            raise DataError(f"{path}, line {number}: not a line of attnmt translate's JSONL output "
                            '({"line": ..., "hypotheses": [{"text": ...}]}), as line 1 is') from None
        if not isinstance(texts[-1], str):
            raise DataError(f"{path}, line {number}: the hypothesis's \"text\" is not a string")
    return texts


def check_line_counts(path: str, count: int, ref: str, ref_count: int) -> None:
    """One reference line for each line of ``path``, and at least one."""
    if count != ref_count:
        raise DataError(f"{path} has {count} lines but {ref} has {ref_count}: "
                        "evaluate needs exactly one reference line per line")
    if not count:
        raise DataError(f"{path} and {ref} are empty: nothing to score")


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("evaluate", help="score translations with sacreBLEU (BLEU, chrF, TER): "
                            "a model's of --src, or an existing --hyp file")
    add_model_run_options(p, model_required=False)
    p.add_argument("--src", help="source file to translate with --model (plain or .gz)")
    p.add_argument("--hyp", help="translations to score as they are, instead of --model and --src: "
                   "one a line, or attnmt translate's JSONL output (each line's best hypothesis)")
    p.add_argument("--ref", required=True, help="reference translations, line by line")
    p.add_argument("--json", action="store_true", help="print JSON as 'sacrebleu -f json' does")
    p.set_defaults(run=run)
