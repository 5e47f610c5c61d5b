"""The user's documents: every relative link in the README, the changelog, docs/ and the benchmarks'
README leads to a file that exists, and a link to a heading (``page.md#heading``) to a heading
that page has, as GitHub names its anchors; every function and class the API reference shows
has a docstring; the BLEU that --int8 and --bf16 keep is the one benchmarks/results/ measured; every
command the README shows is one attnmt's parser takes.
(The API reference's own links are checked by ``mkdocs build --strict``: ``make docs``.)"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from attnmt.documents.elements import UNTRANSLATED

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "benchmarks" / "README.md",
                *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
# Inline code, over a line break too but within a paragraph: "`[text](target)`" shows the syntax, no link
CODE_SPAN = re.compile(r"(`+)(?!`)(?:(?!\n\n).)*?(?<!`)\1(?!`)", re.S)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {github_anchor(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def links(page: Path) -> list[str]:
    return LINK.findall(CODE_SPAN.sub("", FENCE.sub("", page.read_text(encoding="utf-8"))))


def test_github_anchor_follows_githubs_rules():
    assert github_anchor("A reference run: Multi30k in 30 minutes") == "a-reference-run-multi30k-in-30-minutes"
    assert github_anchor("Attention's cost with length") == "attentions-cost-with-length"
    assert github_anchor("`Decoding`, the options") == "decoding-the-options"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page: Path):
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: {file.relative_to(ROOT)} has no heading '#{anchor}'")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def reference_modules() -> list[str]:
    """The modules the API reference has a page for (mkdocs.yml's nav)."""
    return re.findall(r"^  - (attnmt[\w.]*): ", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)


@pytest.mark.parametrize("name", reference_modules())
def test_every_public_function_and_class_on_the_api_reference_has_a_docstring(name: str):
    module = importlib.import_module(name)
    bare = [key for key, value in vars(module).items()
            if not key.startswith("_") and (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == name and not inspect.getdoc(value)]
    assert not bare, f"{name}: {bare} show on the reference page with no docstring"


# A row of benchmarks/decode.py's tables with a BLEU column: "  attnmt int8   3.97   251.6   12461   0.76x   33.7"
BLEU_ROW = re.compile(r"\s+attnmt (?P<engine>fp32|int8|bf16)(?: 1 thread)?\s+[\d.]+\s+[\d.]+\s+\d+\s+[\d.]+x\s+"
                      r"(?P<bleu>\d+\.\d+)$")


def measured_bleu_gaps(engine: str) -> list[float]:
    """How far attnmt ``engine``'s BLEU (int8, bf16) is from fp32's in each table of
    benchmarks/results/decode_*.txt that has both (a table starts at its ``engine`` header)."""
    gaps = []
    for path in sorted((ROOT / "benchmarks" / "results").glob("decode_*.txt")):
        tables = re.split(r"^\s+engine\s", path.read_text(encoding="utf-8"), flags=re.M)
        for table in tables:
            bleu: dict[str, list[float]] = {}
            for row in filter(None, map(BLEU_ROW.match, table.splitlines())):
                bleu.setdefault(row["engine"], []).append(float(row["bleu"]))
            gaps += [round(abs(b - bleu["fp32"][0]), 2) for b in bleu.get(engine, [])] if "fp32" in bleu else []
    return gaps


def test_the_precision_options_state_the_bleu_margin_measured():
    """docs/performance.md and --help said int8 keeps BLEU within 0.1 and within ~0.5 of fp32,
    where the runs in benchmarks/results/ measured up to 0.2 (33.7 against 33.9)."""
    from attnmt.cli.options import BF16_HELP, INT8_HELP

    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    int8, bf16 = re.search(r"int8 keeps BLEU within ([\d.]+) of fp32.*?bf16\s+within\s+([\d.]+)", page, re.S).groups()
    assert max(measured_bleu_gaps("int8")) == float(int8) and max(measured_bleu_gaps("bf16")) == float(bf16)
    assert f"BLEU within {int8} of fp32" in INT8_HELP and f"BLEU within {bf16} of fp32" in BF16_HELP


# What the README names without running it: a command, a flag of one, the help (which exits).
MENTIONS = {"attnmt translate", "attnmt import --from-marian", "attnmt train --help"}


def readme_commands() -> list[str]:
    """Each ``attnmt`` command the README shows: a line of a ```bash block (continuations joined,
    comments cut), or inline code."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```bash\n(.*?)^```", text, re.S | re.M)
    lines = [line.split("#")[0].strip() for block in blocks for line in block.replace("\\\n", " ").splitlines()]
    commands = [*lines, *re.findall(r"`(attnmt [^`]*)`", text)]
    return [c for c in commands if c.startswith("attnmt ") and c not in MENTIONS]


@pytest.mark.parametrize("command", readme_commands())
def test_every_command_of_the_readme_is_one_attnmt_takes(command: str):
    """The tour's `attnmt score --src x.en --hyp x.de` lacked --model, which score requires."""
    import shlex

    from attnmt.cli.main import OWN_FLAGS, build_parser, split_overrides

    argv = shlex.split(command)[1:]
    if argv[0] in OWN_FLAGS:  # train's config keys (--max-time 30m) are no options of its parser
        argv, _ = split_overrides(argv, OWN_FLAGS[argv[0]])
    build_parser().parse_args(argv)


def test_every_html_element_kept_as_it_is_is_named_in_the_documents_table():
    """<template>, never translated, was missing from docs/documents.md's "kept exactly" column."""
    row = next(line for line in (ROOT / "docs" / "documents.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| HTML fragment or page |"))
    kept = row.split(" | ")[2]
    assert [name for name in sorted(UNTRANSLATED) if f"`<{name}>`" not in kept] == []
