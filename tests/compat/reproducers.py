"""One minimal reproducer per fix in `xquant.compat`, run on pristine and on fixed xDSL.

`outcome()` parses, verifies and prints a snippet with xDSL's dialects and xquant's
(loaded directly, so nothing is installed) and returns the text, or the error.
Run as a script, it prints every reproducer's outcome on pristine xDSL as JSON;
`test_xdsl_bugs.py` runs it in a subprocess that never installs the fixes.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.parser import Parser
from xdsl.printer import Printer


@dataclass(frozen=True)
class Reproducer:
    """`source` shows the bug `xquant.compat.<fix>` works around."""

    fix: str
    """The module of `xquant.compat` that fixes the bug."""
    source: str
    buggy: str
    """Text in the outcome on pristine xDSL."""
    fixed: str
    """Text in the outcome once the fix is installed."""
    case: str = ""
    """Which of the fix's bugs, when it has several."""

    @property
    def key(self) -> str:
        """A unique name: the fix, and the case if any."""
        return f"{self.fix}/{self.case}" if self.case else self.fix


REPRODUCERS = (
    Reproducer(
        "locations",
        """func.func @f(%a: i32) -> i32 {
  func.return %a : i32 loc("f.py":1:2 to :9)
}""",
        buggy="')' expected",
        fixed="func.return %a : i32",
    ),
    Reproducer(
        "upstream_ops",
        """func.func @f(%x: tensor<*xf32>, %s: tensor<1xindex>) -> tensor<?xf32> {
  %r = tensor.reshape %x(%s) : (tensor<*xf32>, tensor<1xindex>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}""",
        buggy="tensor<*xf32> should be of base attribute tensor",
        fixed="tensor.reshape %x(%s) : (tensor<*xf32>, tensor<1xindex>) -> tensor<?xf32>",
        case="tensor.reshape",
    ),
    Reproducer(
        "upstream_ops",
        """func.func @f(%x: tensor<6xi32>, %y: tensor<6xi32>) -> tensor<6xi32> {
  %r = linalg.div ins(%x, %y : tensor<6xi32>, tensor<6xi32>) outs(%x : tensor<6xi32>) -> tensor<6xi32>
  func.return %r : tensor<6xi32>
}""",
        buggy="Operation linalg.div is not registered",
        fixed="%r = linalg.div ins(%x, %y : tensor<6xi32>, tensor<6xi32>)",
        case="linalg.div",
    ),
    Reproducer(
        "linalg_input_casts",
        """func.func @f(%a: tensor<4xbf16>, %b: tensor<4xf8E4M3FN>) -> tensor<4xbf16> {
  %r = linalg.add ins(%a, %b : tensor<4xbf16>, tensor<4xf8E4M3FN>) outs(%a : tensor<4xbf16>) -> tensor<4xbf16>
  func.return %r : tensor<4xbf16>
}""",
        buggy="attribute bf16 expected from variable 'T', but got f8E4M3FN",
        fixed="%r = linalg.add ins(%a, %b : tensor<4xbf16>, tensor<4xf8E4M3FN>)",
    ),
    Reproducer(
        "linalg_shaped_operands",
        """func.func @f(%a: tensor<32xbf16>, %b: !mx_tensor.tensor<<1xf8E8M0FNU>, <32xf8E4M3FN>>) -> tensor<32xbf16> {
  %r = linalg.add ins(%a, %b : tensor<32xbf16>, !mx_tensor.tensor<<1xf8E8M0FNU>, <32xf8E4M3FN>>) outs(%a : tensor<32xbf16>) -> tensor<32xbf16>
  func.return %r : tensor<32xbf16>
}""",
        buggy="AssertionError",
        fixed="%r = linalg.add ins(%a, %b : tensor<32xbf16>, !mx_tensor.tensor<",
    ),
    Reproducer(
        "linalg_generic_result_parens",
        """#map = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a, %a : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: f32):
    linalg.yield %x, %x : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}""",
        buggy="Expected '->'",
        fixed="} -> (tensor<4xf32>, tensor<4xf32>)",
    ),
    Reproducer(
        "float_overflow_to_inf",
        "%c = arith.constant 70000.0 : f16",
        buggy="OverflowError",
        fixed="arith.constant 0x7c00 : f16",
    ),
    Reproducer(
        "dense_hex_float_elements",
        "%c = arith.constant dense<[1.0, 0x7F800000]> : tensor<2xf32>",
        buggy="dense<[1.000000e+00, 2.13909504e+09]>",
        fixed="dense<[1.000000e+00, 0x7f800000]> : tensor<2xf32>",
    ),
    Reproducer(
        "dense_hex_blobs",
        '%c = arith.constant dense<"0x05"> : tensor<3xi1>',
        buggy="dense<true> : tensor<3xi1>",
        fixed="dense<[true, false, true]> : tensor<3xi1>",
    ),
    Reproducer(
        "quant_in_builtin_containers",
        "func.func private @f(vector<2x!quant.uniform<i8:f32, 1.0>>)",
        buggy="func.func private @f(vector<2x!quant.uniform<i8:f32, 1.000000e+00>>)",
        fixed="VectorElementTypeInterface",
    ),
    Reproducer(
        "printer",
        '"test.op"() {zeta = 1 : i64, alpha = 2 : i64} : () -> ()',
        buggy="{zeta = 1 : i64, alpha = 2 : i64}",
        fixed="{alpha = 2 : i64, zeta = 1 : i64}",
    ),
    Reproducer(
        "tensor_empty_sizes",
        """func.func @f() -> tensor<?xi32> {
  %0 = tensor.empty() : tensor<?xi32>
  return %0 : tensor<?xi32>
}""",
        buggy="%0 = tensor.empty() : tensor<?xi32>",
        fixed="'tensor.empty' op incorrect number of dynamic sizes, has 0, expected 1",
    ),
    Reproducer(
        "tensor_rank0_reshapes",
        """func.func @f(%a: tensor<i32>) -> tensor<1xi32> {
  %0 = tensor.expand_shape %a [] output_shape [1] : tensor<i32> into tensor<1xi32>
  return %0 : tensor<1xi32>
}""",
        buggy="expected the total number of reassociation dimensions (0)",
        fixed="tensor.expand_shape %a [] output_shape [1] : tensor<i32> into tensor<1xi32>",
    ),
    Reproducer(
        "linalg_transpose_broadcast",
        """func.func @f(%a: tensor<2x3xf32>, %e: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0] {someattr}
  return %0 : tensor<3x2xf32>
}""",
        buggy="error",
        fixed="linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) "
        "permutation = [1, 0]  {someattr}",
    ),
)


