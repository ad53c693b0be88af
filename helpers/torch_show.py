"""Output plumbing for the PyTorch notebook: warnings, errors, graph breaks and generated code, shortened.

PyTorch is imported inside the functions that need it, never at module import.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import textwrap
import warnings
from typing import Any, Callable, Iterator, Sequence

from .checks import check_callable, check_count

__all__ = ["error_line", "error_source", "fault_cost", "kernel_source", "minor_faults", "print_breaks",
           "quiet_compile_logs", "raised", "warnings_to_stdout", "wrapper_code"]


def _require_text(name: str, value: Any) -> str:
    """Return value if it is a str, else raise a TypeError naming the argument."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


def shorten(text: str, width: int = 110) -> str:
    """Return text, or its first sentence followed by ' [...]' when it is longer than width characters."""
    _require_text("text", text)
    if not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be a positive int, not {width!r}")
    text = text.strip()
    return text if len(text) <= width else text.split(". ")[0] + ". [...]"


@contextlib.contextmanager
def warnings_to_stdout(width: int = 110) -> Iterator[None]:
    """Catch the warnings raised in the block and print each distinct one on stdout, shortened."""
    if not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be a positive int, not {width!r}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            shown: list[str] = []
            for w in caught:
                line = f"{w.category.__name__}: {shorten(str(w.message), width)}"
                if line not in shown:
                    shown.append(line)
                    print(line)


def quiet_compile_logs() -> None:
    """Keep only errors in TorchDynamo's, torch.export's and symbolic shapes' logs (graph breaks are warnings)."""
    import torch

    torch._logging.set_logs(dynamo=logging.ERROR, export=logging.ERROR, dynamic=logging.ERROR)


def raised(call: Callable[[], Any]) -> BaseException | None:
    """Run call() with Python's stderr and warnings swallowed; return the exception it raised, or None."""
    if not callable(call):
        raise TypeError(f"call must be callable with no arguments, not {type(call).__name__}")
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            call()
        except Exception as e:          # noqa: BLE001 - the caller prints what was raised
            return e
    return None


def error_line(error: BaseException | None, start: str | None = None) -> str:
    """Return 'ErrorType: first line of the message' (from `start` on, if given), cut before ' (' and '. '."""
    if error is None:
        return "no error"
    if not isinstance(error, BaseException):
        raise TypeError(f"error must be an exception or None, not {type(error).__name__}")
    message = str(error).strip()
    if start is not None:
        _require_text("start", start)
        where = message.find(start)
        if where < 0:
            raise ValueError(f"start {start!r} is not in the message of the {type(error).__name__}")
        message = message[where:]
    line = message.splitlines()[0] if message else ""
    line = line.split(" (")[0].split(". ")[0].rstrip(" .:")
    return f"{type(error).__name__}: {line}"


def error_source(error: BaseException, marker: str = "<--- HERE") -> str:
    """Return the source line a TorchScript error points at and the line below it that holds `marker`."""
    if not isinstance(error, BaseException):
        raise TypeError(f"error must be an exception, not {type(error).__name__}")
    _require_text("marker", marker)
    lines = str(error).splitlines()
    here = next((i for i, line in enumerate(lines) if marker in line), None)
    if here is None or here == 0:
        raise ValueError(f"marker {marker!r} does not follow a source line in the error message")
    return textwrap.dedent("\n".join(lines[here - 1:here + 1]))


def print_breaks(report: Any) -> None:
    """Print the number of graphs of a torch._dynamo.explain report and each graph break's line and reason."""
    for name in ("graph_count", "graph_break_count", "break_reasons"):
        if not hasattr(report, name):
            raise TypeError(f"report must be what torch._dynamo.explain(f)(...) returns; it has no {name}")
    print(f"graphs: {report.graph_count}, graph breaks: {report.graph_break_count}")
    for brk in report.break_reasons:
        line = brk.user_stack[-1].line.split("#")[0].strip() if brk.user_stack else "?"
        print(f"  at `{line}`: {brk.reason.splitlines()[0]}")


def wrapper_code(generated: str, keep: Sequence[str] | None = None) -> str:
    """Return the `def call(...)` of Inductor's generated Python, up to its return; with `keep`, only lines holding one of them."""
    _require_text("generated", generated)
    if isinstance(keep, str):
        raise TypeError("keep must be a sequence of strings, not one str")
    lines = generated.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("def call(")), None)
    if start is None:
        raise ValueError("generated holds no `def call(`: pass the code that run_and_get_code returns")
    end = next((i for i in range(start, len(lines)) if lines[i].strip().startswith("return")), len(lines) - 1)
    body = lines[start:end + 1]
    if keep is not None:
        body = [body[0]] + [line for line in body[1:] if any(k in line for k in keep)]
    return textwrap.dedent("\n".join(body))


def kernel_source(generated: str) -> str:
    """Return the C++ source of the first kernel in Inductor's generated Python (the text between ''' quotes)."""
    _require_text("generated", generated)
    found = re.search(r"'''(.*?)'''", generated, re.DOTALL)
    if found is None:
        raise ValueError("generated holds no kernel source between ''' quotes")
    return found.group(1).strip()


def minor_faults() -> int | None:
    """Return this process's minor page faults so far, or None where Python has no resource module (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def fault_cost(fn: Callable[[], Any], calls: int = 10, sync: Callable[[], Any] | None = None) -> float | None:
    """Call fn `calls` times; return its minor page faults per call (None where Python cannot count them: Windows)."""
    check_callable("fn", fn)
    check_count("calls", calls)
    check_callable("sync", sync, optional=True)
    before = minor_faults()
    if before is None:
        return None
    for _ in range(calls):
        fn()
    if sync is not None:
        sync()
    return (minor_faults() - before) / calls
