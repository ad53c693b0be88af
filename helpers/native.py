"""Native output: capture what C/C++ code writes straight to stdout or stderr.

Frameworks log from C++ (TensorFlow's XLA, for instance, through absl), which
bypasses Python's ``sys.stdout`` and ``sys.stderr``: Jupyter picks those bytes
up from the file descriptor through a pipe, late and on its own, and nothing
in Python can catch them.  ``capture_fd`` points the descriptor at a temporary
file for the duration of a ``with`` block, so the text can be printed, filtered
or dropped on purpose.  No framework is imported here.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

# absl / glog prefix: severity letter, date, time, thread id, file:line, "] "
LOG_PREFIX = re.compile(r"^[IWEF]\d{4} [\d:.]+\s+\d+ [^\]]+\] ")


@dataclass
class Captured:
    """The text written to a file descriptor inside a `capture_fd` block."""

    fd: int
    text: str = ""

    @property
    def lines(self) -> list[str]:
        """The non-empty lines, with absl/glog prefixes (time, thread, file) removed."""
        return [LOG_PREFIX.sub("", line).rstrip() for line in self.text.splitlines() if line.strip()]


def _flush_all() -> None:
    """Flush Python's streams and the C library's stdio buffers."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, ValueError, OSError):
            pass
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError, TypeError):
        pass  # no C library handle (e.g. Windows): C++ streams flush on their own


@contextmanager
def capture_fd(fd: int = 2) -> Iterator[Captured]:
    """Capture everything written to file descriptor `fd` (1: stdout, 2: stderr) in the block.

    Yields a `Captured` whose `text` (and `lines`) is filled when the block ends.
    """
    if isinstance(fd, bool) or not isinstance(fd, int):
        raise TypeError(f"fd must be an int, got {type(fd).__name__}")
    if fd not in (1, 2):
        raise ValueError(f"fd must be 1 (stdout) or 2 (stderr), got {fd}")
    result = Captured(fd)
    _flush_all()
    saved = os.dup(fd)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), fd)
        try:
            yield result
        finally:
            _flush_all()
            os.dup2(saved, fd)
            os.close(saved)
            tmp.seek(0)
            result.text = tmp.read().decode("utf-8", errors="replace")
