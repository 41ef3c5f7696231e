import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _(mo):
    mo.md(r"""
    # 03 · Microscaling (OCP MX) with `mx_tensor`

    **What you'll learn.** How an MX tensor stores a block of 32 elements:
    one shared power-of-two scale (an E8M0 byte) and 32 small floats. We
    work one block through by hand (amax, shared exponent, element
    encoding), check it against `mx_tensor.quantize`, compare the error of
    MXFP8, MXFP6, MXFP4 and MXINT8, and look at split storage bits
    (fp6 = i2 + i4).

    **What you need.** `pip install -e '.[notebooks]'`. Background:
    `docs/mx_tensor.md`; the arithmetic lives in `xquant/numerics/mx.py`.
    Run: `marimo edit notebooks/03_microscaling.py` or
    `python notebooks/03_microscaling.py`.
    """)
    return


@app.cell
def _():
    import marimo as mo
    import matplotlib

    if not mo.running_in_notebook():
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import ml_dtypes
    import numpy as np

    import xquant

    return ml_dtypes, mo, np, plt, xquant


@app.cell
def _(mo, np):
    mo.md(r"""
    ## One block

    32 values; the largest magnitude (amax) is 5.0.
    """)
    block = np.linspace(-3.0, 5.0, 32).astype(np.float32)
    block[7] = 0.013  # a small value, to see what the shared scale does to it
    print("block[:8] =", block[:8])
    return (block,)


@app.cell
def _(mo):
    mo.md(r"""
    ## By hand (OCP MX v1.0, section 6.3)

    1. `amax = max |x|` over the block.
    2. Shared exponent `e = floor(log2 amax) - emax`, where `emax` is the
       exponent of the element format's largest normal (E4M3: 448 = 1.75·2^8,
       so `emax = 8`). xquant reads `floor(log2 amax)` from the exponent bits,
       never from a float `log2`.
    3. The scale byte is `e + 127` (E8M0: a bare biased exponent).
    4. Each element is `rne(clamp(x / 2^e, ±max_normal))` in the element format.
    """)
    return


@app.cell
def _(block, ml_dtypes, np):
    amax = float(np.abs(block).max())
    _exp_bits = (np.float32(amax).view(np.uint32) >> 23) & 0xFF
    floor_log2 = int(_exp_bits) - 127  # exact for normal numbers
    EMAX_E4M3 = 8
    shared_exp = floor_log2 - EMAX_E4M3
    scale_byte = shared_exp + 127
    _max_normal = float(ml_dtypes.finfo(ml_dtypes.float8_e4m3fn).max)
    hand_elements = np.clip(
        block / np.float32(2.0**shared_exp), -_max_normal, _max_normal
    ).astype(ml_dtypes.float8_e4m3fn)  # astype rounds half to even
    print(
        f"amax {amax}, floor(log2 amax) {floor_log2}, e = {floor_log2} - {EMAX_E4M3} = {shared_exp}"
    )
    print(
        f"scale byte {scale_byte} (= 0x{scale_byte:02x}), scale 2^{shared_exp} = {2.0**shared_exp}"
    )
    print("elements[:8] (E4M3):", hand_elements[:8].astype(np.float32))
    return hand_elements, scale_byte, shared_exp


@app.cell
def _(mo):
    mo.md(r"""
    ## The same with `mx_tensor` ops

    `mx_tensor.quantize` makes the MX value, `mx_tensor.deconstruct` takes it
    apart into the scale tensor and the element tensor, `mx_tensor.dequantize`
    computes `decode(element) * scale`.
    """)
    return


@app.cell
def _():
    MXFP8 = """\
    !m = !mx_tensor.tensor<<1xf8E8M0FNU>, <32xf8E4M3FN>>
    func.func @main(%x: tensor<32xf32>) -> (tensor<1xf8E8M0FNU>, tensor<32xf8E4M3FN>, tensor<32xf32>) {
      %q = mx_tensor.quantize %x {block_factor = [32], scale_type = f8E8M0FNU, compute_type = f8E4M3FN} : tensor<32xf32> -> !m
      %s, %d = mx_tensor.deconstruct %q : !m
      %y = mx_tensor.dequantize %q : !m -> tensor<32xf32>
      return %s, %d, %y : tensor<1xf8E8M0FNU>, tensor<32xf8E4M3FN>, tensor<32xf32>
    }
    """
    return (MXFP8,)


@app.cell
def _(MXFP8, block, hand_elements, np, scale_byte, shared_exp, xquant):
    scale, elements, dequantized = xquant.run(MXFP8, "main", block)
    print("scale from the op:", scale, "byte", int(scale.view(np.uint8)[0]))
    assert int(scale.view(np.uint8)[0]) == scale_byte
    assert np.array_equal(elements.view(np.uint8), hand_elements.view(np.uint8))
    assert np.array_equal(
        dequantized, hand_elements.astype(np.float32) * np.float32(2.0**shared_exp)
    )
    print("hand computation == mx_tensor.quantize: True")
    print(
        f"block[7] = {block[7]} -> {dequantized[7]} (the shared scale is set by amax)"
    )
    return


@app.cell
def _(mo):
    mo.md(r"""
    ## MXFP8, MXFP6, MXFP4, MXINT8 compared

    A 64 x 1024 activation-like tensor (normal values plus a few large
    ones), blocks of 32 along the last dimension, each element format in
    turn. Bits per element include the shared scale (8 bits / 32 elements).
    """)
    return


