"""`xquant-run`: interpret a function of an MLIR file on numpy values.

    xquant-run FILE [-p PIPELINE] [--function NAME] [--arg VALUE]... [--split-input-file] [--checks-only]
               [--backend interpreter|iree] [--reassociate-fp-reductions]

Each VALUE is a `.npy` file, a `.npz` file (several arguments: arrays named
`arg0`, `arg1`... or `arr_0`, `arr_1`... (`numpy.savez`) in that numeric order,
other names in the file's order), or an MLIR literal
(`dense<[1.0, 2.0]> : tensor<2xf32>`, `3 : i32`). The pipeline (xdsl-opt `-p` syntax) is applied first; each result is
printed as an MLIR literal on its own line. Bad input ends with a located
`file:line:col: error: message` (or `error: message`) on stderr and exit code 1,
never a traceback.

Without `--function` and `--arg`, a module whose functions all take no
arguments (StableHLO's interpreter tests) runs every function in order and
reports every check it executes (`check.*` ops, `custom_call @check.*`):
`@fn: check.eq at line 9: passed` on stdout, a located error naming the first
mismatching element and both values on stderr for a failure, and exit code 1
if any check failed. Results are printed too (after a `// @fn` line when the
module has several functions) unless `--checks-only` is given.

`--backend iree` lowers the module to linalg/arith/tensor and runs it
compiled by IREE for the host CPU (`xquant.backends.iree`); IREE's own
errors are located in the lowered IR it was given (`<iree-input>:line:col`).

Float matmuls and sums follow the IR's loop order (one rounding per step, so
results are the same before and after lowering and on both backends).
`--reassociate-fp-reductions` lets them sum in any order (numpy's BLAS; IREE's
flag of the same name): much faster on big matmuls, last bits no longer
defined by the IR.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import zipfile
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Span

from xquant import apply_passes, make_context
from xquant.asm.diagnostics import (
    OpDiagnostic,
    diagnostic_at,
    diagnostics_from_parse_error,
)
from xquant.asm.located_parser import parse_located
from xquant.asm.verifier import first_verify_failure
from xquant.backends.iree import IreeCompileError, IreeError, prepare
from xquant.backends.iree_checks import split_checks
from xquant.compat import install
from xquant.interpreter.runner import (
    check_argument,
    format_value,
    load_dense_literal,
    lookup_function,
    run,
    run_with_checks,
)
from xquant.numerics.values import reassociating_fp_reductions
from xquant.tools.source_file import SourceError, read_source

__all__ = ["main"]

SPLIT_MARKER = "// -----"


def format_error(span: Span[str] | Span[bytes] | None, message: str, name: str) -> str:
    """`file:line:col: error: message`, the source line and a caret (MLIR's form)."""
    return diagnostic_at(span, message, name).render()


class ToolError(Exception):
    """An error already formatted for the user."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="xquant-run",
        description="Interpret a function of an MLIR file on numpy values.",
    )
    p.add_argument("file", help="input .mlir file ('-' for stdin)")
    p.add_argument(
        "-p",
        "--passes",
        dest="pipeline",
        default="",
        help="pass pipeline to apply first (xdsl-opt -p syntax)",
    )
    p.add_argument(
        "--function",
        default=None,
        help="function to run (default: main, or every function if none takes arguments)",
    )
    p.add_argument(
        "--arg",
        action="append",
        default=[],
        help="an argument: a .npy file, a .npz file (one array per argument: arg0, arg1... or numpy.savez's arr_0, arr_1... in numeric order, other names in file order) or an MLIR dense literal",
    )
    p.add_argument(
        "--split-input-file",
        action="store_true",
        help="run each '// -----' separated chunk on its own",
    )
    p.add_argument(
        "--backend",
        choices=("interpreter", "iree"),
        default="interpreter",
        help="interpret (default), or compile with IREE for the host CPU and run natively",
    )
    p.add_argument(
        "--reassociate-fp-reductions",
        action="store_true",
        help="let float matmuls and sums add in any order (BLAS): faster, not bit-defined by the IR",
    )
    p.add_argument(
        "--checks-only",
        action="store_true",
        help="in check mode, print the check report but not the results",
    )
    return p


class ChecksFailed(ToolError):
    """Some checks failed: the report lines still go to stdout."""

    def __init__(self, message: str, lines: list[str]):
        super().__init__(message)
        self.lines = lines


def _chunks(text: str, split: bool) -> list[str]:
    """The chunks of `text`, each padded with newlines so line numbers stay those of the file."""
    if not split:
        return [text]
    chunks: list[str] = []
    current: list[str] = []
    start_line = 0
    for i, line in enumerate(text.splitlines(keepends=True)):
        stripped = line.strip()
        if stripped.startswith(SPLIT_MARKER) and set(stripped[2:].strip()) == {"-"}:
            chunks.append("\n" * start_line + "".join(current))
            current = []
            start_line = i + 1
            continue
        current.append(line)
    chunks.append("\n" * start_line + "".join(current))
    return chunks


def _npz_order(names: list[str]) -> list[str]:
    """`arg0, arg1...` / `arr_0, arr_1...` in numeric order; other names as stored."""
    for prefix in ("arg", "arr_"):
        matches = [re.fullmatch(prefix + r"(\d+)", n) for n in names]
        if names and all(matches):
            numbers = [int(m[1]) for m in matches if m is not None]
            order = sorted(range(len(names)), key=lambda i: numbers[i])
            ordered = [names[i] for i in order]
            if ordered != [f"{prefix}{i}" for i in range(len(names))]:
                raise ToolError(
                    f"error: --arg .npz names {', '.join(ordered)}: "
                    f"expected {prefix}0 to {prefix}{len(names) - 1}\n"
                )
            return ordered
    return names


def _load_args(value: str) -> list[Any]:
    """The arguments one `--arg` gives: one, or one per array of a `.npz` file."""
    if not value.endswith(".npz"):
        return [_load_arg(value)]
    try:
        with np.load(value, allow_pickle=False) as archive:
            return [archive[n] for n in _npz_order(list(archive.files))]
    except (OSError, ValueError, zipfile.BadZipFile) as err:
        raise ToolError(f"error: cannot load --arg {value!r}: {err}\n") from err


def _load_arg(value: str) -> Any:
    if value.endswith(".npy") or (
        os.path.exists(value) and not value.lstrip().startswith("dense")
    ):
        try:
            return np.load(value, allow_pickle=False)
        except (OSError, ValueError) as err:
            raise ToolError(f"error: cannot load --arg {value!r}: {err}\n") from err
    try:
        return load_dense_literal(value)
    except ParseError as err:
        raise ToolError(f"error: bad --arg {value!r}: {err.msg}\n") from err
    except Exception as err:
        raise ToolError(
            f"error: bad --arg {value!r}: {str(err).splitlines()[0] if str(err) else type(err).__name__}\n"
        ) from err


def _run_chunk(
    text: str,
    name: str,
    pipeline: str,
    function: str | None,
    args: list[Any],
    checks_only: bool = False,
    backend: str = "interpreter",
) -> list[str]:
    ctx = make_context()
    try:
        located = parse_located(ctx, text, name)
    except ParseError as err:
        raise ToolError(
            "".join(d.render() for d in diagnostics_from_parse_error(err, name))
        ) from err
    failure = first_verify_failure(located.module)
    if failure is not None:
        op, message = failure
        raise ToolError(format_error(located.span_of(op), message, name))
    module = located.module
    if pipeline:
        try:
            apply_passes(module, pipeline, ctx)
        except Exception as err:
            if isinstance(err, OpDiagnostic):
                raise ToolError(
                    format_error(located.span_of(err.op), str(err), name)
                ) from err
            if (failure := first_verify_failure(located.module)) is not None:
                op, message = failure
                raise ToolError(
                    format_error(located.span_of(op), message, name)
                ) from err
            first = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise ToolError(f"{name}: error: {first}\n") from err
    if function is None and not args:
        functions = [
            op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks
        ]
        if functions and all(not f.function_type.inputs.data for f in functions):
            if backend == "iree":
                return _run_all_iree(module, located, functions, name, checks_only)
            return _run_all(module, located, functions, name, checks_only)
    function = "main" if function is None else function
    try:
        fn = lookup_function(module, function)
    except ValueError as err:
        raise ToolError(f"{name}: error: {err}\n") from err
    arg_types = fn.function_type.inputs.data
    if len(args) != len(arg_types):
        raise ToolError(
            format_error(
                located.span_of(fn),
                f"function '{function}' takes {len(arg_types)} argument(s), got {len(args)}",
                name,
            )
        )
    try:
        values = [
            check_argument(v, t, i) for i, (v, t) in enumerate(zip(args, arg_types))
        ]
    except ValueError as err:
        raise ToolError(format_error(located.span_of(fn), str(err), name)) from err
    if backend == "iree":
        results = _run_iree(module, located, function, values, name)
        return [
            format_value(v, t) for v, t in zip(results, fn.function_type.outputs.data)
        ]
    try:
        results = run(module, function, *values)
    except OpDiagnostic as err:  # an interpreter error names its op: locate it
        message = getattr(err, "message", None) or str(err).splitlines()[0]
        raise ToolError(format_error(located.span_of(err.op), message, name)) from err
    except DiagnosticException as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ToolError(f"{name}: error: interpretation failed: {first}\n") from err
    except Exception as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ToolError(
            f"{name}: error: interpretation failed: {type(err).__name__}: {first}\n"
        ) from err
    return [format_value(v, t) for v, t in zip(results, fn.function_type.outputs.data)]


def _prepare_iree(
    module: Any, located: Any, name: str, entry: str | None = None
) -> Any:
    """`module` (only `entry` and its callees, if given) lowered in place, so ops
    keep their positions, and compiled by IREE."""
    try:
        return prepare(module, in_place=True, entry=entry)
    except OpDiagnostic as err:  # an op no lowering took, or a pass error
        message = getattr(err, "message", None) or str(err).splitlines()[0]
        raise ToolError(format_error(located.span_of(err.op), message, name)) from err
    except IreeCompileError as err:
        if err.diagnostic.location is None:  # a crash: no location to show
            raise ToolError(
                f"{name}: error: IREE cannot compile the lowered module: {err.message}\n"
            ) from err
        raise ToolError(
            f"{name}: error: IREE cannot compile the lowered module\n"
            + err.diagnostic.render()
        ) from err
    except IreeError as err:
        raise ToolError(f"{name}: error: {err}\n") from err


def _run_iree(
    module: Any,
    located: Any,
    function: str,
    values: list[Any],
    name: str,
    prepared: Any = None,
) -> tuple[Any, ...]:
    if prepared is None:
        prepared = _prepare_iree(module, located, name, entry=function)
    try:
        return prepared.call(function, *values)
    except IreeError as err:
        raise ToolError(f"{name}: error: {err}\n") from err


def _run_all_iree(
    module: Any, located: Any, functions: list[Any], name: str, checks_only: bool
) -> list[str]:
    """Run every (argument-less) function compiled by IREE; its checks are taken out
    before compiling and evaluated on the host on IREE's values (`iree_checks`)."""
    lines: list[str] = []
    errors: list[str] = []
    outputs = {f.sym_name.data: f.function_type.outputs.data for f in functions}
    try:
        host = split_checks(module)
    except OpDiagnostic as err:
        message = getattr(err, "message", None) or str(err).splitlines()[0]
        raise ToolError(format_error(located.span_of(err.op), message, name)) from err
    prepared = _prepare_iree(module, located, name)  # once: lowering is in place
    for fn_name, types in outputs.items():
        values = _run_iree(module, located, fn_name, [], name, prepared)
        try:
            results, checks = host.run(fn_name, values)
        except OpDiagnostic as err:
            message = getattr(err, "message", None) or str(err).splitlines()[0]
            errors.append(format_error(located.span_of(err.op), message, name))
            continue
        if not checks_only:
            if len(outputs) > 1:
                lines.append(f"// @{fn_name}")
            lines.extend(format_value(v, t) for v, t in zip(results, types))
        _report_checks(lines, errors, checks, fn_name, located, name)
    if errors:
        raise ChecksFailed("".join(errors), lines)
    return lines


def _report_checks(
    lines: list[str],
    errors: list[str],
    checks: list[Any],
    fn_name: str,
    located: Any,
    name: str,
) -> None:
    """A line per check, and an error per failed one."""
    for result in checks:
        span = located.span_of(result.op)
        where = f" at line {span.get_location().line}" if span is not None else ""
        what = _check_name(result.op)
        lines.append(
            f"@{fn_name}: {what}{where}: {'passed' if result.passed else 'FAILED'}"
        )
        if not result.passed:
            errors.append(format_error(span, f"{what} failed: {result.message}", name))


def _run_all(
    module: Any, located: Any, functions: list[Any], name: str, checks_only: bool
) -> list[str]:
    """Run every (argument-less) function, collecting results and a line per check."""
    lines: list[str] = []
    errors: list[str] = []
    for fn in functions:
        fn_name = fn.sym_name.data
        try:
            results, checks = run_with_checks(module, fn_name)
        except OpDiagnostic as err:
            message = getattr(err, "message", None) or str(err).splitlines()[0]
            errors.append(format_error(located.span_of(err.op), message, name))
            continue
        except Exception as err:
            first = str(err).splitlines()[0] if str(err) else type(err).__name__
            errors.append(
                format_error(
                    located.span_of(fn),
                    f"interpretation of @{fn_name} failed: {first}",
                    name,
                )
            )
            continue
        if not checks_only:
            if len(functions) > 1:
                lines.append(f"// @{fn_name}")
            lines.extend(
                format_value(v, t)
                for v, t in zip(results, fn.function_type.outputs.data)
            )
        _report_checks(lines, errors, checks, fn_name, located, name)
    if errors:
        raise ChecksFailed("".join(errors), lines)
    return lines


def _check_name(op: Any) -> str:
    target = getattr(op, "call_target_name", None)
    return f"custom_call @{target.data}" if target is not None else op.name


def main(argv: Sequence[str] | None = None) -> int:
    """Run `xquant-run`; 0 on success, 1 on any bad input."""
    install()
    try:
        ns = _parser().parse_args(argv)
    except SystemExit as exit_:
        return 0 if exit_.code in (0, None) else 1
    name = ns.file
    try:
        text = read_source(name)
    except SourceError as err:
        sys.stderr.write(f"{err}\n")
        return 1
    if name == "-":
        name = "<stdin>"
    status = 0
    try:
        args = [v for a in ns.arg for v in _load_args(a)]
    except ToolError as err:
        sys.stderr.write(str(err))
        return 1
    for k, chunk in enumerate(_chunks(text, ns.split_input_file)):
        if k:
            print(SPLIT_MARKER)
        try:
            with reassociating_fp_reductions(ns.reassociate_fp_reductions):
                lines = _run_chunk(
                    chunk,
                    name,
                    ns.pipeline,
                    ns.function,
                    args,
                    ns.checks_only,
                    ns.backend,
                )
        except ChecksFailed as err:
            for line in err.lines:
                print(line)
            sys.stdout.flush()
            sys.stderr.write(str(err))
            status = 1
            continue
        except ToolError as err:
            sys.stderr.write(str(err))
            status = 1
            continue
        except Exception as err:
            first = str(err).splitlines()[0] if str(err) else ""
            sys.stderr.write(
                f"{name}: error: internal error: {type(err).__name__}: {first}\n"
            )
            status = 1
            continue
        for line in lines:
            print(line)
    sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
