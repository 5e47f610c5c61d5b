"""A CTranslate2 user's translation script, for benchmarks/translate_file.py: ctranslate2 and
sentencepiece only.  Reads a file, tokenises it with the export's SentencePiece model, translates
with beam 4, detokenises, writes.

    python benchmarks/peers/ctranslate2_translate.py CT2_DIR input.en output.de [--threads 1] [--beam 4]
        [--max-length 256] [--append-eos] [--use-vmap]

Prints to stderr, as JSON, the seconds from the start of the process until the model was loaded
(its imports included, the interpreter's own start not).
"""

import time

started = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import ctranslate2  # noqa: E402
import sentencepiece  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir")
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--max-length", type=int, default=256, help="output tokens at most (CTranslate2's default)")
    parser.add_argument("--append-eos", action="store_true", help="end each source with </s> (Marian models)")
    parser.add_argument("--use-vmap", action="store_true", help="restrict the output vocabulary with the model's "
                        "vmap.txt (converted with --vocab_mapping)")
    args = parser.parse_args()
    translator = ctranslate2.Translator(args.model_dir, device="cpu", intra_threads=args.threads)
    source = sentencepiece.SentencePieceProcessor(model_file=str(Path(args.model_dir, "source.spm")))
    target = sentencepiece.SentencePieceProcessor(model_file=str(Path(args.model_dir, "target.spm")))
    loaded = time.perf_counter() - started
    lines = Path(args.input).read_text(encoding="utf-8").splitlines()
    pieces = [p + ["</s>"] if args.append_eos else p for p in source.encode(lines, out_type=str)]
    results = translator.translate_batch(pieces, beam_size=args.beam, max_batch_size=args.batch,
                                         max_decoding_length=args.max_length, use_vmap=args.use_vmap)
    text = [target.decode(r.hypotheses[0]) for r in results]
    Path(args.output).write_text("".join(line + "\n" for line in text), encoding="utf-8")
    print(json.dumps(dict(startup_seconds=loaded)), file=sys.stderr)


if __name__ == "__main__":
    main()
