"""xDSL 0.74's arith cast ops take scalars only; MLIR's take scalars, vectors and tensors.

MLIR's `Arith_CastOp` (`extsi`, `extui`, `trunci`, `extf`, `truncf`, `sitofp`,
`uitofp`, `fptosi`, `fptoui`, `index_cast`, `index_castui`) accepts a scalar or a
vector or tensor of one, with the same shape on both sides. Upstream's
`lower-quant-ops` emits such casts on whole tensors, and xDSL 0.74 rejects them
while parsing -- reporting the error at the *next* line, since the declarative
format checks operand constraints after the op is read:

    func.func @f(%a: tensor<2xi8>) -> tensor<2xf32> {
      %0 = arith.sitofp %a : tensor<2xi8> to tensor<2xf32>
      func.return %0 : tensor<2xf32>
    }

    error (at `func.return`): tensor<2xi8> should be of base attribute integer_type

The fix relaxes the ops' operand and
result constraints in place (the classes stay the same, so code and
interpreter implementations keyed on them keep working) and gives each a
verifier with MLIR's rules (`xquant.dialects.upstream.arith.verify_cast`) and messages, which runs on the parsed op and so
is reported at the op. Element rules, as upstream's `areCastCompatible`:
integer and float widths must grow for `ext*` and shrink for `trunc*`, and
exactly one side of an index cast is `index`.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.irdl import AnyAttr, IRDLOperation, OperandDef, ResultDef

from xquant.dialects.upstream.arith import verify_cast

CAST_OPS: tuple[type[IRDLOperation], ...] = (
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
    arith.ExtFOp,
    arith.TruncFOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
    arith.IndexCastOp,
)


def _relax(cls: type[IRDLOperation]) -> None:
    """Any operand and result type in the op definition; `verify_cast` does the checking."""
    op_def = cls.get_irdl_definition()
    op_def.operands[:] = [(name, OperandDef(AnyAttr())) for name, _ in op_def.operands]
    op_def.results[:] = [(name, ResultDef(AnyAttr())) for name, _ in op_def.results]
    setattr(cls, "verify_", verify_cast)


_installed = False


def install() -> None:
    """Let xDSL's arith casts take vectors and tensors, verified as MLIR's (idempotent)."""
    global _installed
    if _installed:
        return
    for cls in CAST_OPS:
        _relax(cls)
    _installed = True
