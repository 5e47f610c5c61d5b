"""The process a tokenizer trains in (attnmt.text.tokenizer_training.model_from_child), run as a script:
``python -P sentencepiece_child.py``.

It reads one JSON object from its stdin, ``{"sample": [sentences], "arguments": {SentencePiece's options}}``,
and writes to its stdout ``trained`` and a newline, then the serialized model, or ``refused`` and a newline,
then SentencePiece's error.  It imports SentencePiece and the standard library alone: not attnmt (whose import
loads torch, seconds), and not the program that asked for the tokenizer, which a child of multiprocessing's
"spawn" start method (macOS's and Windows' default) imports again, running a script's top level a second time
where it has no ``if __name__ == "__main__":``.
"""

import io
import json
import signal
import sys

import sentencepiece as spm


def main() -> None:
    """Trains on stdin's sample; Ctrl-C reaches the whole process group, and the parent ends this process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    request = json.load(sys.stdin.buffer)
    writer = io.BytesIO()
    try:
        spm.SentencePieceTrainer.train(sentence_iterator=iter(request["sample"]), model_writer=writer,
                                       **request["arguments"])
    except RuntimeError as err:  # SentencePiece's refusal, raised again in the parent
        sys.stdout.buffer.write(b"refused\n" + str(err).encode("utf-8"))
        return
    sys.stdout.buffer.write(b"trained\n" + writer.getvalue())


if __name__ == "__main__":
    main()
