"""Runs a command under callgrind and returns its total instruction count: what the
`*_instructions.py` scripts measure with, as counts are stable on this noisy machine."""
import subprocess
import sys


def total_instructions(command, out):
    """The instructions `command` (a list) ran, with callgrind's output kept in `out`."""
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    sys.exit(f"error: no totals in {out}")
