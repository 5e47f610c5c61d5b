"""One family of errors for a user's mistakes: what was wrong, where (file, line or key), and how to fix it.

The command line prints a UserError as one line and exits with status 2; anything
else is a bug in attnmt and keeps its traceback.
"""


class UserError(ValueError):
    """A mistake the user can fix; the message says what, where and how."""


class ConfigError(UserError):
    """A configuration key or value is wrong; the message names it."""


class DataError(UserError):
    """Bad input data; the message names the file and line."""


class ModelDirError(UserError):
    """A model directory or one of its files is missing, corrupt or does not match."""


class OutputError(UserError):
    """Output could not be written (a full disk, an I/O error); the message names where and why."""


class ConversionError(UserError):
    """A model cannot be converted (an unsupported setting, a missing dependency); the message says why."""


class NonFiniteLoss(UserError):
    """Training produced a NaN or infinite loss and ``on_nonfinite`` is "stop"."""


class AttnmtWarning(UserWarning):
    """Something the user should know about their input, model or machine that did not stop the
    work; the message says what, where and what to do.  The command line shows it as one line."""
