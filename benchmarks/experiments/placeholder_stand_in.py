"""Whether a stand-in word in place of a placeholder reads better than the gap the model is given now.

A localisation string's placeholder (``%s``, ``{0}``) is taken out of the text the model reads and put
back by alignment (attnmt.documents.spans), so the model reads ``A woman is sitting on .``.  A stand-in
the model copies (a name, a number) would give it a whole sentence, if the model copies it.  This
builds its test set from Multi30k's validation pairs: a noun phrase mid-sentence (``a man``, ``the
street``, ...) found once in the source and its German translation once in the reference, both
replaced by ``%s``.  Then, with the same model and beam:

- ``gap``: the sentences as an Android strings.xml, through ``attnmt translate`` (what users get);
- each stand-in: the plain sentences with the stand-in in place of ``%s``; where the translation holds
  the stand-in exactly once, it is replaced by ``%s``, else the gap's translation is taken;
- ``oracle``: the original sentence, the noun phrase given; where its translation holds the phrase's
  German once (the reference's pattern), it is replaced by ``%s`` (what a perfect stand-in could reach).

BLEU and chrF (sacrebleu) against the references with ``%s``, and how many translations hold ``%s`` once.

    .venv/bin/python benchmarks/experiments/placeholder_stand_in.py --model DIR [--beam 4] X Peter 1
"""

from __future__ import annotations

import argparse
import gzip
import platform
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

import sacrebleu
from lxml import etree

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "multi30k"
# An English noun phrase and the German forms it takes in a reference.
PHRASES = [("a man", r"\b(ein|einen|einem|eines)\s+Mann(es)?\b"), ("a woman", r"\b(eine|einer)\s+Frau\b"),
           ("a dog", r"\b(ein|einen|einem|eines)\s+Hund(es|e)?\b"), ("a boy", r"\b(ein|einen|einem|eines)\s+Jungen?\b"),
           ("a girl", r"\b(ein|einem|eines)\s+Mädchens?\b"), ("a ball", r"\b(ein|einen|einem)\s+Ball\b"),
           ("the street", r"\b(die|der)\s+Straße\b"), ("the beach", r"\b(den|dem|der)\s+Strand\b"),
           ("a bench", r"\b(eine|einer)\s+Bank\b"), ("the water", r"\b(das|dem)\s+Wasser\b")]


def test_set() -> list[tuple[str, str, str, str]]:
    """(source with %s, reference with %s, original source, the German pattern) for each usable pair."""
    en = gzip.open(DATA / "val.en.gz", "rt", encoding="utf-8").read().splitlines()
    de = gzip.open(DATA / "val.de.gz", "rt", encoding="utf-8").read().splitlines()
    found = []
    for source, reference in zip(en, de, strict=True):
        for english, german in PHRASES:
            in_source = list(re.finditer(rf"\b{english}\b", source, re.I))
            in_reference = list(re.finditer(german, reference, re.I))
            if len(in_source) == 1 and len(in_reference) == 1 and in_source[0].start() > 0:
                s, r = in_source[0], in_reference[0]
                found.append((source[:s.start()] + "%s" + source[s.end():],
                              reference[:r.start()] + "%s" + reference[r.end():], source, german))
                break
    return found


def translate(model: str, beam: int, lines: list[str], folder: Path) -> list[str]:
    (folder / "in.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "attnmt", "translate", "--model", model, "--beam", str(beam),
                    str(folder / "in.txt"), str(folder / "out.txt")], check=True, capture_output=True)
    return (folder / "out.txt").read_text(encoding="utf-8").splitlines()


def gap(model: str, beam: int, sources: list[str], folder: Path) -> list[str]:
    strings = "".join(f'<string name="s{i}">{escape(s).replace(chr(39), chr(92) + chr(39))}</string>\n'
                      for i, s in enumerate(sources))
    (folder / "strings.xml").write_text(f'<?xml version="1.0" encoding="utf-8"?>\n<resources>\n{strings}</resources>\n',
                                        encoding="utf-8")
    subprocess.run([sys.executable, "-m", "attnmt", "translate", "--model", model, "--beam", str(beam),
                    str(folder / "strings.xml"), str(folder / "out.xml")], check=True, capture_output=True)
    root = etree.parse(str(folder / "out.xml")).getroot()
    return ["".join(e.itertext()).replace("\\'", "'") for e in root]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("stand_ins", nargs="*", default=["X", "Peter", "1"])
    args = parser.parse_args()
    pairs = test_set()
    sources = [p[0] for p in pairs]
    references = [p[1] for p in pairs]
    print(f"# {platform.processor() or platform.machine()}; python {sys.version.split()[0]}; "
          f"command: {' '.join(sys.argv)}")
    print(f"{len(pairs)} Multi30k validation pairs, a noun phrase mid-sentence replaced by %s on both sides")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        given = gap(args.model, args.beam, sources, folder)
        rows = {"gap (strings.xml, as users get it)": given}
        for stand_in in args.stand_ins:
            word = re.compile(rf"(?<!\w){re.escape(stand_in)}(?!\w)")
            outputs = translate(args.model, args.beam, [s.replace("%s", stand_in) for s in sources], folder)
            copied = [len(word.findall(o)) == 1 for o in outputs]
            rows[f"stand-in {stand_in!r}: copied once in {sum(copied)}"] = [
                word.sub("%s", o) if c else g for o, c, g in zip(outputs, copied, given, strict=True)]
        outputs = translate(args.model, args.beam, [p[2] for p in pairs], folder)
        found = [len(re.findall(p[3], o, re.I)) == 1 for o, p in zip(outputs, pairs, strict=True)]
        rows[f"oracle (the phrase given): its German once in {sum(found)}"] = [
            re.sub(p[3], "%s", o, flags=re.I) if f else g
            for o, p, f, g in zip(outputs, pairs, found, given, strict=True)]
    for label, outputs in rows.items():
        once = sum(o.count("%s") == 1 for o in outputs)
        print(f"  {label:58s} BLEU {sacrebleu.corpus_bleu(outputs, [references]).score:5.2f}"
              f"  chrF {sacrebleu.corpus_chrf(outputs, [references]).score:5.2f}  %s once: {once}/{len(outputs)}")


if __name__ == "__main__":
    main()
