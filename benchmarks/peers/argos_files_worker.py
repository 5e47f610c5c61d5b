"""argos-translate-files (LibreTranslate's file engine) translating one file with an attnmt model,
run by benchmarks/office.py in the virtual environment that holds argos-translate-files 1.4.4:

    /tmp/argosvenv/bin/python benchmarks/peers/argos_files_worker.py IN OUT -- HELPER COMMAND...

The adapter gives argos-translate-files its translation interface (``ITranslation``): each text
it asks for goes, as a JSON line, to the helper command (attnmt's side, ``benchmarks/office.py
--serve-lines``, in its own process and environment), which translates it as ``attnmt translate``
translates a line of plain text (split into sentences).  Prints one JSON line: the seconds
``translate_file`` took and the helper's peak RSS (KiB).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import argostranslatefiles
from argostranslate.translate import Hypothesis, ITranslation


class AttnmtTranslation(ITranslation):
    def __init__(self, helper: subprocess.Popen) -> None:
        self.helper = helper

    def hypotheses(self, input_text: str, num_hypotheses: int = 4) -> list[Hypothesis]:
        self.helper.stdin.write(json.dumps(input_text) + "\n")
        self.helper.stdin.flush()
        return [Hypothesis(json.loads(self.helper.stdout.readline()), 0.0)]


def main() -> None:
    source, output, helper_command = sys.argv[1], sys.argv[2], sys.argv[4:]
    helper = subprocess.Popen(helper_command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    translation = AttnmtTranslation(helper)
    translation.translate("A dog runs.")  # warm-up: the helper has loaded its model
    start = time.perf_counter()
    argostranslatefiles.translate_file(translation, source, get_output_path=lambda _translation, _path: output)
    seconds = time.perf_counter() - start
    helper.stdin.close()
    _, _, usage = os.wait4(helper.pid, 0)
    print(json.dumps({"seconds": seconds, "helper_rss_kib": usage.ru_maxrss}))


if __name__ == "__main__":
    main()
