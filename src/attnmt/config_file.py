"""A training config file read into a mapping of keys to values, before any key is checked.

Apart from attnmt.train_config, which checks the keys and builds the config from them, because it is
about the file: YAML read with each key once in each mapping and without aliases but those of merge
keys (UniqueKeyLoader), or a ``*.json`` file read as JSON, and a file that cannot be read as such is
one line naming it, and the line where there is one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from attnmt.errors import ConfigError, json_value

# PyYAML's contexts for the parts of YAML that open with a character and must be closed by another,
# in plain words.
UNCLOSED = {"while scanning a quoted scalar": "a quoted value", "while parsing a flow mapping": "a mapping",
            "while parsing a flow sequence": "a list"}
BRACKETS = {"[": "a list", "{": "a mapping"}
MERGE = "tag:yaml.org,2002:merge"  # the tag of YAML's merge key, <<
VALUE = "tag:yaml.org,2002:value"  # the tag of YAML's value key, =
FIRST = "; first occurrence"  # the end of PyYAML's context for a thing given twice (an anchor)
# What PyYAML's constructors raise for a tagged value they cannot build (!!int abc, !!int "", !!bool x,
# !!timestamp abc), besides its own YAMLError.
TAGGED_VALUE_ERRORS = (ValueError, KeyError, IndexError, AttributeError, TypeError)


def read_config_file(path: Path) -> dict[str, Any]:
    """The mapping of keys to values a YAML config file holds; one line naming the file (and the line,
    where there is one to name) for a file that is missing, not UTF-8, not YAML, or gives a key twice.
    A ``*.json`` file is read as JSON (read_json_config)."""
    try:
        text = path.read_text(encoding="utf-8")
        json_file = path.suffix.lower() == ".json"
        values = (read_json_config(path, text) if json_file else yaml.load(text, UniqueKeyLoader)) or {}
    except ConfigError:  # read_json_config's, naming the file already (a ValueError, as a tagged value's are)
        raise
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the config ({error.strerror})") from None
    except UnicodeDecodeError as error:
        line = path.read_bytes()[:error.start].count(b"\n") + 1
        raise ConfigError(f"{path}: line {line}: byte 0x{error.object[error.start]:02x} is not UTF-8; "
                          "save the config as UTF-8") from None
    except AliasRefused as error:
        raise ConfigError(f"{path}: {where(error.mark)}: {error.problem}") from None
    except RepeatedKey as error:
        raise ConfigError(f"{path}: line {error.again}: {error.key} is given twice (first at line {error.first}), "
                          "and YAML would keep the last alone: give it once") from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: {yaml_problem(error, text)}") from None
    except TAGGED_VALUE_ERRORS as error:  # a value its tag cannot make: !!int abc, !!timestamp 2020-99-99, !!bool x
        raise ConfigError(f"{path}: not valid YAML: a tagged value cannot be read ({type(error).__name__}: "
                          f"{error})") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid YAML for attnmt: nested too deep") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{path}: expected a mapping of keys to values at the top level")
    return values


def read_json_config(path: Path, text: str) -> Any:
    """What a JSON config's ``text`` holds.  JSON is YAML but for its whitespace: ``json.dump(...,
    indent="\t")`` indents with tabs, which YAML refuses ("found character '\t' that cannot start any
    token").  Read as JSON, a number such as 1e-05 is a number too (YAML 1.1 reads it as text), and a
    key given twice in one object is refused, as in YAML."""
    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for key, value in pairs:
            if key in values:
                raise ConfigError(f"{path}: {key} is given twice, and JSON readers would keep the last alone: "
                                  "give it once")
            values[key] = value
        return values

    try:
        return json_value(text.removeprefix("\ufeff"), object_pairs_hook=unique_keys)
    except json.JSONDecodeError as error:
        reason = error.msg[:1].lower() + error.msg[1:]
        raise ConfigError(f"{path}: line {error.lineno}, column {error.colno}: not valid JSON: {reason}") from None


def yaml_problem(error: yaml.YAMLError, text: str) -> str:
    """What PyYAML found wrong in ``text``, in one line with its place ("line 13, column 2: not valid
    YAML: expected <block end>, but found '<block mapping start>' (while parsing a block mapping from
    line 1, column 1)").  PyYAML's own message takes several lines, names the text "<unicode string>"
    and quotes it with a caret.  The place is where the parser stopped (its problem mark): the
    mark of its context is where the part being read started, which for a bad indent is the first
    line of the whole mapping, so it follows in words.  A context that is no "while ..." is the
    first half of the problem ("expected a single document in the stream, but found another
    document") and comes before it.  A quote or bracket the file ends inside is named where it
    opened: where the parser stopped is the end of the file, the line after the last."""
    if isinstance(error, yaml.MarkedYAMLError):
        opened = error.context_mark if is_unclosed_at_end(error, text) else bracket_open_at_end(error, text)
        if opened is not None:
            what = UNCLOSED.get(error.context or "") or BRACKETS[text[opened.index]]
            return (f"{where(opened)}: not valid YAML: {what} starts here with "
                    f"{text[opened.index]!r}, and the file ends before it is closed")
        mark = error.problem_mark or error.context_mark
        place = f"{where(mark)}: " if mark else ""
        return f"{place}not valid YAML: {yaml_words(error)}"
    if isinstance(error, yaml.reader.ReaderError):  # a character YAML does not allow (a control character)
        line = text[:error.position].count("\n") + 1
        return f"line {line}: not valid YAML: character #x{error.character:04x}: {error.reason}"
    return f"not valid YAML: {str(error).splitlines()[0]}"


def yaml_words(error: yaml.MarkedYAMLError) -> str:
    """PyYAML's problem with its context, in words: "found unhashable key (while constructing a
    mapping from line 1, column 1)", "expected a single document in the stream, but found
    another document", or "found duplicate anchor 'x' (first at line 1, column 4)" (PyYAML's
    context for that is the first anchor's, "first occurrence", and its problem the second's)."""
    if not error.context or not error.problem:
        return error.problem or error.context or "cannot be read"
    mark = error.context_mark
    if error.context.endswith(FIRST) and error.problem == "second occurrence" and mark:
        return f"{error.context.removesuffix(FIRST)} (first at {where(mark)})"
    if not error.context.startswith("while "):
        return f"{error.context}, {error.problem}"
    start = f" from {where(mark)}" if mark else ""
    return f"{error.problem} ({error.context}{start})"


def is_unclosed_at_end(error: yaml.MarkedYAMLError, text: str) -> bool:
    """Whether ``text`` ends inside a quoted value, a mapping {...} or a list [...] that
    PyYAML was still reading (the problem mark is at the end of the text)."""
    opened, stopped = error.context_mark, error.problem_mark
    return (error.context in UNCLOSED and opened is not None and stopped is not None
            and opened.index < len(text) <= stopped.index)


def bracket_open_at_end(error: yaml.MarkedYAMLError, text: str) -> yaml.Mark | None:
    """Where the innermost ``[`` or ``{`` still open at the end of ``text`` opened, for an error
    PyYAML met at the end of the text (a list that ends after a comma, ``x: [a,``, is "while parsing
    a flow node" there, its context the end too); None where there is none, or the error is elsewhere.
    Found with PyYAML's scanner, which reads brackets as YAML does (not those in quotes or comments)."""
    if error.problem_mark is None or error.problem_mark.index < len(text):
        return None
    opened: list[yaml.Mark] = []
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(token, (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)):
                opened.append(token.start_mark)
            elif isinstance(token, (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)) and opened:
                opened.pop()
    except yaml.YAMLError:
        return None
    return opened[-1] if opened else None


def where(mark: yaml.Mark) -> str:
    """A mark of PyYAML's (counted from 0) as a person counts: "line 3, column 4"."""
    return f"line {mark.line + 1}, column {mark.column + 1}"


class RepeatedKey(yaml.YAMLError):
    """A key given twice in one mapping of a YAML file, at lines ``first`` and ``again`` (from 1)."""

    def __init__(self, key: object, first: int, again: int) -> None:
        super().__init__(f"line {again}: {key} is given twice (first at line {first})")
        self.key, self.first, self.again = key, first, again


class AliasRefused(yaml.YAMLError):
    """A YAML alias (``*name``, the value anchored ``&name`` again) at ``mark``; ``problem`` in words."""

    def __init__(self, anchor: str, mark: yaml.Mark) -> None:
        self.problem = (f"*{anchor} repeats a value (a YAML alias), which attnmt does not read: a few lines of "
                        "aliases can stand for billions of values; write the value out")
        super().__init__(f"{where(mark)}: {self.problem}")
        self.mark = mark


def is_merge_key(node: object) -> bool:
    """Whether ``node`` is YAML's merge key, a plain ``<<`` (a quoted one is the text "<<")."""
    return isinstance(node, yaml.ScalarNode) and node.tag == MERGE


class AliasFreeLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing aliases (AliasRefused) but those a merge key takes (``<<: *name``,
    ``<<: [*a, *b]``).  Nine lines of lists of ten aliases each (a "billion laughs") read as a list of
    10⁹ ones, which the message refusing the value printed whole, the process growing past gigabytes.
    A merge copies a mapping's keys into another, one level, so a chain of merges grows by the keys
    written in the file; each key is kept once in a mapping as it is flattened, or merging one mapping
    twice at each level (``<<: [*a, *a]``) would still double it, as PyYAML before 6.0.4 did.  An anchor
    alone (``&name``) repeats nothing and is read as before; an alias with no anchor is PyYAML's error."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.merge_lists: list[bool] = []  # for each node being composed: is it a list a merge key takes?

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:
        merged = is_merge_key(index) or isinstance(parent, yaml.SequenceNode) and self.merge_lists[-1]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            if event.anchor in self.anchors and not merged:
                raise AliasRefused(event.anchor, event.start_mark)
        self.merge_lists.append(is_merge_key(index) and self.check_event(yaml.SequenceStartEvent))
        try:
            return super().compose_node(parent, index)
        finally:
            self.merge_lists.pop()

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        """Each ``<<`` of ``node`` replaced by the keys of the mappings it names, in place, each key kept
        once: its own value over a merged one, and the first mapping's of a list ``[*a, *b]`` over the
        next's.  PyYAML's own kept every copy (and 6.0.4 keeps the first of a key merged twice, though a
        mapping merged in may have set it again)."""
        merges = [value for key, value in node.value if is_merge_key(key)]
        node.value = [(key, value) for key, value in node.value if not is_merge_key(key)]  # a cycle ends here
        merged: list[tuple[yaml.Node, yaml.Node]] = []
        for value in merges:
            for source in reversed(value.value if isinstance(value, yaml.SequenceNode) else [value]):
                if not isinstance(source, yaml.MappingNode):
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping", node.start_mark,
                        f"expected a mapping or list of mappings for merging, but found {source.id}", source.start_mark)
                self.flatten_mapping(source)
                merged.extend(source.value)
        kept: dict[object, tuple[yaml.Node, yaml.Node]] = {}
        for key, value in merged + node.value:  # the last of a key is the one a mapping keeps
            if key.tag == VALUE:  # YAML's value key, =, is the text "=" (as PyYAML reads it)
                key.tag = "tag:yaml.org,2002:str"
            same = (key.tag, key.value) if isinstance(key, yaml.ScalarNode) else id(key)
            kept.pop(same, None)
            kept[same] = (key, value)
        node.value = list(kept.values())


class UniqueKeyLoader(AliasFreeLoader):
    """YAML's safe loader without aliases, refusing a key given twice in one mapping (RepeatedKey).
    PyYAML keeps the last without a word: a second ``model:`` block added at the end of a config
    replaced the first whole, and the run trained the paper's base model instead of the small one
    the first described.  The keys are checked as each mapping is composed, as written: a mapping
    merged into another (``<<: *name``) is flattened in place, and may be before it is constructed,
    when the keys merged into it would read as given again."""

    def compose_mapping_node(self, anchor: str | None) -> yaml.MappingNode:
        node = super().compose_mapping_node(anchor)
        lines: dict[object, int] = {}
        for key_node, _ in node.value:
            if is_merge_key(key_node) or not isinstance(key_node, yaml.ScalarNode):
                continue  # keys merged in with << may be set again: that is what merging is for
            key, line = self.construct_object(key_node), key_node.start_mark.line + 1
            if key in lines:
                raise RepeatedKey(key, lines[key], line)
            lines[key] = line
        return node
