"""Office files through translation: attnmt against argos-translate-files 1.4.4 (LibreTranslate's
file engine), both driven by the same attnmt model.

    .venv/bin/python benchmarks/office.py --model /work/models/m30k --argos-python /tmp/argosvenv/bin/python

(the argos environment: ``python -m venv /tmp/argosvenv && /tmp/argosvenv/bin/pip install
argos-translate-files==1.4.4``; it drives the model through benchmarks/peers/argos_files_worker.py).

Files are built from Multi30k *validation* pairs that have an anchor (a source word whose
dictionary translation, learnt as benchmarks/documents.py learns it, occurs in the reference):
the anchor is set in bold, italic or a hyperlink (in turn) in the middle of its sentence, one
sentence a paragraph.  The .docx puts two sentences in its header and footer and eight in a
table; the .pptx six a slide and one in the slide's speaker notes; the .odt eight in a table;
the .xlsx one a cell, as rich text (bold or italic: a cell's hyperlink is the whole cell's).

Reported per format and engine (argos-translate-files has no .xlsx), with the CPU:

- LibreOffice opens the file (converts it to PDF, headless);
- placement: of the anchors whose dictionary translation the output paragraph holds once, the
  share where that word lies inside text of the anchor's formatting;
- BLEU of the paragraphs' text against the references, and of the same sentences translated
  as plain text (attnmt.decoding.translate);
- paragraphs left untranslated (their text came back as it went in);
- seconds to translate the file (model loaded and warm) over seconds for the plain sentences:
  for attnmt the median of ``--rounds`` ratios, file and plain sentences timed in turn in one
  process (on a shared 2-core machine, runs in separate processes varied by 25 %); for argos
  (a process a run, ``--argos-rounds`` runs) its median over the plain sentences' median;
- peak RSS of the translating process(es) (argos: its process plus attnmt's).

Memory alone on a long document (``--pages 500 --memory-only``): a .docx of ``--pages`` times
PARAGRAPHS_A_PAGE paragraphs (the validation items in turn, their anchors bold, italic or
linked), the same sentences as a plain text file a line, and one line of it; each translated
by ``python -m attnmt translate --model M IN OUT`` in a process of its own, and its peak RSS
(``wait4``'s ru_maxrss) reported with the file's size and its document.xml's unpacked size.

    .venv/bin/python benchmarks/office.py --model /tmp/qrun/m30k --pages 500 --memory-only
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data/multi30k"
KINDS = ("bold", "italic", "link")
ENGINES = ("plain", "attnmt", "argos")
ARGOS_FORMATS = ("docx", "pptx", "odt")
PARAGRAPHS_A_PAGE = 24  # a page of a report: 500 pages, 12,000 paragraphs


@dataclass
class Item:
    """One sentence in a file: the source as before + anchor + after, its formatting, the
    reference and the German word expected inside the formatting."""

    before: str
    anchor: str
    after: str
    kind: str
    reference: str
    expected: str

    @property
    def source(self) -> str:
        return self.before + self.anchor + self.after


def items(count: int) -> list[Item]:
    from documents import learn_dictionary, words

    from attnmt.text.data import read_lines

    dictionary = learn_dictionary(read_lines(DATA / "train.en.gz"), read_lines(DATA / "train.de.gz"))
    found = []
    for source, reference in zip(read_lines(DATA / "val.en.gz"), read_lines(DATA / "val.de.gz"), strict=True):
        tokens, reference_words = source.split(), set(words(reference))
        middle = [k for k, token in enumerate(tokens) if 0 < k < len(tokens) - 1
                  and (w := words(token)) and dictionary.get(w[0]) in reference_words]
        if not middle:
            continue
        k = middle[0]
        word = tokens[k].rstrip(".,;:!?")
        before, after = " ".join(tokens[:k]) + " ", tokens[k][len(word):] + " " + " ".join(tokens[k + 1:])
        found.append(Item(before, word, after, KINDS[len(found) % 3], reference, dictionary[words(word)[0]]))
        if len(found) == count:
            break
    return found


def build(fmt: str, chosen: list[Item]) -> bytes:
    from office_builders import BUILDERS

    return BUILDERS[fmt](chosen)


def read(fmt: str, data: bytes) -> list[tuple[str, dict[str, list[str]]]]:
    """Each paragraph's text and its formatted pieces by kind, in the order the builder placed the items."""
    from office_builders import READERS

    return READERS[fmt](data)


def placement(fmt: str, chosen: list[Item], paragraphs) -> tuple[int, int]:
    from documents import words

    checked = inside = 0
    for item, (text, pieces) in zip(chosen, paragraphs, strict=False):
        kind = "bold" if fmt == "xlsx" and item.kind == "link" else item.kind
        if words(text).count(item.expected) != 1:
            continue
        checked += 1
        inside += any(item.expected in words(piece) for piece in pieces.get(kind, []))
    return inside, checked