@app.cell
def _(np, xquant):
    FORMATS = {
        "MXFP8 E4M3": ("f8E4M3FN", 8),
        "MXFP8 E5M2": ("f8E5M2", 8),
        "MXFP6 E2M3": ("f6E2M3FN", 6),
        "MXFP6 E3M2": ("f6E3M2FN", 6),
        "MXFP4 E2M1": ("f4E2M1FN", 4),
        "MXINT8": ("i8", 8),
    }

    def mx_roundtrip(x, compute_type):
        rows, cols = x.shape
        t = f"tensor<{rows}x{cols}xf32>"
        m = f"!mx_tensor.tensor<<{rows}x{cols // 32}xf8E8M0FNU>, <{rows}x{cols}x{compute_type}>>"
        text = f"""
    func.func @main(%x: {t}) -> {t} {{
      %q = mx_tensor.quantize %x {{block_factor = [1, 32], scale_type = f8E8M0FNU, compute_type = {compute_type}}} : {t} -> {m}
      %y = mx_tensor.dequantize %q : {m} -> {t}
      return %y : {t}
    }}"""
        (y,) = xquant.run(text, "main", x)
        return y

    _rng = np.random.default_rng(0)
    acts = _rng.standard_normal((64, 1024)).astype(np.float32)
    acts[_rng.integers(0, 64, 40), _rng.integers(0, 1024, 40)] *= 30.0
    mx_errors = {}
    for _name, (_ct, _bits) in FORMATS.items():
        _y = mx_roundtrip(acts, _ct)
        mx_errors[_name] = (
            float(np.mean((_y - acts) ** 2) / np.mean(acts**2)),
            _bits + 8 / 32,
        )
    for _name, (_e, _b) in mx_errors.items():
        print(f"{_name:>11}: {_b:5.2f} bits/element, relative MSE {_e:.2e}")
    return (mx_errors,)


@app.cell
def _(mx_errors, plt):
    _fig, _ax = plt.subplots(figsize=(6.5, 3.2))
    _names = list(mx_errors)
    _ax.bar(
        _names,
        [mx_errors[n][0] for n in _names],
        color=[
            "tab:blue",
            "tab:blue",
            "tab:orange",
            "tab:orange",
            "tab:red",
            "tab:green",
        ],
    )
    _ax.set_yscale("log")
    _ax.set_ylabel("relative MSE (log)")
    _ax.set_title("MX formats, 32-element blocks")
    _ax.tick_params(axis="x", labelrotation=30)
    _fig.tight_layout()
    _fig
    return


@app.cell
def _(mo):
    mo.md(r"""
    Mantissa bits matter more than exponent bits once the block shares a
    scale: E4M3 beats E5M2, E2M3 (3 mantissa bits, 6 bits in all) stays
    close to E4M3 and beats E3M2, FP4 (1 mantissa bit) is an order of
    magnitude worse, and MXINT8 (no exponent at all) is the best here.

    ## Split storage: fp6 as i2 + i4

    Hardware may keep a 6-bit element as a 2-bit and a 4-bit plane. In the
    type, `[<32xi2>, <32xi4>] x f6E2M3FN` says so: the i2 part holds the two
    most significant bits (sign and the high exponent bit), the i4 part the
    other four. `deconstruct` gives the planes as signed integers; masking
    recovers the raw bits.
    """)
    return


@app.cell
def _():
    MXFP6_SPLIT = """\
    !m6 = !mx_tensor.tensor<<1xf8E8M0FNU>, [<32xi2>, <32xi4>] x f6E2M3FN>
    func.func @main(%x: tensor<32xf32>) -> (tensor<1xf8E8M0FNU>, tensor<32xi2>, tensor<32xi4>, tensor<32xf32>) {
      %q = mx_tensor.quantize %x {block_factor = [32], scale_type = f8E8M0FNU, compute_type = f6E2M3FN, storage_types = [i2, i4]} : tensor<32xf32> -> !m6
      %s, %hi, %lo = mx_tensor.deconstruct %q : !m6
      %y = mx_tensor.dequantize %q : !m6 -> tensor<32xf32>
      return %s, %hi, %lo, %y : tensor<1xf8E8M0FNU>, tensor<32xi2>, tensor<32xi4>, tensor<32xf32>
    }
    """
    return (MXFP6_SPLIT,)


@app.cell
def _(MXFP6_SPLIT, block, ml_dtypes, np, xquant):
    _s6, hi, lo, _y6 = xquant.run(MXFP6_SPLIT, "main", block)
    codes = ((hi.astype(np.int64) & 0b11) << 4) | (lo.astype(np.int64) & 0b1111)
    _e = int(_s6.view(np.uint8)[0]) - 127
    print(f"scale byte {int(_s6.view(np.uint8)[0])}: 2^{_e}  (E2M3 emax = 2)")
    print(" x        i2  i4    s e m    element   value")
    for _i in (0, 5, 7, 20, 31):
        _c = int(codes[_i])
        _bits = f"{_c:06b}"
        _elem = float(np.array(_c, np.uint8).view(ml_dtypes.float6_e2m3fn))
        print(
            f"{block[_i]:7.3f}  {_bits[:2]}  {_bits[2:]}  {_bits[0]} {_bits[1:3]} {_bits[3:]}  {_elem:7.3f}  {_y6[_i]:7.3f}"
        )
        assert _elem * 2.0**_e == _y6[_i]
    return


@app.cell
def _(mo):
    mo.md(r"""
    Reading a row: `s` is the sign, `e` the 2 exponent bits (bias 1), `m`
    the 3 mantissa bits; element times `2^e_shared` is the dequantized value.

    **Next:** `04_stablehlo.py`.
    """)
    return


if __name__ == "__main__":
    app.run()
