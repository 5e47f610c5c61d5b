"""``attnmt doctor``: what attnmt finds on this machine and what it chose there: the CPU and its
flags, a GPU for ``--device cuda`` (or why there is none), the threads (how many, and why) and
their wait policy, what the cache's prepared copies take, whether the C++ extension is built
(and the file loaded: the wheel's or the cache's), its kernels, and (with --model) the longest
sentence the model is given whole and which kernel multiplies each of its float32 decoder-step layers."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from attnmt.cli.lines import print_out
from attnmt.cli.options import add_model_options, add_threads_options, use_threads

if TYPE_CHECKING:  # the model, and torch with it, is imported only where --model is given
    from attnmt.model import Transformer


def gpu_line() -> str:
    """Whether ``--device cuda`` has a GPU to run on: each one's name and memory, or why there is none."""
    import torch

    if torch.version.cuda is None:
        return "gpu: none (this PyTorch is built for the CPU only: --device cuda needs a CUDA build of it)"
    if not torch.cuda.is_available():
        return f"gpu: none visible (PyTorch built for CUDA {torch.version.cuda})"
    cuda = torch.cuda
    gpus = ", ".join(f"{cuda.get_device_name(i)} ({cuda.get_device_properties(i).total_memory / 2**30:.0f} GiB)"
                     for i in range(cuda.device_count()))
    return f"gpu: {gpus}, CUDA {torch.version.cuda}: --device cuda (train's device auto picks it)"


def machine_lines() -> list[str]:
    import torch

    from attnmt.fast import extension
    from attnmt.hardware import (
        OPENBLAS_COUNTS,
        OPENMP_WAIT_SETTINGS,
        RELEVANT_FLAGS,
        cpu_flags,
        cpu_model,
        onednn_isa_cap,
        torch_openmp,
    )
    from attnmt.threads import THREADS

    flags = " ".join(sorted(cpu_flags() & set(RELEVANT_FLAGS))) or "(none of interest)"
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    waits = ", ".join(f"{name}={os.environ.get(name, '(unset)')}" for name in (*OPENMP_WAIT_SETTINGS, *OPENBLAS_COUNTS))
    spins = os.environ.get("GOMP_SPINCOUNT", "")
    if torch_openmp() == "libgomp" and os.environ.get("OMP_WAIT_POLICY", "").upper() == "ACTIVE" and spins.isdigit():
        waits += f" (libgomp: a waiting thread spins {spins} rounds, then sleeps)"
    lines = [f"cpu: {cpu_model()}", f"cpu flags: {flags}",
             f"PyTorch {torch.__version__}, kernels for {torch.backends.cpu.get_cpu_capability()}"
             + (f", ONEDNN_MAX_CPU_ISA={onednn_isa_cap()}" if onednn_isa_cap() else ""),
             gpu_line(),
             f"threads: {THREADS.describe()}; {usable} usable CPUs; {waits}"]
    lines.append(cache_line())
    unused = extension.prebuilt_unused()
    unused = f"; {unused}" if unused else ""
    if not extension.available():
        return [*lines, f"C++ extension: {extension_unused()} (the Python step runs: slower){unused}"]
    from attnmt.fast.int8 import int8_kernel

    int8 = {"amx": "AMX tiles", "vnni": "AVX512-VNNI panels", "avx2": "AVX2 panels (7-bit activations)",
            "none": "fbgemm (torch.ao)"}[int8_kernel()]
    library = extension.loaded_library()
    where = "the wheel's" if library == extension.prebuilt() else "in attnmt's cache"
    return [*lines, f"C++ extension: built ({where}): {library}{unused}",
            f"float32 panels: {torch.ops.attnmt.panel_isa()}; int8 layers: {int8}", tiles_line()]


def extension_unused() -> str:
    """Why the C++ extension does not run: switched off (built or not), its build failed, or not built."""
    from attnmt.fast import extension

    library = extension.built_library()
    if extension.switched_off():
        built = f"built ({library})" if library else "not built"
        return f"{built}, switched off by ATTNMT_FUSED={os.environ['ATTNMT_FUSED']}"
    if library is not None:  # built, but this PyTorch lacks an operator it calls (the warning above says which)
        return f"built ({library}), but it could not be loaded"
    failed = extension.failed_build()
    return f"not built: its build failed ({failed}); 'attnmt build-ext' tries again" if failed else "not built"