def serve_lines(model_dir: str) -> None:
    """argos-translate-files' translator: JSON texts in, their translations out, a line each."""
    translator, _, _ = load(model_dir)
    from attnmt.documents.pipeline import translate_paragraphs

    for line in sys.stdin:
        text = json.loads(line)
        out = translate_paragraphs([text], translator)[0] if text.strip() else text
        print(json.dumps(out), flush=True)


def load(model_dir: str):
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding import Decoding
    from attnmt.documents.translators import ModelTranslator
    from attnmt.fast import prepare

    trained, tokenizer = load_model_dir(model_dir)
    model, decoding = prepare(trained), Decoding(beam_size=4)
    return ModelTranslator(model, tokenizer, decoding), model, tokenizer


def worker(engine: str, model_dir: str, fmt: str, source: Path, output: Path, rounds: int) -> None:
    """Timed runs in this process: the file through attnmt (``attnmt``), or its sentences as plain
    text (``plain``), once; or ``paired``: both, ``rounds`` times in turn, the model warm."""
    import time

    from attnmt.decoding.translate import translate
    from attnmt.documents.office import translate_office
    from attnmt.documents.pipeline import DocumentOptions

    translator, model, tokenizer = load(model_dir)
    data = source.read_bytes()
    sentences = [text for text, _ in read(fmt, data)]
    translate(model, tokenizer, sentences[:16], translator.decoding)  # warm-up

    def timed(kind: str) -> float:
        start = time.perf_counter()
        if kind == "plain":
            output.write_text(json.dumps(translate(model, tokenizer, sentences, translator.decoding)))
        else:
            output.write_bytes(translate_office(data, "." + fmt, translator, DocumentOptions(target_lang="de")))
        return time.perf_counter() - start

    if engine == "paired":
        seconds = {"file": [], "plain": []}
        for _ in range(rounds):
            for kind in ("plain", "file"):
                seconds[kind].append(timed(kind))
        print(json.dumps(seconds))
    else:
        print(json.dumps({"seconds": timed(engine)}))


def run_engine(engine: str, args, fmt: str, source: Path, output: Path) -> tuple[float | dict, int]:
    """(seconds, or ``paired``'s lists; peak RSS in KiB) of one run in processes of its own."""
    me = [sys.executable, __file__, "--model", args.model]
    if engine == "argos":
        command = [args.argos_python, str(ROOT / "benchmarks/peers/argos_files_worker.py"), str(source), str(output),
                   "--", *me, "--serve-lines"]
    else:
        command = [*me, "--worker", engine, "--format", fmt, "--source", str(source), "--output", str(output),
                   "--rounds", str(args.rounds)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(
        ROOT / "src") + os.pathsep + str(ROOT / "benchmarks")})
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{engine} on {source.name} failed (status {status})")
    found = json.loads(out.strip().splitlines()[-1])
    return found.get("seconds", found), usage.ru_maxrss + found.get("helper_rss_kib", 0)


