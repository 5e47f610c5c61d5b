"""A Python name in double underscores typed in Markdown's text, ``__init__``, kept whole as written.

CommonMark reads ``Call __init__ in Python.`` as strong emphasis over "init", so the model was given "Call init in
Python.", translated "init" as a word, and the name came back ``__Init__`` or bold around another word.  A writer
who types it means the name, which a line of plain text keeps as a program's (attnmt.decoding.protected's
PROGRAM_NAME).  In Markdown ``__word__`` is also how many write bold (``A __small__ toolkit``), so only Python's own
names in double underscores (DUNDERS: the data model's methods and attributes, a module's) are read as one, with a
dotted name or a file's extension after it (``__init__.py``, ``__main__.py``) or its empty brackets
(``__repr__()``); any other ``__word__`` stays strong.  Such a name is an atom (a ``kept_inline`` token, as an emoji
code is: attnmt.documents.markdown_github.kept_rule), written back as it was.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from attnmt.documents.markdown_github import kept_rule

# Python's names in double underscores: the data model's special methods and attributes, a module's and a package's.
DUNDERS = frozenset("""
    init new del repr str bytes format lt le eq ne gt ge hash bool getattr getattribute setattr delattr dir get set
    delete set_name slots init_subclass class_getitem call len length_hint getitem setitem delitem missing iter
    reversed contains add sub mul matmul truediv floordiv mod divmod pow lshift rshift and xor or radd rsub rmul
    rmatmul rtruediv rfloordiv rmod rdivmod rpow rlshift rrshift rand rxor ror iadd isub imul imatmul itruediv
    ifloordiv imod ipow ilshift irshift iand ixor ior neg pos abs invert complex int float index round trunc floor
    ceil enter exit aenter aexit await aiter anext buffer release_buffer main name qualname module doc dict class
    all version file path package spec loader builtins annotations mro bases subclasses future pycache debug import
    post_init fspath sizeof reduce reduce_ex getstate setstate getnewargs copy deepcopy instancecheck subclasscheck
    prepare weakref wrapped closure code defaults kwdefaults globals self func match_args dataclass_fields
    """.split())
# A name of DUNDERS, with the dotted names or a file's extension after it, its empty brackets, and no word character
# after all.
DUNDER = re.compile(rf"__(?:{'|'.join(sorted(DUNDERS, key=len, reverse=True))})__(?:\.\w+)*(?:\(\))?(?!\w)")


def python_names(md: MarkdownIt) -> MarkdownIt:
    """``md`` reading a Python name in double underscores (DUNDER) as one atom, before emphasis can read it."""
    md.inline.ruler.before("emphasis", "python_name", python_name)
    return md


def python_name(state: StateInline, silent: bool) -> bool:
    """kept_rule's reading of DUNDER, at a ``_`` that no word character comes before (``my__init__`` is no name of
    Python's: markdown-it asks its inline rules at each ``_``, inside a word too)."""
    before = state.src[state.pos - 1] if state.pos else ""
    return not (before.isalnum() or before == "_") and READ(state, silent)


READ = kept_rule(DUNDER, "_")
