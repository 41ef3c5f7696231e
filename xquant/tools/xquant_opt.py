"""`xquant-opt`: an mlir-opt drop-in with every xquant and xDSL dialect and pass.

Upstream's RUN lines work with only the tool name changed:

    xquant-opt %s -split-input-file -verify-diagnostics
    xquant-opt %s --lower-quant-ops --split-input-file | FileCheck %s

The driver follows MlirOptMain: read the input (`-` is standard input), split
it at `// -----` lines, and for each chunk parse, verify, run the pipeline
(verifying after each pass unless `--verify-each=0`) and print. Every problem
is a located diagnostic (`file:line:col: error: ...` with the source line and
a caret, lines counted from the start of the whole file) and exit code 1;
with `-verify-diagnostics` the diagnostics are checked against the file's
`expected-*` annotations instead (`xquant.asm.diagnostic_verifier`).
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field
from io import StringIO
from typing import IO, Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from xquant.asm.diagnostic_verifier import DiagnosticVerifier
from xquant.asm.diagnostics import (
    Diagnostic,
    OpDiagnostic,
    Severity,
    SourceLocation,
    diagnostic_at,
    diagnostics_from_parse_error,
)
from xquant.asm.located_parser import LocatedModule, parse_located
from xquant.asm.printer import module_to_mlir
from xquant.asm.verifier import VERIFIER_CRASHES, first_verify_failure
from xquant.compat import install
from xquant.context import UNKNOWN_OP_DIALECTS, make_context
from xquant.tools.command_line import (
    TOOL,
    CommandLineError,
    OptOptions,
    help_text,
    parse_command_line,
    parse_mlir_pipeline,
)
from xquant.tools.source_file import SourceError, read_source
from xquant.transforms.utils.pass_options import check_option_values
from xquant.transforms.utils.pipeline import (
    DominanceError,
    pass_table,
    verify_dominance,
)
from xquant.universe import PASSES

__all__ = ["main", "split_input"]

# Options of upstream passes that xDSL's pass of the same name lacks but
# honours anyway; anything else unknown is refused as mlir-opt refuses it.
_SATISFIED_UPSTREAM_OPTIONS = {
    # xDSL's greedy rewriter always iterates to a fixed point.
    "canonicalize": frozenset({"test-convergence"}),
}


def _bare_booleans_true(
    pass_class: type[ModulePass], parameters: dict[str, Any]
) -> dict[str, Any]:
    """A boolean pass option named without a value is true, as in MLIR
    (`--stablehlo-legalize-to-linalg=enable-sparse-ops`); xDSL wants `=true`."""
    hints = typing.get_type_hints(pass_class)
    return {
        key: (True,)
        if value == () and hints.get(key.replace("-", "_")) in (bool, bool | None)
        else value
        for key, value in parameters.items()
    }


# mlir-opt's dump headers name a pass by its C++ class; xDSL's differ for these.
_UPSTREAM_PASS_CLASSES = {
    "canonicalize": "Canonicalizer",
    "cse": "CSE",
    "dce": "DCE",
    "linalg-fuse-elementwise-ops": "LinalgElementwiseOpFusionPass",
    "stablehlo-legalize-to-linalg": "StablehloLegalizeToLinalgPass",
    "stablehlo-legalize-quant-to-math": "StablehloLegalizeQuantToMathPass",
}


@dataclass
class Chunk:
    """One `// -----` chunk: its text and the 0-based line it starts at."""

    text: str
    first_line: int


def split_input(text: str, marker: str | None) -> tuple[list[Chunk], list[int]]:
    """Split at lines that are exactly `marker`; also the lines of near misses.

    A line that starts like the marker but is not it (`// ----`) is not a
    split; mlir-opt warns about it, so its 1-based line number is returned.
    """
    if marker is None:
        return [Chunk(text, 0)], []
    chunks: list[Chunk] = []
    near_misses: list[int] = []
    start_line = 0
    current: list[str] = []
    lines = text.splitlines(keepends=True)
    prefix = marker.rstrip("-")
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped == marker:
            chunks.append(Chunk("".join(current), start_line))
            current = []
            start_line = number + 1
            continue
        if (
            prefix
            and stripped.startswith(prefix + "--")
            and stripped.rstrip("-") == prefix
        ):
            near_misses.append(number + 1)
        current.append(line)
    chunks.append(Chunk("".join(current), start_line))
    return chunks, near_misses


@dataclass
class _ChunkResult:
    output: str | None
    """The printed module, None when the chunk failed."""
    diagnostics: list[Diagnostic] = field(default_factory=list[Diagnostic])


class OptDriver:
    """Runs one invocation; `run` returns the exit code."""

    def __init__(self, options: OptOptions, stdout: IO[str], stderr: IO[str]):
        self.options = options
        self.stdout = stdout
        self.stderr = stderr
        self.file_name = "<stdin>" if options.input == "-" else options.input

    def run(self) -> int:
        options = self.options
        try:
            passes = self._build_pipeline()
        except CommandLineError as err:
            self.stderr.write(str(err))
            return 1
        if options.dump_pass_pipeline:
            self._dump_pipeline(passes)
        try:
            text = read_source(options.input, strict=False)
        except SourceError as err:
            self.stderr.write(f"{err}\n")
            return 1
        verifier = None
        if options.verify_diagnostics is not None:
            verifier = DiagnosticVerifier(
                self.file_name, text, options.verify_diagnostics == "only-expected"
            )
        chunks, near_misses = split_input(text, options.split_input_file)
        failed = False
        outputs: list[str] = []
        problems: list[Diagnostic] = list(verifier.errors) if verifier else []
        source_lines = text.splitlines()
        for line in near_misses:
            warning = Diagnostic(
                Severity.WARNING,
                "near miss with file split marker",
                SourceLocation(self.file_name, line, 1),
                source_lines[line - 1],
            )
            problems += self._report(warning, verifier)
        for chunk in chunks:
            result = self._process_chunk(chunk, passes)
            for diagnostic in result.diagnostics:
                if verifier is None:
                    self.stderr.write(diagnostic.render())
                else:
                    problems += self._report(diagnostic, verifier)
            failed |= result.output is None
            outputs.append(result.output or "")
        if verifier is not None:
            problems += verifier.finish()
        for problem in problems:
            self.stderr.write(problem.render())
        separator = options.output_split_marker + "\n"
        try:
            self._write_output(separator.join(outputs))
        except OSError as err:
            self.stderr.write(
                f"{TOOL}: cannot write '{options.output}': {err.strerror}\n"
            )
            return 1
        if verifier is not None:
            return 1 if problems else 0
        return 1 if failed else 0

    def _report(
        self, diagnostic: Diagnostic, verifier: DiagnosticVerifier | None
    ) -> list[Diagnostic]:
        if verifier is None:
            return [diagnostic]
        return verifier.process(diagnostic)

    # Input and output.

    def _write_output(self, text: str) -> None:
        if self.options.output == "-":
            self.stdout.write(text)
            self.stdout.flush()
            return
        with open(self.options.output, "w", encoding="utf-8") as file:
            file.write(text)

    # The pipeline.

    def _build_pipeline(self) -> list[ModulePass]:
        options = self.options
        requests = options.passes
        if options.pass_pipeline is not None:
            requests = parse_mlir_pipeline(options.pass_pipeline)
        available = pass_table()
        passes: list[ModulePass] = []
        for request in requests:
            spec = request.spec
            if spec.name not in available:
                raise CommandLineError(
                    f"<unknown>:0: error: '{spec.name}' does not refer to a registered pass or pass pipeline\n"
                )
            satisfied = _SATISFIED_UPSTREAM_OPTIONS.get(spec.name, frozenset())
            parameters = {
                key: value
                for key, value in spec.parameters.items()
                if key not in satisfied
            }
            try:
                pass_class = available[spec.name]()
                parameters = _bare_booleans_true(pass_class, parameters)
                if bad_value := check_option_values(pass_class, parameters):
                    raise ValueError(bad_value)
                passes.append(
                    pass_class.from_pass_spec(type(spec)(spec.name, parameters))
                )
            except (ValueError, TypeError) as err:
                raise CommandLineError(
                    f"<unknown>:0: error: <Pass-Options-Parser>: {_option_error(err)}\n\n"
                    f"failed to add `{spec.name}` with options `{request.spelling}`\n"
                ) from None
        return passes

    def _dump_pipeline(self, passes: Sequence[ModulePass]) -> None:
        self.stderr.write(f"Pass Manager with {len(passes)} passes:\nbuiltin.module(\n")
        self.stderr.write(
            ",\n".join(
                f"  {p.pipeline_pass_spec(include_default=True)}" for p in passes
            )
        )
        self.stderr.write("\n)\n\n")

    # One chunk.

    def _context(self) -> Context:
        # As mlir-opt, which links MLIR's test dialect (it allows unknown ops).
        return make_context(
            allow_unregistered=self.options.allow_unregistered_dialect,
            unknown_op_dialects=UNKNOWN_OP_DIALECTS,
        )

    def _process_chunk(
        self, chunk: Chunk, passes: Sequence[ModulePass]
    ) -> _ChunkResult:
        try:
            return self._process_chunk_checked(chunk, passes)
        except Exception as err:  # a bug of ours: still one line, never a traceback
            message = (
                f"xquant-opt failed on this input ({type(err).__name__}: {err}); "
                "please report it"
            )
            return _ChunkResult(None, [diagnostic_at(None, message, self.file_name)])

    def _process_chunk_checked(
        self, chunk: Chunk, passes: Sequence[ModulePass]
    ) -> _ChunkResult:
        options = self.options
        ctx = self._context()
        # Padding keeps every position a whole-file line number.
        text = "\n" * chunk.first_line + chunk.text
        try:
            located = parse_located(
                ctx,
                text,
                self.file_name,
                implicit_module=not options.no_implicit_module,
            )
        except ParseError as err:
            return _ChunkResult(None, diagnostics_from_parse_error(err, self.file_name))
        module = located.module
        if options.print_debuginfo:
            marker = options.split_input_file or ""
            # mlir-opt's implicit module starts where its chunk does: 0:0 for
            # the first, just after the marker for the others.
            start = (chunk.first_line, len(marker) + 1) if chunk.first_line else (0, 0)
            located.attach_locations(self.file_name, start)
        if errors := self._verify(located):
            return _ChunkResult(None, errors)
        for pass_ in passes:
            if options.print_ir_before_all:
                self._dump_ir("Before", pass_, module, ctx)
            try:
                pass_.apply(ctx, module)
            except DiagnosticException as err:
                diagnostics = [self._pass_diagnostic(located, err)]
                if isinstance(err, OpDiagnostic):
                    span = located.span_of(err.op)
                    diagnostics += [
                        diagnostic_at(span, m, self.file_name) for m in err.follow_ups
                    ]
                return _ChunkResult(None, diagnostics)
            except Exception as err:  # a bug in a pass: still a located one-liner
                message = f"pass '{pass_.name}' failed unexpectedly: {type(err).__name__}: {err}"
                return _ChunkResult(
                    None, [diagnostic_at(None, message, self.file_name)]
                )
            if options.print_ir_after_all:
                self._dump_ir("After", pass_, module, ctx)
            if options.verify_each and (errors := self._verify(located)):
                return _ChunkResult(None, errors)
        return _ChunkResult(self._print(module, ctx))

    def _verify(self, located: LocatedModule) -> list[Diagnostic]:
        """One diagnostic per top-level op that does not verify, as MLIR's
        verifier reports each isolated region on its own."""
        module = located.module
        try:
            module.verify()
        except (VerifyException, *VERIFIER_CRASHES):
            pass
        else:
            try:
                verify_dominance(module)  # xDSL's verifier does not check it
            except DominanceError as err:
                return [self._op_diagnostic(located, err.op, str(err))]
            return []
        diagnostics: list[Diagnostic] = []
        for root in [module, *module.ops]:
            failure = first_verify_failure(root, nested=root is not module)
            if failure is not None:
                op, message = failure
                diagnostics.append(self._op_diagnostic(located, op, message))
        if not diagnostics:  # the module failed in a way no single op explains
            diagnostics.append(
                diagnostic_at(None, "module does not verify", self.file_name)
            )
        return diagnostics

    def _op_diagnostic(
        self, located: LocatedModule, op: Operation, message: str
    ) -> Diagnostic:
        diagnostic = diagnostic_at(located.span_of(op), message, self.file_name)
        if self.options.verify_diagnostics is None and diagnostic.location is not None:
            # mlir-opt attaches the failing op, in generic form, as a note.
            note = Diagnostic(
                Severity.NOTE,
                f"see current operation: {_generic_text(op)}",
                diagnostic.location,
            )
            diagnostic.notes.append(note)
        return diagnostic

    def _pass_diagnostic(
        self, located: LocatedModule, err: DiagnosticException
    ) -> Diagnostic:
        message = str(err).split("\n", 1)[0] or type(err).__name__
        if isinstance(err, OpDiagnostic):
            return diagnostic_at(located.span_of(err.op), message, self.file_name)
        if (failure := first_verify_failure(located.module, nested=True)) is not None:
            op, verify_message = failure
            return diagnostic_at(located.span_of(op), verify_message, self.file_name)
        return diagnostic_at(None, message, self.file_name)

    # Printing.

    def _print(self, module: Operation, ctx: Context) -> str:
        """The op as mlir-opt prints it, followed by an empty line."""
        options = self.options
        return (
            module_to_mlir(
                module,
                generic=options.print_op_generic,
                debuginfo=options.print_debuginfo,
                hex_threshold=options.hex_threshold,
                dialects=ctx.loaded_dialects,
            )
            + "\n"
        )

    def _dump_ir(
        self, when: str, pass_: ModulePass, module: ModuleOp, ctx: Context
    ) -> None:
        name = _UPSTREAM_PASS_CLASSES.get(
            pass_.name, type(pass_).__name__.removesuffix("Pass")
        )
        self.stderr.write(
            f"// -----// IR Dump {when} {name} ({pass_.name}) //----- //\n"
        )
        self.stderr.write(self._print(module, ctx) + "\n")


def _generic_text(op: Operation) -> str:
    """The op in generic form for mlir-opt's "see current operation" note.

    xDSL's printer, which keeps the input's value names: printed on its own,
    the op has no enclosing numbering for MLIR's names to continue."""
    stream = StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(op)
    return stream.getvalue()


