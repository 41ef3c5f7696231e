import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _(mo):
    mo.md(r"""
    # 04 · Quantized StableHLO, stage by stage

    **What you'll learn.** How a quantized `stablehlo.dot_general` and a
    `stablehlo.reduce` with a wider (i32) accumulator become integer
    StableHLO (`stablehlo-legalize-quant-to-math{exact=true}`: xquant's exact
    numerics; without the option the pass is upstream's, which approximates
    and refuses a quantized `reduce`), then linalg
    (`stablehlo-legalize-to-linalg`), then fewer, fused generics
    (`linalg-fuse-elementwise-ops`), and that every stage computes the same
    numbers.

    **What you need.** `pip install -e '.[notebooks]'`; notebook 01 for the
    quantized types. The program is `examples/stablehlo_quantized.mlir`.
    Run: `marimo edit notebooks/04_stablehlo.py` or `python notebooks/04_stablehlo.py`.
    """)
    return


@app.cell
def _():
    import pathlib

    import marimo as mo
    import numpy as np

    import xquant

    return mo, np, pathlib, xquant


@app.cell
def _(mo, pathlib):
    _here = pathlib.Path(__file__).resolve().parent
    SOURCE = (_here.parent / "examples" / "stablehlo_quantized.mlir").read_text()
    mo.md(f"""
    ## The program

    i8 activations (`uniform_quantize`, scale 0.025, zero point 3) times an
    i8 per-axis weight (one scale per output column) gives i8 with per-axis
    scales; then each row is requantized to i16 and summed by a `reduce`
    whose body adds in **i32** (scale 0.005): the accumulator is wider than
    the inputs, as a real layer would do it.

    ```mlir
    {SOURCE}
    ```
    """)
    return (SOURCE,)


@app.cell
def _():
    STAGES = {
        "quantized StableHLO": "",
        "after quant-to-math": "stablehlo-legalize-quant-to-math{exact=true}",
        "after to-linalg": "stablehlo-legalize-quant-to-math{exact=true},"
        "stablehlo-legalize-to-linalg",
        "after fusion": "stablehlo-legalize-quant-to-math{exact=true},"
        "stablehlo-legalize-to-linalg,"
        "linalg-fuse-elementwise-ops",
    }
    return (STAGES,)


@app.cell
def _(SOURCE, STAGES, xquant):
    modules, texts = {}, {}
    for _name, _pipeline in STAGES.items():
        _m = xquant.parse_module(SOURCE)
        if _pipeline:
            xquant.apply_passes(_m, _pipeline)
        modules[_name] = _m
        texts[_name] = xquant.print_module(_m)

    def op_counts(text):
        import collections
        import re

        names = re.findall(
            r"(?:= |^\s*)((?:stablehlo|linalg|arith|math|tensor)\.[a-z_]+)", text, re.M
        )
        return collections.Counter(names)

    for _name, _text in texts.items():
        _c = op_counts(_text)
        _top = ", ".join(f"{k} {v}" for k, v in _c.most_common(4))
        print(f"{_name:>20}: {len(_text.splitlines()):4d} lines; {_top}")
    return modules, texts


@app.cell
def _(mo, texts):
    mo.md("## What each stage looks like (pick a tab)")
    mo.ui.tabs({name: mo.md(f"```mlir\n{text}\n```") for name, text in texts.items()})
    return


@app.cell
def _(mo, texts):
    _math = texts["after quant-to-math"]
    _dot = next(line for line in _math.splitlines() if "dot_general" in line)
    mo.md(f"""
    ## Reading the stages

    - **quant-to-math.** No quantized types remain. The dot product is an
      integer `dot_general` into i32, the zero-point correction is
      subtracted, and one f64 multiply rescales to the output (rounded half
      to even, clamped to i8). The reduce sums in i64 with one clamp at the
      end, so the result does not depend on the summation order:

      `{_dot.strip()}`
    - **to-linalg.** `dot_general` is a `linalg.matmul`; the element-wise
      math is one `linalg.generic` per op.
    - **fusion.** Element-wise generics fold into their consumers.
    """)
    return


@app.cell
def _(mo):
    mo.md("""
    ## Every stage gives the same numbers

    The input from the example's comment, then 50 random inputs; we
    compare the float results bit for bit.
    """)
    return


@app.cell
def _(modules, np, xquant):
    x0 = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
    for _name, _m in modules.items():
        _y, _s = xquant.run(_m, "main", x0)
        print(f"{_name:>20}: dot {_y.ravel()}  sum {_s}")
    return (x0,)


@app.cell
def _(modules, np, xquant):
    _rng = np.random.default_rng(0)
    _reference = modules["quantized StableHLO"]
    mismatches = 0
    for _ in range(50):
        _x = (_rng.standard_normal((2, 3)) * 2).astype(np.float32)
        _want = xquant.run(_reference, "main", _x)
        for _m in modules.values():
            _got = xquant.run(_m, "main", _x)
            mismatches += sum(
                not np.array_equal(a.view(np.uint32), b.view(np.uint32))
                for a, b in zip(_want, _got)
            )
    print("mismatching results over 50 random inputs x 4 stages:", mismatches)
    assert mismatches == 0
    return


@app.cell
def _(mo):
    mo.md(r"""
    The CLI does the same: `xquant-run examples/stablehlo_quantized.mlir -p
    'stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg' --arg
    'dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>'`.

    **Next:** `05_define_your_own_op.py`.
    """)
    return


if __name__ == "__main__":
    app.run()
