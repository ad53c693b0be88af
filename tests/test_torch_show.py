"""Unit tests of helpers.torch_show: warnings, errors, graph breaks and generated code, shortened."""

import subprocess
import sys
import types
import warnings

import pytest

import helpers
from helpers import torch_show

GENERATED = """
cpp_fused_relu_0 = async_compile.cpp_pybinding(['float*'], '''
extern "C" void kernel(float* out_ptr0)
{
    out_ptr0[0] = 1.0f;
}
''')
def call(self, args):
    arg0_1, = args
    buf0 = empty_strided_cpu((4, ), (1, ), torch.float32)
    extern_kernels.addmm(arg0_1, arg0_1, arg0_1, out=buf0)
    buf1 = buf0; del buf0  # reuse
    cpp_fused_relu_0(buf1)
    return (buf1, )
def other():
    return 2
"""


def test_module_imports_no_framework():
    code = "import helpers.torch_show, sys; print([m for m in ('torch', 'tensorflow', 'jax', 'mxnet') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_exported_from_helpers():
    for name in ("warnings_to_stdout", "raised", "error_line", "error_source", "print_breaks",
                 "wrapper_code", "kernel_source", "minor_faults", "quiet_compile_logs"):
        assert getattr(helpers, name) is getattr(torch_show, name)


def test_warnings_to_stdout_prints_each_distinct_warning_once_and_shortens(capsys):
    with torch_show.warnings_to_stdout(width=40):
        warnings.warn("short one", DeprecationWarning)
        warnings.warn("short one", DeprecationWarning)
        warnings.warn("A first sentence. Then a second sentence that makes it far too long.", UserWarning)
    assert capsys.readouterr().out.splitlines() == ["DeprecationWarning: short one",
                                                   "UserWarning: A first sentence. [...]"]


def test_warnings_to_stdout_prints_even_when_the_block_raises(capsys):
    with pytest.raises(RuntimeError):
        with torch_show.warnings_to_stdout():
            warnings.warn("before the error", UserWarning)
            raise RuntimeError("boom")
    assert capsys.readouterr().out == "UserWarning: before the error\n"


def test_warnings_to_stdout_rejects_bad_width():
    with pytest.raises(ValueError, match="width"):
        with torch_show.warnings_to_stdout(width=0):
            pass


def test_raised_returns_the_exception_and_swallows_stderr_and_warnings(capsys):
    def fails():
        print("noise", file=sys.stderr)
        warnings.warn("ignored")
        raise KeyError("k")

    error = torch_show.raised(fails)
    assert isinstance(error, KeyError)
    assert torch_show.raised(lambda: 1) is None
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""
    with pytest.raises(TypeError, match="call"):
        torch_show.raised(3)


def test_error_line_cuts_hints_and_second_sentences():
    e = RuntimeError("Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).\n\nmore")
    assert torch_show.error_line(e) == "RuntimeError: Could not guard on data-dependent expression Eq(u0, 1)"
    e = ValueError("Consider annotating. Could not guard on zuf0 > 0.0 (unhinted: zuf0 > 0.0).  (Size-like)")
    assert torch_show.error_line(e, start="Could not") == "ValueError: Could not guard on zuf0 > 0.0"
    assert torch_show.error_line(OSError("'Tensor' object has no attribute '__name__':\nx")) == \
        "OSError: 'Tensor' object has no attribute '__name__'"
    assert torch_show.error_line(None) == "no error"


def test_error_line_rejects_bad_arguments():
    with pytest.raises(TypeError, match="error"):
        torch_show.error_line("not an exception")
    with pytest.raises(ValueError, match="start"):
        torch_show.error_line(RuntimeError("abc"), start="xyz")


def test_error_source_returns_the_line_and_its_marker():
    e = RuntimeError("bad thing:\n    y = f(x)\n        ~~~~ <--- HERE\nmore")
    assert torch_show.error_source(e) == "y = f(x)\n    ~~~~ <--- HERE"
    with pytest.raises(ValueError, match="marker"):
        torch_show.error_source(RuntimeError("no marker here"))
    with pytest.raises(TypeError, match="error"):
        torch_show.error_source("text")


def test_print_breaks(capsys):
    frame = types.SimpleNamespace(line='print("done")  # a comment')
    brk = types.SimpleNamespace(user_stack=[frame], reason="Failed to trace builtin operator\nmore")
    report = types.SimpleNamespace(graph_count=2, graph_break_count=1, break_reasons=[brk])
    torch_show.print_breaks(report)
    assert capsys.readouterr().out.splitlines() == ["graphs: 2, graph breaks: 1",
                                                   '  at `print("done")`: Failed to trace builtin operator']
    with pytest.raises(TypeError, match="report"):
        torch_show.print_breaks(object())


def test_wrapper_code_whole_and_filtered():
    whole = torch_show.wrapper_code(GENERATED)
    assert whole.splitlines()[0] == "def call(self, args):"
    assert whole.splitlines()[-1] == "    return (buf1, )"
    assert "other" not in whole
    kept = torch_show.wrapper_code(GENERATED, keep=("extern_kernels", "cpp_fused", "# reuse"))
    assert kept.splitlines() == ["def call(self, args):",
                                 "    extern_kernels.addmm(arg0_1, arg0_1, arg0_1, out=buf0)",
                                 "    buf1 = buf0; del buf0  # reuse",
                                 "    cpp_fused_relu_0(buf1)"]
    with pytest.raises(ValueError, match="def call"):
        torch_show.wrapper_code("x = 1")
    with pytest.raises(TypeError, match="keep"):
        torch_show.wrapper_code(GENERATED, keep="addmm")
    with pytest.raises(TypeError, match="generated"):
        torch_show.wrapper_code(None)


def test_kernel_source():
    assert torch_show.kernel_source(GENERATED).splitlines()[0] == 'extern "C" void kernel(float* out_ptr0)'
    with pytest.raises(ValueError, match="kernel"):
        torch_show.kernel_source("def call(self, args):\n    return ()")


def test_minor_faults_counts_or_says_none():
    before = torch_show.minor_faults()
    if before is None:
        pytest.skip("this OS does not count page faults")
    data = b"x" * (8 * 2**20)       # 8 MiB written: the OS maps fresh pages on first touch
    assert len(data) == 8 * 2**20
    assert torch_show.minor_faults() > before


def test_fault_cost_counts_fresh_pages():
    import mmap

    def touch_fresh_pages():
        with mmap.mmap(-1, 8 * 2**20) as fresh:          # a new anonymous mapping: every page is fresh
            for offset in range(0, len(fresh), mmap.PAGESIZE):
                fresh[offset] = 1

    faults = torch_show.fault_cost(touch_fresh_pages, calls=3)
    if faults is None:
        pytest.skip("this OS does not count page faults")
    assert faults > 0
    assert helpers.fault_cost is torch_show.fault_cost


def test_fault_cost_checks_its_arguments():
    with pytest.raises(TypeError, match="fn"):
        torch_show.fault_cost(42)
    with pytest.raises(ValueError, match="calls"):
        torch_show.fault_cost(lambda: None, calls=0)
    with pytest.raises(TypeError, match="sync"):
        torch_show.fault_cost(lambda: None, sync=1)
