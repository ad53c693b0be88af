"""Unit tests of helpers.native (capturing what native code writes to a file descriptor)."""

import os
import subprocess
import sys

import pytest

import helpers


def test_capture_fd_catches_writes_that_bypass_python():
    with helpers.capture_fd(2) as err:
        os.write(2, b"I0000 00:00:1795239644.610233    9520 service.cc:146] XLA service ready\n")
        os.write(2, b"\nplain line\n")
    assert "service.cc:146" in err.text
    assert err.lines == ["XLA service ready", "plain line"]


def test_capture_fd_restores_the_descriptor():
    code = ("import os, helpers\n"
            "with helpers.capture_fd(1) as out:\n"
            "    os.write(1, b'hidden')\n"
            "os.write(1, b'shown:' + out.text.encode())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert done.stdout == b"shown:hidden"


def test_capture_fd_flushes_c_stdio_buffers():
    code = ("import ctypes, helpers\n"
            "libc = ctypes.CDLL(None)\n"
            "with helpers.capture_fd(1) as out:\n"
            "    libc.printf(b'from C\\n')\n"
            "print(repr(out.text))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "'from C\\n'"


def test_capture_fd_fills_text_even_when_the_block_raises():
    with pytest.raises(KeyError):
        with helpers.capture_fd(2) as err:
            os.write(2, b"before the error\n")
            raise KeyError("boom")
    assert err.lines == ["before the error"]


def test_capture_fd_rejects_other_descriptors():
    with pytest.raises(ValueError, match="fd must be 1 .* got 0"):
        with helpers.capture_fd(0):
            pass
    with pytest.raises(TypeError, match="fd must be an int, got str"):
        with helpers.capture_fd("2"):
            pass
