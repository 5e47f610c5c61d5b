"""The package's shape: the paper and the core at the top, folders that import inward, never sideways or up."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "src" / "attnmt"
# The graph of allowed imports between the package's parts: "top" is the top-level modules (the
# paper's model and what every part shares), each folder a subsystem.  An arrow points inward, to
# a part lower in the list; nothing imports cli, the outermost.
MAY_IMPORT = {
    "top": {"text"},  # checkpoint reads and writes a model's tokenizer files
    "text": {"top"},
    "decoding": {"top", "text"},
    "training": {"top", "text", "decoding"},  # validation translates
    "fast": {"top", "text", "decoding"},
    "inspect": {"top", "text", "decoding"},
    "interop": {"top", "text"},
    "documents": {"top", "text", "decoding", "inspect"},  # markup is carried by inspect's alignments
    "server": {"top", "text", "decoding", "fast", "inspect", "documents"},
    "cli": {"top", "text", "decoding", "training", "fast", "inspect", "interop", "documents", "server"},
}
FOLDERS = tuple(part for part in MAY_IMPORT if part != "top")


def imported_attnmt_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("attnmt"):
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.startswith("attnmt"))
    return names


def part_of_module(name: str) -> str | None:
    """Which part of the package the module ``name`` (or a name imported from one) belongs to."""
    parts = name.split(".")
    if parts[0] != "attnmt" or len(parts) == 1:
        return None
    if parts[1] in FOLDERS:
        return parts[1]
    return "top" if (PACKAGE / f"{parts[1]}.py").exists() else None


def part_of_file(path: Path) -> str:
    relative = path.relative_to(PACKAGE).parts
    return relative[0] if len(relative) > 1 else "top"


def parts_used(path: Path) -> set[str]:
    return {part for name in imported_attnmt_modules(path) if (part := part_of_module(name))}


def test_every_folder_of_the_package_is_in_the_graph():
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders == set(FOLDERS)


def test_each_part_imports_only_the_parts_the_graph_allows():
    for path in PACKAGE.rglob("*.py"):
        part = part_of_file(path)
        if path.relative_to(PACKAGE).parts in (("__init__.py",), ("__main__.py",), ("_moved.py",)):
            continue  # the public names users import, `python -m attnmt`, and the old module paths
        assert parts_used(path) <= MAY_IMPORT[part] | {part}, f"{path.relative_to(PACKAGE)}: {parts_used(path)}"


def test_the_graph_has_no_cycle_between_folders():
    seen: list[str] = []

    def visit(part: str, path: tuple[str, ...]) -> None:
        assert part not in path, " -> ".join((*path, part))
        for lower in MAY_IMPORT[part] - {"top"}:
            visit(lower, (*path, part))
        seen.append(part)

    for folder in FOLDERS:
        visit(folder, ())


def test_old_module_paths_import_the_moved_modules_with_a_warning():
    import importlib
    import sys

    import pytest

    from attnmt._moved import MOVED

    for old, new in sorted(MOVED.items(), key=lambda moved: moved[0].count(".")):  # parents first
        sys.modules.pop(old, None)
        with pytest.warns(DeprecationWarning, match=f"{old} moved to {new}"):
            module = importlib.import_module(old)
        assert module is importlib.import_module(new)
    import attnmt

    assert callable(attnmt.translate), "importing the old module path must not rebind the function"


# The modules of quality estimation, which import one another: quality takes translate's and calibration's
# types for its annotations, calibration fits with quality, elsewhere, elsewhere_examples and calibration_file.
QUALITY_CYCLE = ("attnmt.decoding.translate", "attnmt.decoding.quality", "attnmt.decoding.elsewhere",
                 "attnmt.decoding.calibration_file", "attnmt.decoding.elsewhere_examples",
                 "attnmt.decoding.calibration")
# Forgets the cycle's modules, imports one of them first, and prints what failed; in turn for each.
IMPORT_EACH_FIRST = """
import importlib, sys
import attnmt.decoding
for first in sys.argv[1:]:
    for name in sys.argv[1:]:
        sys.modules.pop(name, None)
        vars(attnmt.decoding).pop(name.rpartition(".")[2], None)
    try:
        importlib.import_module(first)
    except ImportError as error:
        print(f"{first}: {error}")