def outcome(source: str, printer: type[Printer] = Printer) -> str:
    """`source` parsed, verified and printed by `printer`, or the error it raises."""
    from io import StringIO

    from xquant.dialects.mx_tensor import MxTensor
    from xquant.dialects.quant import Quant

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    ctx.load_dialect(Quant)
    ctx.load_dialect(MxTensor)
    try:
        module = Parser(ctx, source).parse_module()
        module.verify()
    except Exception as err:
        return f"error: {type(err).__name__}: {err}"
    stream = StringIO()
    printer(stream=stream).print_op(module)
    return stream.getvalue()


def lexer_growth(short: int = 16, long: int = 22) -> float:
    """How much longer an unterminated string of `long` characters takes to lex than
    one of `short` (best of 3): about 2 ** (long - short) if backtracking is
    exponential, about 1 if linear."""

    def seconds(length: int) -> float:
        source = 'func.func private @f() -> "' + "a" * length
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            outcome(source)
            best = min(best, time.perf_counter() - start)
        return best

    return seconds(long) / seconds(short)


def main() -> None:
    """Print the outcome of every reproducer, and the lexer's growth, as JSON."""
    outcomes = {r.key: outcome(r.source) for r in REPRODUCERS}
    outcomes["string_literal_lexer"] = str(lexer_growth())
    print(json.dumps(outcomes))


if __name__ == "__main__":
    main()
