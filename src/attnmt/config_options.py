"""A config's keys as command-line options: ``--key value`` overrides, and the help that lists them.

Apart from attnmt.config and attnmt.train_config because they are about the command line, not the
config's shape: an override is text typed by a user, read as YAML, its key and value checked against
the field it sets before the config is built (so that the error names ``--key`` as typed, not the
file's key), and the help is built from the dataclasses' own source.  ``sections`` maps a key's dotted section
("" for the top level, "model") to the dataclass whose fields it sets (attnmt.train_config.OVERRIDABLE).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Collection
from dataclasses import MISSING, fields
from typing import Any

import yaml

from attnmt.config_file import TAGGED_VALUE_ERRORS, AliasFreeLoader
from attnmt.config_ranges import type_words, typed, with_nearest
from attnmt.errors import ConfigError, warn


def describe_keys(cls: type, prefix: str = "") -> list[str]:
    """One line per field of the dataclass ``cls``: name, type, default, and the comment that
    follows the field in its source file (the config's documentation lives in one place)."""
    comments = dict(re.findall(r"^\s+(\w+): [^#\n]*#\s*(.+)$", inspect.getsource(cls), flags=re.M))
    lines = []
    for f in fields(cls):
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        comment = f": {comments[f.name]}" if f.name in comments else ""
        lines.append(f"  --{prefix}{f.name.replace('_', '-')} ({f.type}, default {default!r}){comment}")
    return lines


def set_override(values: dict[str, Any], key: str, text: str | None, sections: dict[str, type],
                 earlier: Collection[str] = (), unsettable: Collection[str] = (), merge: bool = False) -> None:
    """Sets ``key`` (dotted for nested sections) from command-line text (override_value; None: a bare
    ``--key``, true for a boolean key).  A section given whole (``--model '{d_model: 16}'``) replaces
    the file's, as any key's value does: the keys it leaves out are named in a warning.  With ``merge``
    (a resume, whose run keeps its sections) it sets only the keys it names, each as its dotted option
    would (``--model.dropout 0.2``), and the file's others stay.
    ``earlier``: keys no section has that the config still reads (those of earlier releases).
    ``unsettable``: keys whose default counts as unset, which null or '' takes out of ``values``:
    the command line's only way to unset a key the file sets (train_src, for a --train-tsv)."""
    if key not in earlier:
        check_key(key, sections)
    value = override_value(key, text, sections)
    if key in unsettable and value in (None, ""):
        values.pop(key, None)
        return
    if merge and isinstance(value, dict) and (field_type(key, sections) or "").startswith("dict"):
        for name, item in value.items():
            check_key(f"{key}.{name}", sections)
            set_value(values, f"{key}.{name}", item, sections)
        return
    set_value(values, key, value, sections)


def set_value(values: dict[str, Any], key: str, value: object, sections: dict[str, type]) -> None:
    """Sets the dotted ``key`` of ``values`` to ``value``, read from the option ``--key``, checked
    against the type of the field it sets."""
    *parents, leaf = key.split(".")
    target = values
    for part in parents:
        if target.get(part) is None:  # absent, or a section with nothing under it ("model:")
            target[part] = {}
        target = target[part]
        if not isinstance(target, dict):
            raise ConfigError(f"--{key}: {part} must be a mapping of keys, but the config sets it to {target!r}")
    replaced, target[leaf] = target.get(leaf), value
    warn_dropped_keys(key, replaced, value)
    declared = field_type(key, sections)
    if declared is not None:  # named as the user typed it, not as the config file's
        typed(value, declared, f"--{key.replace('_', '-')}")


def field_type(key: str, sections: dict[str, type]) -> str | None:
    """The type, as its dataclass writes it ("int", "str | None"), of the field the dotted ``key``
    sets; None where no section has that field (a key of a free mapping, or of an earlier release)."""
    section, _, name = key.rpartition(".")
    cls = sections.get(section)
    return next((str(f.type) for f in fields(cls) if f.name == name), None) if cls is not None else None


def warn_dropped_keys(key: str, replaced: object, given: object) -> None:
    """Warns where a mapping-valued key (a section: model, tokenizer_options) given whole on the command
    line leaves out keys set before it, by the file or by an earlier option: they go back to their
    defaults (a ``--model '{d_model: 16}'`` trained 6 + 6 layers of d_ff 2048 where the file said 1 + 1
    of 64), which a dotted ``--model.d-model 16`` would have kept."""
    if not isinstance(replaced, dict) or not isinstance(given, dict | None):
        return
    dropped = [str(name) for name in replaced if name not in (given or {})]
    if dropped:
        option = f"--{key.replace('_', '-')}"
        goes = "go back to their defaults" if len(dropped) > 1 else "goes back to its default"
        warn(f"{option} replaces the whole {key} section, so {', '.join(dropped)}, set before it, {goes}; to "
             f"change one key alone, give it dotted ({option}.KEY VALUE)")


def check_key(key: str, sections: dict[str, type]) -> None:
    """Refuses a key its section does not have, naming the option as typed.  Merged into the file's
    values, a misspelled ``--max-tiem`` would be refused as the config file's own key ("c.yaml:
    unknown key(s) max_tiem"), sending the user to look for it in a file that does not hold it."""
    parts = key.split(".")
    for depth, name in enumerate(parts):
        section = ".".join(parts[:depth])
        cls = sections.get(section)
        if cls is None:  # inside a mapping of free keys (tokenizer_options.model_type): any name
            return
        valid = [f.name for f in fields(cls)]
        if name not in valid:
            kind = f"{section} key" if section else "key"
            raise ConfigError(f"--{key.replace('_', '-')} (command line): unknown {kind} {with_nearest(name, valid)}; "
                              f"valid {kind}s: {', '.join(valid)}")


def override_value(key: str, text: str | None, sections: dict[str, type]) -> Any:
    """Command-line text read as YAML (``4000``, ``true``, ``[0.9, 0.98]``).  A key of text
    (out_dir, max_time) takes the text as typed where YAML would read a number or cannot
    read it at all, or would read a list or mapping not written in brackets: ``--out-dir @runs``,
    ``--max-time 90``, ``--out-dir 007``, ``--out-dir -``.  A bare ``--key``
    (None) is true, for a boolean key or one of a free mapping; any other key needs a value (it
    was refused as "--max-steps must be a whole number, got True", a value no one typed)."""
    declared = field_type(key, sections)
    if text is None:
        return bare_flag(key, declared)
    is_text = declared is not None and declared.startswith("str")
    try:
        value = yaml.load(text, AliasFreeLoader)  # a safe loader that refuses aliases, as config files do
    except (yaml.YAMLError, *TAGGED_VALUE_ERRORS, RecursionError) as error:  # a tagged value: !!int abc, !!bool x
        free = key.rpartition(".")[0] not in sections  # a key of a free mapping (tokenizer_options.x)
        if is_text or free:  # its reader checks a free key
            return text
        tagged = isinstance(error, TAGGED_VALUE_ERRORS)
        problem = getattr(error, "problem", None) or (
            f"a tagged value cannot be read ({type(error).__name__}: {error})" if tagged else "cannot be read")
        raise ConfigError(f"--{key.replace('_', '-')}: {text!r} is not valid YAML ({problem}); write a number, "
                          "true or false, a list [a, b] or a mapping {key: value}") from None
    # a block collection, which no one writes on one line: "-" is YAML's list [null], "a: b" a mapping
    block = isinstance(value, list | dict) and not text.lstrip().startswith(("[", "{"))
    return text if is_text and (block or isinstance(value, int | float) and not isinstance(value, bool)) else value


def bare_flag(key: str, declared: str | None) -> bool:
    """A bare ``--key``'s value: true where ``key``'s field is ``declared`` a boolean (or None, no field:
    a key of a free mapping, or one of an earlier release); a ConfigError naming the value it needs otherwise."""
    if declared is not None and declared.split("|")[0].strip() != "bool":
        option = f"--{key.replace('_', '-')}"
        raise ConfigError(f"{option} needs a value ({type_words(declared)}): {option} VALUE or {option}=VALUE")
    return True
