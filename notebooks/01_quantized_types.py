import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _(mo):
    mo.md(r"""
    # 01 · Quantized types: per-tensor, per-axis, sub-channel

    **What you'll learn.** How `!quant.uniform` describes a quantized tensor,
    three ways to choose its scales (one for the whole tensor, one per output
    channel, one per block of a channel), and how much error each one leaves
    on a weight with a few outlier channels.

    **What you need.** `pip install -e '.[notebooks]'` (xquant, marimo,
    matplotlib). Open it with `marimo edit notebooks/01_quantized_types.py`,
    or run it headless with `python notebooks/01_quantized_types.py`.

    The numeric contract (docs/numerics.md):

        quantize(x)   = rne(clamp(x / scale + zero_point, storage_min, storage_max))
        dequantize(q) = (q - zero_point) * scale
    """)
    return


@app.cell
def _():
    import marimo as mo
    import matplotlib

    if not mo.running_in_notebook():
        matplotlib.use("Agg")  # headless: no window, just render
    import matplotlib.pyplot as plt
    import numpy as np

    import xquant

    return mo, np, plt, xquant


@app.cell
def _(mo, np):
    mo.md(r"""
    ## A realistic weight

    A 32 x 256 linear-layer weight: small Gaussian values, but three output
    channels (rows) are 20x larger, and a few single elements are outliers.
    Trained weights often look like this.
    """)
    _rng = np.random.default_rng(0)
    weight = _rng.normal(0.0, 0.02, size=(32, 256)).astype(np.float32)
    weight[[3, 17, 29]] *= 20.0  # outlier channels
    weight[5, 100] = 0.9  # a single outlier element
    weight[11, 7] = -0.7
    print(
        f"weight: {weight.shape}, |w| max {np.abs(weight).max():.3f}, "
        f"median |w| {np.median(np.abs(weight)):.4f}"
    )
    return (weight,)


@app.cell
def _(mo):
    mo.md(r"""
    ## Scales from the data

    We use symmetric int4 (`i4`, zero point 0): the largest magnitude of a
    group maps to 7, so `scale = amax / 7`. A group is the whole tensor
    (per-tensor), a row (per-axis, `quantized_dimension` 0), or a block of
    `B` columns in a row (sub-channel, block sizes `{0:1, 1:B}`).

    `quant_type(w, block)` writes the type text; `block=None` is per-tensor,
    `block=256` (the whole row) is per-axis.
    """)
    return