def tiles_line() -> str:
    """Whether the float32 layers may go on AMX's bf16 tiles here (attnmt.fast.panels.TiledLinear)."""
    from attnmt.fast.panels import TILES_VARIABLE, tiles_chosen, tiles_run
    from attnmt.hardware import amx_allowed, cpu_flags

    if "amx_bf16" not in cpu_flags():
        return "float32 tiles (AMX-BF16, bf16x3): not on this CPU"
    if not tiles_run():
        why = ("ONEDNN_MAX_CPU_ISA caps AMX" if not amx_allowed() else
               "Linux refused the tiles' state, or PyTorch's kernels are capped below AVX-512 (ATEN_CPU_CAPABILITY)")
        return f"float32 tiles (AMX-BF16, bf16x3): the CPU has them, but they do not run here: {why}"
    if tiles_chosen():
        return f"float32 tiles (AMX-BF16, bf16x3): timed with the others ({TILES_VARIABLE}=0 leaves them out)"
    return f"float32 tiles (AMX-BF16, bf16x3): available, left out by {TILES_VARIABLE}=0"


def float32_header(timed_here: bool) -> str:
    """The line above the float32 copy's kernel choice: measured, set by ATTNMT_FLOAT32_KERNEL, or
    oneDNN's alone where the panel kernels do not run."""
    from attnmt.fast.kernels import KERNEL_VARIABLE, asked_kernel

    if not timed_here:
        return "float32 decoder-step layers: oneDNN (no panel kernels here)"
    asked = asked_kernel()
    return (f"float32 decoder-step layers (out × in), as {KERNEL_VARIABLE}={asked} sets them:" if asked
            else "float32 decoder-step layers (out × in):")


def cache_line() -> str:
    """Where attnmt's cache is and how much its prepared copies take; a file there (a typo'd
    $ATTNMT_CACHE) is said as translate says it, where it read as an empty cache."""
    from attnmt.errors import UserError
    from attnmt.fast.cache_contents import counted, human, prepared_copies
    from attnmt.fast.prepared_file import cache_folder
    from attnmt.files import cache_root, cache_root_folder

    try:
        cache_root_folder()
    except UserError as error:
        return f"cache: {error}"
    try:
        copies = prepared_copies(cache_folder())
    except OSError as error:
        return f"cache: {cache_root()}, its prepared copies unreadable ({error.strerror or error})"
    return (f"cache: {cache_root()}, {counted(len(copies), 'prepared model copy')}, "
            f"{human(sum(c.size for c in copies))} ('attnmt cache' lists them, '--prune' removes the stale)")


def int8_choice_lines(model: str, weights: str | None) -> list[str]:
    """The int8 copy's kernel per decoder-step shape, where this process has more than one to choose from."""
    from attnmt.fast.int8 import int8_kernels

    kernels = int8_kernels()
    if len(kernels) < 2:
        return [f"int8 decoder-step layers: {kernels[0] if kernels else 'fbgemm'} (the only int8 kernel here)"]
    from attnmt.fast.prepared import load_int8

    fast, _ = load_int8(model, weights)
    if fast.int8_choice is None:
        return ["int8 decoder-step layers: the widest kernel (the copy could not be measured)"]
    return ["int8 decoder-step layers (out × in):", *(f"  {line}" for line in fast.int8_choice.describe())]


def longest_part_line(model: Transformer) -> str:
    """The longest sentence translation gives ``model`` whole (attnmt.decoding.inputs.longest_part),
    and what sets it: the longest source its training kept (lengths.json), or its max_positions
    where the folder has no record or records a longer source than the model reads."""
    from attnmt.decoding.inputs import longest_part
    from attnmt.trained_lengths import LENGTHS

    longest, recorded = longest_part(model), model.longest_trained
    if recorded is None:
        why = f"the model's max_positions; no {LENGTHS}"
    elif recorded == longest:
        why = f"{LENGTHS}: the longest training source"
    else:
        why = f"the model's max_positions; {LENGTHS} records {recorded}"
    return f"longest part: {longest} pieces ({why})"


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.threads import THREADS

    use_threads(args)
    THREADS.settle()
    lines = machine_lines()
    if args.model:
        from attnmt.fast.prepared import load_packed

        fast, _ = load_packed(args.model, args.weights)
        lines.append(longest_part_line(fast))
        choice = fast.kernel_choice
        lines.append(float32_header(choice is not None))
        lines += [f"  {line}" for line in choice.describe()] if choice else []
        lines += int8_choice_lines(args.model, args.weights)
    print_out("\n".join(lines))
    return 0


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("doctor", help="show the CPU, threads, C++ extension and the kernels attnmt chose here")
    add_model_options(p, required=False)
    add_threads_options(p)
    p.set_defaults(run=run)
