"""``python -m attnmt`` (also how torchrun starts it)."""

from attnmt.cli.main import entry

entry()
