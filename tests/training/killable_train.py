"""``attnmt`` as a subprocess that the fault tests kill.

With ATTNMT_SLOW_SAVE_MARKER set, every checkpoint save pauses after its files are
written and before its folder is renamed into place, and announces it by writing the
marker file: the test can then SIGKILL the process in the middle of a checkpoint write.
"""

import os
import sys
import time
from pathlib import Path

from attnmt import checkpoint
from attnmt.cli.main import main

MARKER = os.environ.get("ATTNMT_SLOW_SAVE_MARKER")

if MARKER:
    real_save_state = checkpoint.save_state

    def paused_save_state(state, path):
        real_save_state(state, path)
        Path(MARKER).write_text(str(path))
        time.sleep(30)

    checkpoint.save_state = paused_save_state

sys.exit(main(sys.argv[1:]))
