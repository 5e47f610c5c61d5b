"""One module per command of ``attnmt`` (a few close siblings share one): each declares its
arguments (``add_to``) and runs them; options several commands share live in attnmt.cli.options."""
