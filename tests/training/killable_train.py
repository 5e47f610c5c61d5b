"""``attnmt`` as a subprocess that the fault tests kill.

With ATTNMT_SLOW_SAVE_MARKER set, every file write pauses after the data is
written and before the rename (of the file, or of the checkpoint folder it is in), and
announces it by writing the marker file: the test can then SIGKILL the process in the
middle of a checkpoint write.
"""

import os
import sys
import time
from pathlib import Path

from attnmt import checkpoint
from attnmt.app.cli import main

MARKER = os.environ.get("ATTNMT_SLOW_SAVE_MARKER")

if MARKER:
    real_write_file = checkpoint.write_file

    def paused_write_file(path, write):
        real_write_file(path, write)
        Path(MARKER).write_text(str(path))
        time.sleep(30)

    checkpoint.write_file = paused_write_file

sys.exit(main(sys.argv[1:]))
