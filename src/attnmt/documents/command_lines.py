"""The lines of a plain text that are a shell command alone: code, kept whole.

A README, a support answer or a chat message tells its reader what to type on a line of its own, with no prompt
before it (``npm install express``, ``sudo apt-get install curl``, ``cd ~/projects``): read as words, the command was
translated (``npm install express`` came back ``Auf diesem Firmen`` from the demo model), indented four spaces too,
where it shows no other sign of code (attnmt.documents.indented_code).  A line typed after a shell's ``$`` is kept by
attnmt.documents.prompt_lines; this is the same line without it.

A line is a command where it is a program's name and what it is given, and nothing a sentence is made of:

- it starts with a command's name as typed, in lower case (``COMMANDS``: a tool's name that is no English word,
  ``npm``, ``git``, ``sudo``), or with a path to a program (``./configure``, ``~/bin/deploy.sh``);
- a name that is an English word too (``WORDS``: ``make``, ``echo``, ``export``) makes a command only with an
  argument that shows code: an option, a path, a variable, an assignment (``make -j4``, ``echo $HOME``; ``make sure
  the dog eats`` is a sentence);
- no word after it is one prose is made of (``PROSE``: ``is``, ``the``, ``to``, ``again``) or holds an apostrophe
  (``didn't``), the words a string in quotes holds aside (``git commit -m "fix the bug"``), and it ends with no stop
  after a word (``cd ..`` ends with none).

"Git is a version control system." starts with a capital, and "git is a tool" with a word of ``PROSE`` after
the name: both stay sentences.

    command_lines(lines) -> {the index of each line that is a command alone};  is_command(line) -> bool
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Programs people are told to type the name of, whose names are no English word (and "cd", "ls": no prose starts
# with them in lower case).
COMMANDS = frozenset((
    "npm", "npx", "pnpm", "yarn", "pip", "pip3", "pipx", "pipenv", "poetry", "conda", "uv", "git", "cd", "ls",
    "sudo", "apt", "apt-get", "dnf", "yum", "pacman", "brew", "choco", "winget", "docker", "kubectl", "helm",
    "terraform", "ansible", "cargo", "rustup", "rustc", "gcc", "g++", "clang", "cmake", "mvn", "gradle", "dotnet",
    "composer", "php", "python", "python3", "deno", "java", "javac", "curl",
    "wget", "ssh", "scp", "rsync", "chmod", "chown", "mkdir", "rmdir", "rm", "cp", "mv", "ln", "tar", "unzip",
    "gunzip", "grep", "sed", "awk", "systemctl", "journalctl", "vim", "nano", "pwd", "whoami", "ifconfig"))
# Programs whose names are English words too: a command only with an argument that shows code (``CODE_ARGUMENT``).
WORDS = frozenset(("make", "echo", "export", "source", "cat", "touch", "find", "kill", "open", "less", "head",
                   "tail", "sort", "which", "man", "service", "bundle", "set", "unset", "exec", "go", "node", "bun",
                   "gem", "rake"))
# A path to a program at a line's start: ./configure, ../bin/run, ~/bin/deploy.sh, /usr/local/bin/node.
PROGRAM_PATH = re.compile(r"(?:\.{1,2}|~)?/[\w.+-]+(?:/[\w.+-]+)*\Z")
# An argument that shows code: an option, a path, a variable, an assignment, a glob, a chain or a redirection.
CODE_ARGUMENT = re.compile(r"\A(?:--?\w|[.~]?/|\$|[\w.-]*[=/*]|&&\Z|\|\|?\Z|[<>]{1,2}\Z|;\Z)")
# The words prose is made of and no command's argument is.
PROSE = frozenset(("is", "are", "was", "were", "be", "the", "a", "an", "and", "or", "but", "to", "of", "in", "on",
                   "for", "with", "that", "this", "it", "you", "we", "i", "your", "my", "our", "if", "then", "not",
                   "will", "can", "should", "must", "have", "has", "again", "still", "just", "also", "never",
                   "always", "failed", "fails", "works", "worked", "keeps", "broke", "hangs", "crashes"))
# A string in quotes, given to a command whole (``-m "fix the bug"``), and the words of the line around them.
QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
# A stop after a word at the line's end: a sentence's ("Run git."), not "cd .." nor "git add .".
SENTENCE_STOP = re.compile(r"[^\W\d_][.!?:]\Z")


def command_lines(lines: Sequence[str]) -> set[int]:
    """The index of each line of ``lines`` that is a command alone (``is_command``) where a command may stand: first,
    after a blank line, a line that ends with a colon ("Install it with:") or a sentence's stop ("Then build it.")
    or another command; not where it may go on a hard-wrapped sentence ("... you should always use" / "git rebase
    carefully")."""
    found: set[int] = set()
    for k, line in enumerate(lines):
        before = lines[k - 1].rstrip() if k else ""
        if is_command(line) and (not before or before.endswith((":", ".", "!", "?")) or k - 1 in found):
            found.add(k)
    return found


def is_command(line: str) -> bool:
    """Whether ``line``, its indentation aside, is a command alone (the module docstring)."""
    text = line.strip()
    if not text or SENTENCE_STOP.search(text):
        return False
    name, *arguments = QUOTED.sub(" _ ", text).split()  # a string, one argument
    if any(argument.lower() in PROSE or "'" in argument or "\u2019" in argument for argument in arguments):
        return False
    if name in WORDS:
        return any(CODE_ARGUMENT.match(argument) for argument in arguments)
    return name in COMMANDS or PROGRAM_PATH.match(name) is not None
