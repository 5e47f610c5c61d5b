"""A formula or a unit written with its scripts in an office paragraph's runs (``H``, a subscript run ``2``,
``O``; ``25 m`` and a superscript ``2``): read as a page's ``<sub>`` and ``<sup>`` are
(attnmt.documents.script_tokens), one token kept whole where the translation puts it: the script run as it
was, and the letters glued to it, taken out of the runs of the paragraph's base look beside it.

Read as a run of a look of its own, the script was a mark: "H2O" went to the model, which did not keep it,
and the subscript's look went over the translated words aligned to it ("Bei einem" + "T-Shirt und hält" in
subscript), "H" and "O" lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lxml import etree

from attnmt.documents.formatting import formatting
from attnmt.documents.ooxml_dialects import Dialect
from attnmt.documents.script_tokens import Script, Scripted, scripted


@dataclass
class Formulas:
    """What a container's runs hold of formulas and units: ``scripts``, each script run kept whole with its
    letters; ``texts``, each base run whose letters a script took, with the text left to read of it."""

    scripts: dict[etree._Element, Scripted] = field(default_factory=dict)
    texts: dict[etree._Element, str] = field(default_factory=dict)


def formula_runs(children: Sequence[etree._Element], dialect: Dialect, base: etree._Element | None,
                 kind_of: Callable[[etree._Element], str]) -> Formulas:
    """The formulas and units among a container's ``children`` (as read: merged runs), ``base`` its base run;
    ``kind_of``: where a run's look sets it (formatting.script_kind of its layers).  A letter is taken only
    from a run of text alone in the base look: it goes back into such a run, where the translation puts it."""
    texts, owners = [""], [None]  # the text between two children read apart, and the base run it is
    items: list[etree._Element | None] = []
    scripts: list[Script | None] = []
    look = None if base is None else formatting(base, dialect)
    for child in children:
        based = is_text_run(child, dialect) and formatting(child, dialect) == look
        if not based or owners[-1] is not None:  # two base runs side by side: each its own text
            kind = kind_of(child) if not based and is_text_run(child, dialect) else ""
            items.append(None if based else child)
            scripts.append(Script(kind, run_text(child, dialect)) if kind else None)
            texts.append("")
            owners.append(None)
        if based:
            texts[-1], owners[-1] = run_text(child, dialect), child
    found = scripted(texts, scripts)
    formulas = Formulas({item: found[k] for k, item in enumerate(items) if k in found and item is not None})
    for j, owner in enumerate(owners):
        start, end = len(found[j - 1].after) if j - 1 in found else 0, len(found[j].before) if j in found else 0
        if owner is not None and (start or end):
            formulas.texts[owner] = texts[j][start:len(texts[j]) - end]
    return formulas


def is_text_run(node: etree._Element, dialect: Dialect) -> bool:
    """Whether ``node`` is a run of text alone (its properties aside): no tab, break or field in it."""
    return node.tag == dialect.run and all(part.tag in (dialect.properties, dialect.text) for part in node)


def run_text(run: etree._Element, dialect: Dialect) -> str:
    return "".join(dialect.text_of(part) for part in run.iterchildren(dialect.text))
