"""A trained model's language pair, as its training record names it: the codes its training files'
names end in (``train.en.gz`` / ``train.de.gz`` -> en, de).

Both the server (a model served without ``--model en-de=DIR`` is named and listed by it) and
``attnmt translate`` (the language a translated document says it is in, where --target-lang is left
out) read it here, so that a model translates into the same language wherever it runs.
"""

from __future__ import annotations

import re
from pathlib import Path

COMPRESSED = ("gz", "xz")  # file endings that are not languages


def languages_from_training(model_dir: Path) -> tuple[str | None, str | None]:
    """The languages a model's train.yaml names: its source_lang and target_lang, else the codes its training
    files' names end in (``train.en.gz`` / ``train.de.gz`` -> en, de), or a train_tsv's run's validation files'
    (its train_src and train_tgt are Multi30k's defaults, never read: it was named en-de whatever it translated);
    (None, None) where it names no two different ones, or where its ``train:`` entries name more than one
    source or target language: a multilingual model (en->de and en->fr, chosen by a >>fr<< token) has no one
    target language, and taking the first entry's refused its XLIFF files for fr as "asked for de"."""
    from attnmt.checkpoint import TRAIN_CONFIG  # torch and the checkpoint code, needed only here

    try:
        text = (model_dir / TRAIN_CONFIG).read_text(encoding="utf-8")
    except (OSError, ValueError):  # ValueError: not UTF-8
        return None, None
    # YAML's reader loaded where there is a record to read: a model imported from Marian has none, and its
    # one-line job spent some 0.015 s of its start on the import (issue 44)
    import yaml

    from attnmt.config_file import TAGGED_VALUE_ERRORS

    try:
        config = yaml.safe_load(text)
    except (*TAGGED_VALUE_ERRORS, RecursionError, yaml.YAMLError):  # ValueError: !!int abc
        return None, None
    if not isinstance(config, dict):  # empty, or a list or a scalar: no training files to name the pair
        return None, None
    given = (config.get("source_lang"), config.get("target_lang"))
    if all(isinstance(code, str) for code in given):  # the pair the run was told it translates
        return given if given[0] != given[1] else (None, None)
    if config.get("train_tsv") and config.get("train") is None:  # train_src, train_tgt: the defaults it left unread
        validated = (code_in_name(config.get("valid_src")), code_in_name(config.get("valid_tgt")))
        return validated if None not in validated and validated[0] != validated[1] else (None, None)
    train = config.get("train")
    entries = [entry for entry in train if isinstance(entry, dict)] if isinstance(train, list) else []
    pairs = {(code_in_name(entry.get("src", config.get("train_src"))),
              code_in_name(entry.get("tgt", config.get("train_tgt")))) for entry in entries or [{}]}
    named = {pair for pair in pairs if None not in pair}  # a TSV entry ({"tsv": "b.tsv"}) names no language
    codes = named.pop() if len(named) == 1 else (None, None)
    return codes if codes[0] != codes[1] else (None, None)


def code_in_name(path: object) -> str | None:
    """The last two-letter part of a file name (``train.en.gz`` -> "en"), if any."""
    if not isinstance(path, str):
        return None
    parts = [part for part in Path(path).name.split(".")[1:]
             if re.fullmatch(r"[a-z]{2}", part) and part not in COMPRESSED]
    return parts[-1] if parts else None
