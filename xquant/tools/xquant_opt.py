"""`xquant-opt`: xDSL's `xdsl-opt` with every xquant dialect and pass, and clean errors.

Bad input ends in `file:line:col: error: message`, the source line and a
caret on stderr, and exit code 1 -- never a Python traceback. With
`--parsing-diagnostics` / `--verify-diagnostics` it behaves as `xdsl-opt`
(print the message, go on with the next `// -----` chunk, exit 0).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Span
from xdsl.xdsl_opt_main import xDSLOptMain

from xquant.tools.diagnostics import (
    LocatedModule,
    find_verify_error,
    format_error,
    format_parse_error,
    parse_located,
)
from xquant.transforms.diagnostics import OpDiagnostic


class ToolError(Exception):
    """An error already formatted for the user."""


class XQuantOptMain(xDSLOptMain):
    """`xdsl-opt` whose frontend remembers op positions for diagnostics."""

    located: LocatedModule | None = None
    line_offset: int = (
        0  # of the current `// -----` chunk, so lines count from the file's start
    )

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="xquant modular optimizer driver", args=args)

    def run(self) -> None:
        """As `xdsl-opt`, but with `--split-input-file` every bad chunk is reported
        (as `mlir-opt` does) before the run fails, instead of only the first."""
        args = self.args
        if (
            not args.split_input_file
            or args.shrink
            or args.parsing_diagnostics
            or args.verify_diagnostics
        ):
            super().run()
            return
        chunks, file_extension = self.prepare_input()
        output = self.prepare_output()
        errors: list[str] = []
        try:
            for i, (chunk, offset) in enumerate(chunks):
                if i > 0:
                    output.write("// -----\n")
                self.line_offset = offset
                try:
                    module = self.parse_chunk(chunk, file_extension, offset)
                    if module is not None:
                        self.apply_passes(module)
                        output.write(self.output_resulting_program(module))
                except ParseError as err:
                    err.span = dataclasses.replace(err.span, line_offset=offset)
                    errors.append(format_parse_error(err))
                except ToolError as err:
                    errors.append(str(err))
                finally:
                    chunk.close()
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()
        if errors:
            raise ToolError("".join(errors))

    def register_all_frontends(self) -> None:
        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            self.located = parse_located(self.ctx, io.read(), self.get_input_name())
            return self.located.module

        self.available_frontends["mlir"] = parse_mlir

    def apply_passes(self, prog: ModuleOp) -> None:
        try:
            super().apply_passes(prog)
        except DiagnosticException as err:
            if self.args.verify_diagnostics:
                raise
            raise ToolError(self._locate(err)) from err

    def _locate(self, err: Exception) -> str:
        name = self.get_input_name()
        located = self.located
        if located is None:
            return f"{name}: error: {err}\n"
        if isinstance(err, OpDiagnostic):
            return format_error(self._span_of(located, err.op), str(err), name)
        if (failure := find_verify_error(located)) is not None:
            op, message = failure
            return format_error(self._span_of(located, op), message, name)
        return format_error(None, str(err).split("\n", 1)[0], name)

    def _span_of(
        self, located: LocatedModule, op: Operation
    ) -> Span[str] | Span[bytes] | None:
        span = located.span_of(op)
        if span is None:
            return None
        return dataclasses.replace(span, line_offset=self.line_offset)


def main(argv: Sequence[str] | None = None) -> int:
    """Run `xquant-opt`; the exit code is 0 on success and 1 on bad input."""
    try:
        XQuantOptMain(args=argv).run()
    except ParseError as err:
        sys.stderr.write(format_parse_error(err))
        return 1
    except ToolError as err:
        sys.stderr.write(str(err))
        return 1
    except DiagnosticException as err:
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        sys.stderr.write(f"error: {message}\n")
        return 1
    except (OSError, ValueError) as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
