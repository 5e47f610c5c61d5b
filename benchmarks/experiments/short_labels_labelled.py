"""Good translations lost and garbled ones kept out by the short-label guard (attnmt.decoding.garbled_labels), on
labels translated alone by the demo model and judged by hand.  Each row of ``short_labels/*.tsv``: the judgment
(``good`` or ``garbled``), the label, and the model's translation that was judged, as written (without the stop the
model added), a tab between.  ``set_1.tsv`` and ``set_2.tsv`` were judged in the session that set FLOOR (table
headers, headings, buttons, captions' words), ``set_3.tsv`` (headers, menu items, buttons, product names, single
nouns, adjective and noun) before the words' plausibility was measured, ``set_4.tsv`` after it was chosen, not tuned
for, ``set_5.tsv`` (menus, forms, table headers, buttons, headings) after German's label grammar was written
(attnmt.decoding.label_phrases); ``fields.tsv`` holds field names in capitals, as a text line's guard judges them
(garbled_fields: an article its name lacks garbles it too), and so does ``fields_2.tsv`` (44 names of listings,
labs, recipes and remarks, judged after that rule was written); ``set_6.tsv`` (113 menus, form fields, table
headers, buttons, headings, capitals and title case, plurals, adjectives and nouns) was translated and judged after
gender, case, compounds and a plural read after a number (attnmt.decoding.label_gender and
garbled_labels.labels_plausibility) were written.  Each label goes through
ModelTranslator.translate, as a document's label does, and the guard's verdict on it; a translation that is no
longer the one judged is printed and left out.  Each label judged wrongly is printed with its plausibility.

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/short_labels_labelled.py MODEL_DIR [FILE.tsv ...]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.garbled_labels import garbled, garbled_fields
from attnmt.documents.translators import ModelTranslator
from attnmt.text.sentence_ends import ended_as_source

HERE = Path(__file__).parent / "short_labels"


def measured(translator: ModelTranslator, path: Path) -> str:
    """One line: ``path``'s good translations the guard loses and garbled ones it keeps out."""
    rows = [line.split("\t") for line in path.read_text("utf-8").splitlines() if line.strip()]
    labels = [label for _, label, _ in rows]
    texts, _ = translator.translate(labels, [False] * len(labels))
    judge = garbled_fields if path.name.startswith("fields") else garbled  # a field's name, or a label of any kind
    kept = judge(translator.plausibility, labels, texts)
    plausible = translator.plausibility(labels, [ended_as_source(s, t) for s, t in zip(labels, texts, strict=True)])
    counts = {"good": [0, 0], "garbled": [0, 0]}
    for (judgment, label, judged), raw, keep, p in zip(rows, texts, kept, plausible, strict=True):
        if (text := ended_as_source(label, raw)) != judged:
            print(f"  not as judged: {label} -> {text} (judged {judged})")
            continue
        counts[judgment][0] += keep
        counts[judgment][1] += 1
        if keep != (judgment == "garbled"):
            print(f"  {judgment} {'kept out' if keep else 'taken'}: {label} -> {text} ({p:.2f})")
    (lost, good), (out, bad) = counts["good"], counts["garbled"]
    return f"{path.name}: good lost {lost} of {good}, garbled kept out {out} of {bad}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(1)
    model, tokenizer = load_model_dir(args.model)
    translator = ModelTranslator(model, tokenizer)
    for path in args.files or sorted(HERE.glob("*.tsv")):
        print(measured(translator, path))


if __name__ == "__main__":
    main()