def _option_error(err: Exception) -> str:
    """xDSL's pass-option complaint in mlir-opt's words where they differ."""
    text = str(err)
    if text.startswith("Provided arguments [") and "not found" in text:
        names = text.split("[", 1)[1].split("]", 1)[0]
        first = names.split(",")[0].strip().strip('"').replace("_", "-")
        return f"no such option {first}"
    return text


def _pass_names() -> list[str]:
    return sorted(pass_table())


def _help() -> str:
    available = pass_table()
    ours = [PASSES[name]() for name in sorted(PASSES)]
    others = [name for name in sorted(available) if name not in PASSES]
    return help_text(ours, others)


def main(argv: Sequence[str] | None = None) -> int:
    """Run `xquant-opt`; 0 on success, 1 on bad input or failed checks."""
    install()
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        options = parse_command_line(args, _pass_names)
    except CommandLineError as err:
        sys.stderr.write(str(err))
        return 1
    if options.help:
        sys.stdout.write(_help())
        return 0
    if options.version:
        from importlib.metadata import version

        sys.stdout.write(f"{TOOL} {version('xquant')} (xDSL {version('xdsl')})\n")
        return 0
    return OptDriver(options, sys.stdout, sys.stderr).run()


if __name__ == "__main__":
    sys.exit(main())
