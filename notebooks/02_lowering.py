import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _(mo):
    mo.md(r"""
    # 02 · Lowering quant ops to linalg

    **What you'll learn.** What `lower-quant-ops` turns `quant.qcast` /
    `quant.dcast` into, that the lowered IR computes exactly what the quant
    ops compute, and how upstream MLIR's lowering (truncation toward zero)
    differs from xquant's (round half to even).

    **What you need.** `pip install -e '.[notebooks]'`; notebook 01 helps.
    Run: `marimo edit notebooks/02_lowering.py` or `python notebooks/02_lowering.py`.

    We always spell the rounding option: `lower-quant-ops{rounding=nearest-even}`
    or `lower-quant-ops{rounding=toward-zero}`. The pass's default may change,
    an explicit option never does.
    """)
    return


@app.cell
def _():
    import marimo as mo
    import matplotlib

    if not mo.running_in_notebook():
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    import xquant

    return mo, np, plt, xquant


@app.cell
def _(mo):
    mo.md(r"""
    ## The program

    A per-axis i8 type (one scale and zero point per column), a quantize and
    a dequantize.
    """)
    return


@app.cell
def _():
    SOURCE = """\
    !q = !quant.uniform<i8:f32:1, {0.05:3, 0.1:-2, 0.02}>

    func.func @main(%x: tensor<64x3xf32>) -> (tensor<64x3xi8>, tensor<64x3xf32>) {
      %q = quant.qcast %x : tensor<64x3xf32> to tensor<64x3x!q>
      %s = quant.scast %q : tensor<64x3x!q> to tensor<64x3xi8>
      %d = quant.dcast %q : tensor<64x3x!q> to tensor<64x3xf32>
      return %s, %d : tensor<64x3xi8>, tensor<64x3xf32>
    }
    """
    return (SOURCE,)


@app.cell
def _(SOURCE, xquant):
    before = xquant.parse_module(SOURCE)
    after_rne = xquant.apply_passes(
        xquant.parse_module(SOURCE), "lower-quant-ops{rounding=nearest-even}"
    )
    after_trunc = xquant.apply_passes(
        xquant.parse_module(SOURCE), "lower-quant-ops{rounding=toward-zero}"
    )
    before_text = xquant.print_module(before)
    after_text = xquant.print_module(after_rne)
    print(after_text)
    return after_rne, after_text, after_trunc, before, before_text


@app.cell
def _(after_text, before_text, mo):
    mo.md("## Before and after `lower-quant-ops{rounding=nearest-even}`")
    mo.hstack(
        [
            mo.md(f"**before**\n\n```mlir\n{before_text}\n```"),
            mo.md(f"**after**\n\n```mlir\n{after_text}\n```"),
        ],
        widths="equal",
    )
    return


@app.cell
def _(mo):
    mo.md(r"""
    Read the quantize body of the `linalg.generic`: `divf` by the scale,
    `addf` the zero point, clamp with `maximumf`/`minimumf`, `math.roundeven`,
    NaN to 0 (`cmpf uno` + `select`), `fptosi`. The scales and zero points
    are constant tensors indexed by the column (`(d0, d1) -> (d1)`).
    Dequantize subtracts the zero point in i32 before `sitofp`.

    ## The two runs agree bit for bit

    The input holds values exactly halfway between two steps, values beyond
    the i8 range and a NaN.
    """)
    return


@app.cell
def _(np):
    _rng = np.random.default_rng(1)
    x = (_rng.standard_normal((64, 3)) * np.array([3.0, 8.0, 1.5])).astype(np.float32)
    x[0] = [0.025, 0.05, 0.01]  # exactly half a step: ties
    x[1] = [0.075, -0.15, 0.03]  # 1.5 steps: ties again
    x[2] = [100.0, -100.0, 5.0]  # beyond the storage range
    x[3, 0] = np.nan
    return (x,)


@app.cell
def _(after_rne, before, np, x, xquant):
    s_ref, d_ref = xquant.run(before, "main", x)
    s_rne, d_rne = xquant.run(after_rne, "main", x)
    same = np.array_equal(s_ref, s_rne) and np.array_equal(
        d_ref.view(np.uint32), d_rne.view(np.uint32)
    )
    print("quant ops vs lowered (nearest-even): bit-identical =", same)
    assert same
    return d_ref, s_ref


@app.cell
def _(mo):
    mo.md(r"""
    ## Upstream's truncation

    `rounding=toward-zero` reproduces upstream MLIR's lowering op for op:
    `fptosi` truncates (1.9 -> 1, -1.9 -> -1), full-range types get no clamp,
    and dequantize converts before subtracting the zero point. (MLIR leaves
    an out-of-range `fptosi` undefined; our interpreter saturates it.)
    """)
    return


@app.cell
def _(after_trunc, np, s_ref, x, xquant):
    s_tz, _d_tz = xquant.run(after_trunc, "main", x)
    diff = s_tz.astype(np.int32) - s_ref.astype(np.int32)
    print("elements that differ:", int(np.count_nonzero(diff)), "of", diff.size)
    print("storage difference values:", sorted(set(diff.ravel().tolist())))
    print("row 0 (ties):  nearest-even", s_ref[0], " toward-zero", s_tz[0])
    return diff, s_tz


@app.cell
def _(diff, np, plt, x):
    _fig, (_a0, _a1) = plt.subplots(1, 2, figsize=(9, 3.2))
    _scale = np.array([0.05, 0.1, 0.02])
    _zp = np.array([3, -2, 0])
    _u = x / _scale + _zp  # the value before rounding
    _ok = np.isfinite(_u) & (np.abs(_u) < 127)
    for _c, _color in zip(range(3), ["tab:blue", "tab:orange", "tab:green"]):
        _m = _ok[:, _c]
        _a0.scatter(_u[_m, _c], diff[_m, _c], s=10, color=_color, label=f"column {_c}")
    _a0.set_xlabel("x / scale + zero_point")
    _a0.set_ylabel("toward-zero - nearest-even")
    _a0.set_title("where they differ")
    _a0.legend(fontsize=7)
    _a1.hist(diff.ravel(), bins=np.arange(-1.5, 2.5, 1.0), rwidth=0.8)
    _a1.set_xlabel("difference in storage units")
    _a1.set_title("by how much")
    _fig.tight_layout()
    _fig
    return


@app.cell
def _(mo):
    mo.md(r"""
    Truncation moves every positive non-integer value down by up to one unit
    and every negative one up: a bias toward zero that round-half-to-even
    does not have. The difference is always 0 or ±1 unit here; with no clamp
    before `fptosi`, upstream would wrap out-of-range values on hardware
    (`300 -> 44` in i8).

    **Next:** `03_microscaling.py`.
    """)
    return


if __name__ == "__main__":
    app.run()
