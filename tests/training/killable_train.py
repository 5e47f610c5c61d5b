"""``attnmt`` as a subprocess that the fault tests kill.

With ATTNMT_SLOW_SAVE_MARKER set, every file write pauses after the data is
written and before the rename, and announces it by writing the marker file:
the test can then SIGKILL the process in the middle of a checkpoint write.
"""

import os
import sys
import time
from pathlib import Path

from attnmt import checkpoint
from attnmt.app.cli import main

MARKER = os.environ.get("ATTNMT_SLOW_SAVE_MARKER")

if MARKER:
    real_atomic_write = checkpoint.atomic_write

    def paused_atomic_write(path, write):
        def write_then_pause(tmp):
            write(tmp)
            Path(MARKER).write_text(str(path))
            time.sleep(30)

        real_atomic_write(path, write_then_pause)

    checkpoint.atomic_write = paused_atomic_write

sys.exit(main(sys.argv[1:]))
