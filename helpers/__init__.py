"""Small helpers shared by the notebooks: timing, plotting and frameworks.

No deep-learning framework is imported here; each function imports what it
needs, so ``import helpers`` stays fast.
"""

from .frameworks import (FRAMEWORKS, cpu_model, device, hardware_summary, import_tensorflow, installed,
                         is_installed, require, seed_everything, synchronizer, usable_cores, version, versions)
from .comparison import Comparison, Ratio, compare, first_call, machine_load, set_threads
from .data import batches, load_digits, load_fashion_mnist, to_tensors
from .mxnet_compat import import_mxnet
from .files import format_size, list_files, run_python, scratch_dir
from .graphs import draw_dataflow, graph_edges
from .hardware import SIMD_FLAGS, cpu_caches, cpu_flags, simd_floats
from .native import capture_fd
from .speedups import ratio_of_speedups
from .setup_check import check_setup, compile_path_note
from .record import RECORD_MIME, Record, RecordError, claim, claim_sig, finding, record_from_json, summary
from .plotting import bar_modes, describe_figure, new_figure, plot, set_alt_text
from .one_sided import side_of_one
from .profiling import compare_profiles, step_profile
from .readings import gap_reading, side_reading, side_sentence, trend_reading
from .timing import Benchmark, Measurement, Timer, format_factor_sig, format_time, quick_mode, scale
from .tracing import trace_run
from .torch_show import (error_line, error_source, fault_cost, kernel_source, minor_faults, print_breaks,
                         quiet_compile_logs, raised, warnings_to_stdout, wrapper_code)

__all__ = [
    "FRAMEWORKS", "Benchmark", "Measurement", "Timer", "bar_modes", "cpu_model", "describe_figure", "device",
    "format_factor_sig", "format_size", "format_time", "import_mxnet", "import_tensorflow", "hardware_summary", "installed", "is_installed", "list_files",
    "new_figure", "plot", "quick_mode", "require", "run_python", "scale",
    "set_alt_text",
    "scratch_dir", "seed_everything", "synchronizer", "usable_cores", "version", "versions",
    "batches", "load_digits", "load_fashion_mnist", "to_tensors",
    "draw_dataflow",
    "graph_edges",
    "SIMD_FLAGS", "cpu_caches", "cpu_flags", "simd_floats",
    "capture_fd",
    "Comparison", "Ratio", "compare", "first_call", "machine_load", "set_threads",
    "check_setup", "compile_path_note",
    "RECORD_MIME", "Record", "RecordError", "claim", "claim_sig", "finding", "record_from_json", "summary",
    "ratio_of_speedups",
    "compare_profiles", "gap_reading", "side_reading", "side_sentence", "step_profile",
    "trace_run",
    "error_line", "error_source", "fault_cost", "kernel_source", "minor_faults", "print_breaks", "quiet_compile_logs",
    "raised", "warnings_to_stdout", "wrapper_code",
]