def opens_in_libreoffice(paths: list[Path], folder: Path) -> set[str]:
    soffice = shutil.which("soffice")
    profile = (folder / "profile").as_uri()
    subprocess.run([soffice, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf", "--outdir",
                    str(folder / "pdf"), *map(str, paths)], capture_output=True, timeout=600)
    return {p.stem for p in (folder / "pdf").glob("*.pdf") if p.stat().st_size > 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--argos-python", help="the python of the environment with argos-translate-files 1.4.4")
    parser.add_argument("--sentences", type=int, default=240)
    parser.add_argument("--rounds", type=int, default=5, help="attnmt's timed rounds (file and plain in turn)")
    parser.add_argument("--argos-rounds", type=int, default=1, help="argos-translate-files' timed runs (minutes "
                        "each; its time is many times plain text's, where run-to-run noise does not matter)")
    parser.add_argument("--formats", default="docx,pptx,xlsx,odt")
    parser.add_argument("--pages", type=int, default=500, help="pages of the --memory-only document")
    parser.add_argument("--memory-only", action="store_true", help="peak RSS of translating a --pages .docx, "
                        "against its sentences as plain text (the module docstring)")
    parser.add_argument("--serve-lines", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--format", help=argparse.SUPPRESS)
    parser.add_argument("--source", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--output", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_lines:
        return serve_lines(args.model)
    if args.worker:
        return worker(args.worker, args.model, args.format, args.source, args.output, args.rounds)
    if args.memory_only:
        return memory_report(args)
    report(args)


def peak_rss(command: list[str]) -> tuple[int, float]:
    """(peak RSS in KiB, seconds) of ``command`` in a process of its own."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed (status {status})")
    return usage.ru_maxrss, time.perf_counter() - start


def memory_report(args) -> None:
    from attnmt.hardware import cpu_flags, cpu_model

    chosen = items(1014)  # every validation sentence with an anchor
    paragraphs = [chosen[k % len(chosen)] for k in range(args.pages * PARAGRAPHS_A_PAGE)]
    folder = Path(tempfile.mkdtemp(prefix="office-memory-"))
    document, text, one = folder / "big.docx", folder / "big.txt", folder / "one.txt"
    document.write_bytes(build("docx", paragraphs))
    text.write_text("".join(item.source.strip() + "\n" for item in paragraphs), encoding="utf-8")
    one.write_text(paragraphs[0].source.strip() + "\n", encoding="utf-8")
    with zipfile.ZipFile(document) as archive:
        unpacked = archive.getinfo("word/document.xml").file_size
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"CPU {cpu_model()} ({flags}); model {args.model}; {len(paragraphs)} paragraphs ({args.pages} pages of "
          f"{PARAGRAPHS_A_PAGE}), {len({item.source for item in paragraphs})} different sentences")
    print(f".docx {document.stat().st_size / 2**20:.1f} MiB, word/document.xml {unpacked / 2**20:.1f} MiB "
          f"unpacked; plain text {text.stat().st_size / 2**20:.1f} MiB")
    print("| input | peak RSS MiB | seconds |")
    print("|---|---|---|")
    for name, source in (("one line (the model and torch)", one), ("the sentences as plain text", text),
                         (".docx", document)):
        command = [sys.executable, "-m", "attnmt", "translate", "--model", args.model, str(source),
                   str(folder / f"out{source.suffix}")]
        rss, seconds = peak_rss(command)
        print(f"| {name} | {rss / 1024:.0f} | {seconds:.0f} |", flush=True)
    print(f"files in {folder}")


def report(args) -> None:
    import torch

    from attnmt.evaluate import bleu
    from attnmt.hardware import cpu_flags, cpu_model

    chosen = items(args.sentences)
    folder = Path(tempfile.mkdtemp(prefix="office-bench-"))
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"CPU {cpu_model()} ({flags}); torch threads {torch.get_num_threads()}; model {args.model}; beam 4; "
          f"{len(chosen)} validation sentences a file")
    rows, outputs = [], []
    for fmt in args.formats.split(","):
        source = folder / f"source.{fmt}"
        source.write_bytes(build(fmt, chosen))
        engines = [e for e in ENGINES if e != "argos" or (args.argos_python and fmt in ARGOS_FORMATS)]
        memory: dict[str, int] = {}
        for engine in engines[:2]:  # each once in a process of its own, for its output and peak RSS
            output = folder / (f"{engine}-{fmt}.{fmt}" if engine != "plain" else f"plain-{fmt}.json")
            memory[engine] = run_engine(engine, args, fmt, source, output)[1]
        # attnmt's time: file and plain sentences in turn in one warm process, a ratio each round
        paired, _ = run_engine("paired", args, fmt, source, folder / f"paired-{fmt}.{fmt}")
        times = {"plain": paired["plain"], "attnmt": paired["file"], "argos": []}
        for _ in range(args.argos_rounds if "argos" in engines else 0):
            seconds, rss = run_engine("argos", args, fmt, source, folder / f"argos-{fmt}.{fmt}")
            times["argos"].append(seconds)
            memory["argos"] = max(memory.get("argos", 0), rss)
        plain_bleu = bleu(json.loads((folder / f"plain-{fmt}.json").read_text()), [i.reference for i in chosen])
        for engine in engines[1:]:
            output = folder / f"{engine}-{fmt}.{fmt}"
            outputs.append(output)
            paragraphs = read(fmt, output.read_bytes())
            inside, checked = placement(fmt, chosen, paragraphs)
            texts = [text for text, _ in paragraphs][: len(chosen)]
            left = sum(text.strip() == item.source.strip() for text, item in zip(texts, chosen, strict=False))
            ratios = ([t / p for t, p in zip(times[engine], times["plain"], strict=True)] if engine == "attnmt" else
                      [t / statistics.median(times["plain"]) for t in times[engine]])
            rows.append([fmt, engine, output.name, inside, checked, bleu(texts, [i.reference for i in
                         chosen][: len(texts)]), plain_bleu, left, len(texts), statistics.median(ratios),
                         times[engine], times["plain"], memory[engine] / 1024, memory["plain"] / 1024])
    opened = opens_in_libreoffice(outputs, folder)
    print("| format | engine | opens in LibreOffice | placement | BLEU (plain text) | untranslated | time / plain "
          "| peak RSS MiB (plain) |")
    print("|---|---|---|---|---|---|---|---|")
    for fmt, engine, name, inside, checked, score, plain_score, left, total, ratio, _t, _tp, rss, rss_plain in rows:
        share = f"{inside}/{checked} = {100 * inside / max(checked, 1):.1f} %"
        print(f"| .{fmt} | {engine} | {'yes' if Path(name).stem in opened else 'NO'} | {share} | {score:.2f} "
              f"({plain_score:.2f}) | {left}/{total} | {ratio:.2f}x | {rss:.0f} ({rss_plain:.0f}) |")
    for fmt, engine, *_rest, t, tp, _rss, _rp in rows:
        print(f"seconds .{fmt} {engine}: {[round(x, 2) for x in t]}, plain {[round(x, 2) for x in tp]}")
    print(f"files in {folder}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "benchmarks"))
    main()
