"""Run the generated MLP block modules before and after lowering; print the error table.

    python examples/mlp_block/report.py [examples/mlp_block/small]

For each `mlp_<format>.mlir` and `mlp_<format>_bf16.mlir` in the directory (see
generate.py): interpret it as written and after its lowering (`lower-quant-ops{rounding=nearest-even}` for int4,
`lower-mx-tensor` for MXFP4/NVFP4), require bit-identical results, and compare them
with the float model (regenerated from `model.json`'s seed) and with the same
quantized arithmetic in plain numpy. Exit code 1 if the two paths differ.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np

import xquant

sys.path.insert(0, str(Path(__file__).parent))
from generate import (
    ACTIVATIONS,
    FORMATS,
    PIPELINES,
    build,
    float_forward,
    input_name,
    load_model,
    module_name,
    numpy_forward,
)


@dataclass(frozen=True)
class Row:
    fmt: str
    activations: str
    identical: bool
    rel_rms: float  # ||y - y_float|| / ||y_float||
    max_abs: float  # max |y - y_float|
    vs_numpy: float  # max |y - same arithmetic in numpy|


def run_format(
    directory: Path, fmt: str, activations: str = "f32"
) -> tuple[np.ndarray, np.ndarray]:
    """(unlowered result, lowered result) of `mlp_<fmt>[_bf16].mlir` on `x[_bf16].npy`."""
    text = (directory / module_name(fmt, activations)).read_text()
    x = np.load(directory / input_name(activations))
    if activations == "bf16":  # saved as raw 2-byte values (see input_name)
        x = x.view(ml_dtypes.bfloat16)
    (y,) = xquant.run(xquant.parse_module(text), "main", x)
    lowered = xquant.apply_passes(xquant.parse_module(text), PIPELINES[fmt])
    (y_lowered,) = xquant.run(lowered, "main", x)
    return y, y_lowered


def report(directory: Path) -> list[Row]:
    model = load_model(directory)
    reference = float_forward(model)
    rows: list[Row] = []
    for fmt in FORMATS:
        for activations in ACTIVATIONS:
            if not (directory / module_name(fmt, activations)).exists():
                continue
            y, y_lowered = run_format(directory, fmt, activations)
            same = numpy_forward(model, build(fmt, model, activations))
            y64 = y.astype(np.float64)
            diff = y64 - reference
            rows.append(
                Row(
                    fmt,
                    activations,
                    bool(np.array_equal(y, y_lowered)),
                    float(np.linalg.norm(diff) / np.linalg.norm(reference)),
                    float(np.abs(diff).max()),
                    float(np.abs(y64 - same.astype(np.float64)).max()),
                )
            )
    return rows


def format_table(rows: list[Row]) -> str:
    lines = [
        "format  activations  lowered==unlowered  rel RMS err vs f32  max abs err  "
        "max |xquant - numpy|",
    ]
    lines += [
        f"{r.fmt:<7} {r.activations:<12} {'yes' if r.identical else 'NO':<19} "
        f"{r.rel_rms:18.3e}  {r.max_abs:11.3e}  {r.vs_numpy:.3e}"
        for r in rows
    ]
    return "\n".join(lines)


def main() -> int:
    directory = (
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "small"
    )
    rows = report(directory)
    print(format_table(rows))
    return 0 if rows and all(r.identical for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