@app.cell
def _(np):
    def _fmt(s):
        return str(np.float32(s))  # the shortest text that reads back as this f32

    def quant_type(w, block):
        """The `!quant.uniform` text of symmetric i4 for `w`, grouped by `block`."""
        if block is None:  # per-tensor: one scale
            return f"!quant.uniform<i4:f32, {_fmt(np.abs(w).max() / 7)}>"
        rows, cols = w.shape
        amax = np.abs(w).reshape(rows, cols // block, block).max(axis=2)
        scales = np.where(amax > 0, amax / 7, 1.0)
        if block == cols:  # per-axis: one scale per row
            body = ", ".join(_fmt(s) for s in scales[:, 0])
            return f"!quant.uniform<i4:f32:0, {{{body}}}>"
        body = ", ".join("{" + ", ".join(_fmt(s) for s in r) + "}" for r in scales)
        return f"!quant.uniform<i4:f32:{{0:1, 1:{block}}}, {{{body}}}>"

    return (quant_type,)


@app.cell
def _(quant_type, weight):
    for _b in (None, 256, 32):
        _t = quant_type(weight, _b)
        print(_t if len(_t) < 140 else _t[:137] + "...")
    return


@app.cell
def _(mo):
    mo.md(r"""
    ## qcast and dcast through the interpreter

    `program(w, block)` builds a function that quantizes its argument
    (`quant.qcast`), shows the storage integers (`quant.scast`) and
    dequantizes again (`quant.dcast`). `xquant.parse_module` parses and
    verifies it; `xquant.run` interprets it on a numpy array.
    """)
    return


@app.cell
def _(quant_type, xquant):
    def program(w, block):
        rows, cols = w.shape
        t = f"tensor<{rows}x{cols}xf32>"
        q = f"tensor<{rows}x{cols}x{quant_type(w, block)}>"
        return f"""
    func.func @main(%w: {t}) -> (tensor<{rows}x{cols}xi4>, {t}) {{
      %q = quant.qcast %w : {t} to {q}
      %s = quant.scast %q : {q} to tensor<{rows}x{cols}xi4>
      %d = quant.dcast %q : {q} to {t}
      return %s, %d : tensor<{rows}x{cols}xi4>, {t}
    }}"""

    def roundtrip(w, block):
        module = xquant.parse_module(program(w, block))
        storage, back = xquant.run(module, "main", w)
        return storage, back

    return program, roundtrip


@app.cell
def _(np, roundtrip, weight):
    storage_t, back_t = roundtrip(weight, None)
    print("per-tensor storage, row 0:", storage_t[0, :12], "...")
    print("distinct storage values in row 0:", np.unique(storage_t[0]))
    print("max |error| per-tensor:", float(np.abs(back_t - weight).max()))
    return


@app.cell
def _(mo):
    mo.md(r"""
    Per-tensor: the outlier rows set the scale (about 0.17), so every element
    of an ordinary row (|w| around 0.02) rounds to 0. Its information is gone.

    ## Error against block size

    Mean squared error relative to the weight's energy, for per-tensor,
    per-axis and blocks of 128, 32 and 8 columns. Smaller groups follow the
    data better but need more scales (one f32 per group: 8 columns per block
    is 4 extra bits per weight, as much as the data itself).
    """)
    return


@app.cell
def _(np, roundtrip, weight):
    groupings = {"per-tensor": None, "per-axis": 256, "128": 128, "32": 32, "8": 8}
    errors = {}
    for _name, _b in groupings.items():
        _, _back = roundtrip(weight, _b)
        errors[_name] = float(np.mean((_back - weight) ** 2) / np.mean(weight**2))
    for _name, _e in errors.items():
        print(f"{_name:>10}: relative MSE {_e:.2e}")
    assert all(a >= b for a, b in zip(list(errors.values()), list(errors.values())[1:]))
    return (errors,)


@app.cell
def _(errors, plt):
    _fig, _ax = plt.subplots(figsize=(6, 3.2))
    _ax.bar(list(errors), list(errors.values()), color="tab:blue")
    _ax.set_yscale("log")
    _ax.set_xlabel("grouping (block = columns per scale)")
    _ax.set_ylabel("relative MSE (log)")
    _ax.set_title("int4 weight: quantization error vs block size")
    _fig.tight_layout()
    _fig
    return


@app.cell
def _(mo):
    mo.md(r"""
    ## Try it: pick a block size

    Drag the slider (block sizes that divide 256). The heat map shows
    `|dequantize(quantize(w)) - w|` per element for that block size. With
    one scale per row (256) the outlier rows stop hurting the others;
    smaller blocks also confine each single outlier element to its block.
    """)
    block_slider = mo.ui.slider(
        steps=[4, 8, 16, 32, 64, 128, 256],
        value=32,
        label="block size",
        show_value=True,
    )
    block_slider
    return (block_slider,)


@app.cell
def _(block_slider, np, plt, roundtrip, weight):
    _, _back = roundtrip(weight, block_slider.value)
    _err = np.abs(_back - weight)
    _fig, _ax = plt.subplots(figsize=(7, 2.6))
    _im = _ax.imshow(_err, aspect="auto", cmap="magma")
    _fig.colorbar(_im, ax=_ax, label="|error|")
    _ax.set_title(
        f"block {block_slider.value}: relative MSE "
        f"{np.mean(_err**2) / np.mean(weight**2):.2e}"
    )
    _ax.set_xlabel("column")
    _ax.set_ylabel("row")
    _fig.tight_layout()
    _fig
    return


@app.cell
def _(mo, program, weight):
    mo.md(f"""
    ## The program, for reference

    What `program(weight, 128)` sent to the parser (the scales are truncated
    here):

    ```mlir
    {program(weight, 128)[:600]} ...
    ```

    **Next:** `02_lowering.py` turns these quant ops into plain linalg.
    """)
    return


if __name__ == "__main__":
    app.run()
