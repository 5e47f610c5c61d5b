"""The ``attnmt`` command line: ``main`` (the parser), one module per command in ``commands/``, the
options they share, lines in and out, document inputs, and the demo."""
