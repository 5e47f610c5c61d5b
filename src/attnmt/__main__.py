"""``python -m attnmt`` (also how torchrun starts it)."""

from attnmt.app.cli import entry

entry()
