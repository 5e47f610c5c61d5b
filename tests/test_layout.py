"""The package's shape: the paper and the core at the top, folders that import inward, never sideways or up."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "src" / "attnmt"
FOLDERS = ("training", "fast", "inspect", "interop", "documents", "app")
# Which folders a folder may import besides the top-level modules (app is the outermost).
# documents carries markup through translation by inspect's word alignments.
MAY_IMPORT = {"training": set(), "fast": set(), "inspect": set(), "interop": set(), "documents": {"inspect"},
              "app": set(FOLDERS)}


def imported_attnmt_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("attnmt"):
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.startswith("attnmt"))
    return names


def folders_used(path: Path) -> set[str]:
    parts = [name.split(".") for name in imported_attnmt_modules(path)]
    return {p[1] for p in parts if len(p) > 1 and p[1] in FOLDERS}


def test_top_level_modules_import_no_folder():
    for path in PACKAGE.glob("*.py"):
        if path.name != "__main__.py":  # `python -m attnmt` starts the command line
            assert folders_used(path) == set(), path.name


def test_each_folder_imports_only_the_top_level_and_itself():
    for folder in FOLDERS:
        for path in (PACKAGE / folder).glob("*.py"):
            assert folders_used(path) <= MAY_IMPORT[folder] | {folder}, f"{folder}/{path.name}"
