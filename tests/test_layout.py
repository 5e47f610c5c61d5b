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
    assert spelt.pop("config.py") == ["4096"]
    assert spelt.pop("batching.py") == ["TrainConfig.max_tokens"]
    assert set(spelt) >= {"translate.py", "inspect/align.py", "documents/pipeline.py", "app/commands/translate.py"}
    assert {default for defaults in spelt.values() for default in defaults} == {"MAX_TOKENS"}
