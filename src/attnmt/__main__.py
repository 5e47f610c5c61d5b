"""``python -m attnmt`` (also how torchrun starts it)."""

import sys

from attnmt.app.cli import main

sys.exit(main())
