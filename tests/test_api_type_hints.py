"""Every entry the API reference shows has type hints a program can read: ``typing.get_type_hints``
resolves them.  Tools that build on annotations (typer, pydantic, FastAPI's dependencies,
sphinx-autodoc-typehints, beartype) call it, and it raised NameError wherever an annotation named a
type imported only for the type checker (``if TYPE_CHECKING:``), as attnmt's modules once did."""

from __future__ import annotations

import importlib
import inspect
import re
import typing
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A page's entry, "::: attnmt.fast", with the indented lines of its options below it.
ENTRY = re.compile(r"^::: ([\w.]+)\n((?:[ \t]+.*\n)*)", re.M)
MEMBERS = re.compile(r"^[ \t]+members: \[([^\]]*)\]", re.M)  # "members: [prepare, FastTransformer]"


def reference_entries() -> list[tuple[str, list[str] | None]]:
    """Each ``::: name`` of docs/api/*.md, with its ``members`` option where it has one."""
    entries = []
    for page in sorted((ROOT / "docs" / "api").glob("*.md")):
        for name, options in ENTRY.findall(page.read_text(encoding="utf-8") + "\n"):
            members = MEMBERS.search(options)
            entries.append((name, [m.strip() for m in members[1].split(",")] if members else None))
    return entries


def shown_members(module: object, members: list[str] | None) -> list[str]:
    """The names mkdocstrings shows on ``module``'s page: those its ``members`` option names, else
    the module's ``__all__``, else the public names defined in the module (not the imported ones)."""
    if members is not None:
        return members
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [key for key, value in vars(module).items()
            if not key.startswith("_") and getattr(value, "__module__", None) == module.__name__]


def class_parts(name: str, cls: type) -> Iterator[tuple[str, object]]:
    """A class as the reference shows it: its fields, its signature (``__init__``), and its public
    methods, properties and nested classes."""
    yield name, cls
    if "__init__" in vars(cls):
        yield f"{name}.__init__", cls.__init__
    for key, value in vars(cls).items():
        if key.startswith("_"):
            continue
        if isinstance(value, property):
            yield f"{name}.{key}", value.fget
        elif isinstance(value, staticmethod | classmethod):
            yield f"{name}.{key}", value.__func__
        elif inspect.isfunction(value):
            yield f"{name}.{key}", value
        elif inspect.isclass(value):
            yield from class_parts(f"{name}.{key}", value)


def shown_objects() -> Iterator[tuple[str, object]]:
    """(dotted name, object) for everything the API reference renders with annotations."""
    for name, members in reference_entries():
        module = importlib.import_module(name)
        yield name, module  # its annotated module-level names
        for key in shown_members(module, members):
            value = getattr(module, key)
            if inspect.isclass(value):
                yield from class_parts(f"{name}.{key}", value)
            elif callable(value):
                yield f"{name}.{key}", value


def test_the_reference_entries_are_read_from_the_pages():
    entries = dict(reference_entries())
    assert entries["attnmt.fast"] == ["prepare", "FastTransformer"]
    assert entries["attnmt.decoding.translate"] is None
    assert len(entries) == len(list((ROOT / "docs" / "api").glob("attnmt*.md")))


def test_a_class_is_shown_with_its_signature_methods_and_properties():
    from attnmt.decoding.glossary import Glossary

    names = [name for name, _ in class_parts("Glossary", Glossary)]
    assert names[:2] == ["Glossary", "Glossary.__init__"]
    assert {"Glossary.merged", "Glossary.matches"} <= set(names)


def test_every_entry_of_the_api_reference_has_type_hints_a_program_can_read():
    unreadable = []
    for name, value in shown_objects():
        try:
            typing.get_type_hints(value)
        except NameError as error:
            unreadable.append(f"{name} ({error})")
    assert not unreadable, "typing.get_type_hints raises on:\n" + "\n".join(unreadable)