"""


def test_each_module_of_the_quality_cycle_imports_first():
    """attnmt/__init__.py imports translate, and so quality, before the others: imported first, as a
    program or another __init__ may, elsewhere and calibration_file met a name not defined yet
    (cannot import name 'ENVELOPE_SIGNALS' from partially initialized module 'attnmt.decoding.elsewhere')."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", IMPORT_EACH_FIRST, *QUALITY_CYCLE], capture_output=True, text=True,
                         check=True)
    assert run.stdout == ""


def max_tokens_defaults(path: Path) -> list[str]:
    """How each default of a ``max_tokens`` parameter or field, or of ``--max-tokens``, is spelt in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.arguments):
            named = node.posonlyargs + node.args
            pairs = list(zip(named[len(named) - len(node.defaults):], node.defaults, strict=True))
            pairs += [(arg, default) for arg, default in zip(node.kwonlyargs, node.kw_defaults, strict=True) if default]
            found += [ast.unparse(default) for arg, default in pairs if arg.arg == "max_tokens"]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            found += [ast.unparse(node.value)] if node.target.id == "max_tokens" else []
        elif isinstance(node, ast.Call) and any(isinstance(a, ast.Constant) and a.value == "--max-tokens"
                                                for a in node.args):
            found += [ast.unparse(k.value) for k in node.keywords if k.arg == "default"]
    return found


def test_each_batch_budget_default_is_spelt_once():
    """Translation's budget is attnmt.decoding.MAX_TOKENS, training's TrainConfig.max_tokens (its owner)."""
    spelt = {str(path.relative_to(PACKAGE)): max_tokens_defaults(path) for path in PACKAGE.rglob("*.py")}
    spelt = {name: defaults for name, defaults in spelt.items() if defaults}
    assert spelt.pop("train_config.py") == ["4096"]
    assert spelt.pop("training/batching.py") == ["TrainConfig.max_tokens"]
    assert set(spelt) >= {"decoding/translate.py", "inspect/align.py", "documents/translators.py",
                          "cli/commands/translate.py"}
    assert {default for defaults in spelt.values() for default in defaults} == {"MAX_TOKENS"}


# STYLE.md: files under about 400 lines, so that a newcomer can read one whole.
MOST_LINES = 400


def test_no_module_is_longer_than_the_style_allows():
    long = {str(path.relative_to(PACKAGE)): lines for path in sorted(PACKAGE.rglob("*.py"))
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, f"modules over {MOST_LINES} lines (STYLE.md): {long}"


def text_without_encoding(path: Path) -> list[str]:
    """The calls in ``path`` that read or write a file as text in the locale's encoding: ``.read_text()``,
    ``.write_text()`` and ``open()`` in text mode, each without ``encoding=``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or any(k.arg == "encoding" for k in node.keywords):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("read_text", "write_text"):
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
        elif isinstance(node.func, ast.Name) and node.func.id == "open":
            given = [k.value for k in node.keywords if k.arg == "mode"] + node.args[1:2]
            mode = given[0] if given else None
            if not (isinstance(mode, ast.Constant) and "b" in mode.value):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_every_file_read_or_written_as_text_names_its_encoding():
    """The locale's is not the file's: under LC_ALL=POSIX the extension's C++ sources (UTF-8 comments)
    could not be read, and every run fell back to the slow decoder step with a warning."""
    found = [call for path in sorted(PACKAGE.rglob("*.py")) for call in text_without_encoding(path)]
    assert not found, f"text read or written in the locale's encoding: {found}"


# Loads attnmt, then prints which of the modules behind its public names it loaded, what each such name is
# once asked for, the public names dir() does not list, and whether it has a name it does not have.
PUBLIC_NAMES = """
import sys
import attnmt
print(sorted(name for name in ("attnmt.decoding.quality", "attnmt.decoding.glossary", "attnmt.documents")
             if name in sys.modules))
print(attnmt.translate.__module__, attnmt.translate_n_best.__module__, attnmt.assess.__module__,
      attnmt.Glossary.__module__)
print(sorted(set(attnmt.__all__) - set(dir(attnmt))), hasattr(attnmt, "translate_fast"))
"""


def test_importing_the_package_loads_the_modules_of_its_public_names_at_their_first_use():
    """``import attnmt`` (and so every command) loaded quality estimation, glossary files and the documents'
    sentence placing, which a one-line job of plain text never uses (issue 44)."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", PUBLIC_NAMES], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines() == [
        "[]", "attnmt.documents.sentence_translate attnmt.documents.sentence_translate attnmt.decoding.quality "
        "attnmt.decoding.glossary", "[] False"]
