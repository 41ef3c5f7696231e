import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _(mo):
    mo.md(r"""
    # 05 · Define your own quantized op

    **What you'll learn.** Every piece a new op needs, end to end, in one
    small dialect `myq` defined right here:

    1. the op, with xDSL's IRDL (`irdl_op_definition`) and a verifier;
    2. an interpreter implementation (`InterpreterFunctions` + `@impl`), as
       `xquant/interpreter/*.py` registers theirs;
    3. a lowering pattern to `linalg.generic` + `arith`/`math`;
    4. a FileCheck test of the lowered text;
    5. running the op before and after lowering, and comparing.

    The op is `myq.requantize`: integers quantized with one scale and zero
    point become integers of another, following xquant's contract
    (`docs/numerics.md`):

        real = (q - in_zero_point) * in_scale                       (in f32)
        out  = rne(clamp(real / out_scale + out_zero_point, min, max))

    **How to use it.** Each step has an *exercise* cell (a skeleton with
    `TODO`s; it runs and says "not done yet") followed by the *worked
    solution*. Fill in an exercise, and the check below it tells you whether
    it matches the solution. Headless (`python notebooks/05_define_your_own_op.py`)
    everything runs and the solution's checks must pass.

    **What you need.** `pip install -e '.[notebooks]'` (FileCheck comes with
    `.[dev]`; without it the check falls back to substring matching).
    Notebooks 01 and 02 help.
    """)
    return


@app.cell
def _():
    import marimo as mo
    import numpy as np
    from xdsl.dialects import arith, math, tensor
    from xdsl.dialects.builtin import (
        AffineMapAttr,
        FloatAttr,
        IntegerAttr,
        IntegerType,
        TensorType,
        f32,
        i32,
    )
    from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
    from xdsl.dialects.linalg.ops import GenericOp, YieldOp
    from xdsl.interpreter import (
        Interpreter,
        InterpreterFunctions,
        PythonValues,
        impl,
        register_impls,
    )
    from xdsl.ir import Block, Dialect, Region
    from xdsl.ir.affine import AffineMap
    from xdsl.irdl import (
        IRDLOperation,
        attr_def,
        irdl_op_definition,
        operand_def,
        result_def,
        traits_def,
    )
    from xdsl.parser import Parser
    from xdsl.passes import ModulePass
    from xdsl.pattern_rewriter import (
        PatternRewriter,
        PatternRewriteWalker,
        RewritePattern,
        op_type_rewrite_pattern,
    )
    from xdsl.traits import Pure
    from xdsl.utils.exceptions import VerifyException

    import xquant

    return (
        AffineMap,
        AffineMapAttr,
        Block,
        Dialect,
        FloatAttr,
        GenericOp,
        IRDLOperation,
        IntegerAttr,
        IntegerType,
        Interpreter,
        InterpreterFunctions,
        IteratorType,
        IteratorTypeAttr,
        ModulePass,
        Parser,
        PatternRewriteWalker,
        PatternRewriter,
        Pure,
        PythonValues,
        Region,
        RewritePattern,
        TensorType,
        VerifyException,
        YieldOp,
        arith,
        attr_def,
        f32,
        i32,
        impl,
        irdl_op_definition,
        math,
        mo,
        np,
        op_type_rewrite_pattern,
        operand_def,
        register_impls,
        result_def,
        tensor,
        traits_def,
        xquant,
    )


@app.cell
def _(mo):
    mo.md(r"""
    ## Step 1 · The op and its verifier

    An op is a class: a `name`, operands, results, attributes, an
    `assembly_format` (its custom text form) and `verify_` (extra checks that
    raise `VerifyException`). Attributes use MLIR's syntax:
    `{in_scale = 5.0e-02 : f32, in_zero_point = 3 : i32, ...}`.

    The verifier should reject: input and result shapes that differ,
    non-integer element types, a scale that is not a positive finite
    number, and a zero point outside its storage type's range.
    """)
    return


@app.cell
def _(mo):
    # EXERCISE 1: write the checks of `verify_` (the solution is the next cell).
    def exercise_verify(op):
        """Raise VerifyException if `op` (a RequantizeOp) is invalid."""
        # TODO: shapes equal; element types IntegerType; scales > 0 and finite;
        #       zero points within [min, max] of the input / result storage type.
        raise NotImplementedError("exercise 1 not done yet")

    mo.md("*Exercise 1: fill in `exercise_verify` above.*")
    return (exercise_verify,)


@app.cell
def _(
    FloatAttr,
    IRDLOperation,
    IntegerAttr,
    IntegerType,
    Pure,
    TensorType,
    VerifyException,
    attr_def,
    irdl_op_definition,
    np,
    operand_def,
    result_def,
    traits_def,
):
    # SOLUTION 1
    def storage_range(t):
        """[min, max] of a signless integer storage type, read as signed."""
        width = t.width.data
        return -(2 ** (width - 1)), 2 ** (width - 1) - 1

    @irdl_op_definition
    class RequantizeOp(IRDLOperation):
        name = "myq.requantize"
        input = operand_def(TensorType)
        result = result_def(TensorType)
        in_scale = attr_def(FloatAttr)
        in_zero_point = attr_def(IntegerAttr)
        out_scale = attr_def(FloatAttr)
        out_zero_point = attr_def(IntegerAttr)
        traits = traits_def(Pure())
        assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

        def verify_(self) -> None:
            src, dst = self.input.type, self.result.type
            if src.get_shape() != dst.get_shape():
                raise VerifyException(
                    f"input shape {list(src.get_shape())} and result shape "
                    f"{list(dst.get_shape())} differ"
                )
            for what, t in (("input", src), ("result", dst)):
                if not isinstance(t.element_type, IntegerType):
                    raise VerifyException(
                        f"{what} element type must be an integer, not {t.element_type}"
                    )
            for what, attr in (
                ("in_scale", self.in_scale),
                ("out_scale", self.out_scale),
            ):
                v = attr.value.data
                if not (np.isfinite(v) and v > 0):
                    raise VerifyException(
                        f"{what} must be positive and finite, got {v}"
                    )
            for what, attr, t in (
                ("in_zero_point", self.in_zero_point, src),
                ("out_zero_point", self.out_zero_point, dst),
            ):
                lo, hi = storage_range(t.element_type)
                if not lo <= attr.value.data <= hi:
                    raise VerifyException(
                        f"{what} {attr.value.data} is outside [{lo}, {hi}] of {t.element_type}"
                    )

    return RequantizeOp, storage_range


@app.cell
def _(Dialect, Parser, RequantizeOp, xquant):
    MyQ = Dialect("myq", [RequantizeOp])

    def parse(text):
        """Parse with every xquant dialect plus ours, then verify."""
        ctx = xquant.make_context()
        ctx.load_dialect(MyQ)
        module = Parser(ctx, text).parse_module()
        module.verify()
        return module

    return MyQ, parse


@app.cell
def _(parse, xquant):
    PROGRAM = """\
    func.func @main(%q: tensor<4x8xi8>) -> tensor<4x8xi8> {
      %r = myq.requantize %q {in_scale = 5.000000e-02 : f32, in_zero_point = 3 : i32, out_scale = 1.250000e-01 : f32, out_zero_point = -2 : i32} : tensor<4x8xi8> to tensor<4x8xi8>
      func.return %r : tensor<4x8xi8>
    }
    """
    program = parse(PROGRAM)
    print(xquant.print_module(program))
    return PROGRAM, program


@app.cell
def _(PROGRAM, VerifyException, parse):
    INVALID = {
        "shapes differ": PROGRAM.replace("to tensor<4x8xi8>", "to tensor<4x9xi8>")
        .replace("-> tensor<4x8xi8>", "-> tensor<4x9xi8>")
        .replace("%r : tensor<4x8xi8>", "%r : tensor<4x9xi8>"),
        "zero scale": PROGRAM.replace("out_scale = 1.250000e-01", "out_scale = 0.0"),
        "zero point out of range": PROGRAM.replace(
            "in_zero_point = 3", "in_zero_point = 300"
        ),
    }
    rejected = {}
    for _what, _text in INVALID.items():
        try:
            parse(_text)
            rejected[_what] = None
        except VerifyException as _err:
            rejected[_what] = str(_err).splitlines()[0]
    for _what, _msg in rejected.items():
        print(f"{_what}: {_msg}")
    assert all(rejected.values()), rejected
    return (INVALID,)


@app.cell
def _(
    FloatAttr,
    IntegerAttr,
    PROGRAM,
    RequantizeOp,
    VerifyException,
    exercise_verify,
    f32,
    i32,
    parse,
):
    def check_exercise_1():
        """exercise_verify must accept the valid op and reject broken copies of it."""

        def the_op():
            return next(o for o in parse(PROGRAM).walk() if isinstance(o, RequantizeOp))

        broken = []
        for name, value in (
            ("out_scale", FloatAttr(0.0, f32)),
            ("in_scale", FloatAttr(float("inf"), f32)),
            ("in_zero_point", IntegerAttr(300, i32)),
            ("out_zero_point", IntegerAttr(-129, i32)),
        ):
            op = the_op()
            op.attributes[name] = value
            broken.append((name, op))
        try:
            exercise_verify(the_op())
            missed = []
            for name, op in broken:
                try:
                    exercise_verify(op)
                    missed.append(name)
                except VerifyException:
                    pass
        except NotImplementedError as err:
            return str(err)
        if missed:
            return f"exercise 1: your verifier accepts a bad {', '.join(missed)}"
        return "exercise 1: your verifier agrees with the solution on these cases"

    exercise_1_status = check_exercise_1()
    print(exercise_1_status)
    return (exercise_1_status,)


@app.cell
def _(mo):
    mo.md(r"""
    ## Step 2 · An interpreter implementation

    xquant's interpreter is xDSL's `Interpreter` with numpy implementations
    registered per op: a class deriving from `InterpreterFunctions`,
    decorated with `@register_impls`, one `@impl(OpClass)` method per op
    that takes the operand values (`args`, numpy arrays here) and returns a
    tuple of results. `xquant/interpreter/quant.py` is the model.

    Do the arithmetic in f32, in the same order as the formula, so that the
    lowered IR (which computes in f32 too) can match it bit for bit.
    """)
    return


@app.cell
def _(mo):
    # EXERCISE 2: the numpy arithmetic of requantize (the solution is the next cell).
    def exercise_requantize(q, in_scale, in_zp, out_scale, out_zp, lo, hi):
        # TODO: real = (q - in_zp) * in_scale in f32; then divide by out_scale,
        #       add out_zp, clamp to [lo, hi], round half to even, cast to q.dtype.
        raise NotImplementedError("exercise 2 not done yet")

    mo.md("*Exercise 2: fill in `exercise_requantize` above.*")
    return (exercise_requantize,)


@app.cell
def _(
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    RequantizeOp,
    impl,
    np,
    register_impls,
    storage_range,
):
    # SOLUTION 2
    def requantize(q, in_scale, in_zp, out_scale, out_zp, lo, hi):
        real = (q.astype(np.int32) - np.int32(in_zp)).astype(np.float32) * np.float32(
            in_scale
        )
        v = real / np.float32(out_scale) + np.float32(out_zp)
        v = np.minimum(np.maximum(v, np.float32(lo)), np.float32(hi))
        return np.rint(v).astype(q.dtype)  # np.rint rounds half to even

    @register_impls
    class MyQFunctions(InterpreterFunctions):
        @impl(RequantizeOp)
        def run_requantize(
            self, interpreter: Interpreter, op: RequantizeOp, args: PythonValues
        ) -> PythonValues:
            lo, hi = storage_range(op.result.type.element_type)
            return (
                requantize(
                    np.asarray(args[0]),
                    op.in_scale.value.data,
                    op.in_zero_point.value.data,
                    op.out_scale.value.data,
                    op.out_zero_point.value.data,
                    lo,
                    hi,
                ),
            )

    return MyQFunctions, requantize


@app.cell
def _(MyQFunctions, np):
    def run(module, *args):
        """`xquant.run`, with our implementations registered too."""
        from xquant.interpreter import make_interpreter
        from xquant.interpreter.runner import lookup_function

        interpreter = make_interpreter(module)
        interpreter.register_implementations(MyQFunctions(), override=True)
        with np.errstate(all="ignore"):
            return interpreter.call_op(lookup_function(module, "main"), args)

    return (run,)


@app.cell
def _(np, program, run):
    q_in = np.arange(-128, 128, 8, dtype=np.int8).reshape(4, 8)
    (q_out,) = run(program, q_in)
    print("in :", q_in[0])
    print("out:", q_out[0])
    # by hand: (-128 - 3) * 0.05 = -6.55; / 0.125 = -52.4; - 2 = -54.4 -> -54
    assert q_out[0, 0] == -54
    return q_in, q_out


@app.cell
def _(exercise_requantize, np, q_in, q_out):
    def check_exercise_2():
        try:
            mine = exercise_requantize(q_in, 0.05, 3, 0.125, -2, -128, 127)
        except NotImplementedError as err:
            return str(err)
        ok = np.array_equal(np.asarray(mine), q_out)
        return f"exercise 2: {'matches' if ok else 'DIFFERS from'} the solution"

    exercise_2_status = check_exercise_2()
    print(exercise_2_status)
    return (exercise_2_status,)


@app.cell
def _(mo):
    mo.md(r"""
    ## Step 3 · A lowering pattern

    A `RewritePattern` whose `match_and_rewrite` receives each
    `RequantizeOp` (thanks to `@op_type_rewrite_pattern`) and replaces it
    with a `tensor.empty` (the output) and a `linalg.generic` with identity
    maps whose body does the scalar arithmetic: `extsi`, `subi`, `sitofp`,
    `mulf`, `divf`, `addf`, `maximumf`, `minimumf`, `math.roundeven`,
    `fptosi`. A `ModulePass` runs the pattern over the module
    (`PatternRewriteWalker`). In xquant a pass lives in
    `xquant/transforms/<name>.py` and is registered in `xquant/universe.py`
    (see `docs/adding-an-op-or-a-pass.md`).
    """)
    return


@app.cell
def _(mo):
    # EXERCISE 3: the scalar body of the generic (the solution is the next cell).
    def exercise_body(q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type):
        """Return the list of ops computing the result from the block argument `q`;
        the last op's result is yielded. The other arguments are SSA constants."""
        # TODO: arith.ExtSIOp(q, i32), arith.SubiOp, arith.SIToFPOp(..., f32), arith.MulfOp,
        #       arith.DivfOp, arith.AddfOp, arith.MaximumfOp, arith.MinimumfOp,
        #       math.RoundEvenOp, arith.FPToSIOp(..., out_type)
        raise NotImplementedError("exercise 3 not done yet")

    mo.md("*Exercise 3: fill in `exercise_body` above.*")
    return (exercise_body,)


@app.cell
def _(
    AffineMap,
    AffineMapAttr,
    Block,
    FloatAttr,
    GenericOp,
    IteratorType,
    IteratorTypeAttr,
    ModulePass,
    PatternRewriteWalker,
    PatternRewriter,
    Region,
    RequantizeOp,
    RewritePattern,
    TensorType,
    YieldOp,
    arith,
    f32,
    i32,
    math,
    op_type_rewrite_pattern,
    storage_range,
    tensor,
):
    # SOLUTION 3
    def requantize_body(q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type):
        ops = [wide := arith.ExtSIOp(q, i32)]
        ops.append(centered := arith.SubiOp(wide, in_zp))
        ops.append(as_float := arith.SIToFPOp(centered, f32))
        ops.append(real := arith.MulfOp(as_float, in_scale))
        ops.append(scaled := arith.DivfOp(real, out_scale))
        ops.append(shifted := arith.AddfOp(scaled, out_zp))
        ops.append(above := arith.MaximumfOp(shifted, lo))
        ops.append(clamped := arith.MinimumfOp(above, hi))
        ops.append(rounded := math.RoundEvenOp(clamped))
        ops.append(arith.FPToSIOp(rounded, out_type))
        return ops

    class LowerRequantize(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(
            self, op: RequantizeOp, rewriter: PatternRewriter
        ) -> None:
            src, dst = op.input.type, op.result.type
            lo, hi = storage_range(dst.element_type)
            consts = [
                arith.ConstantOp(FloatAttr(op.in_scale.value.data, f32)),
                arith.ConstantOp.from_int_and_width(op.in_zero_point.value.data, i32),
                arith.ConstantOp(FloatAttr(op.out_scale.value.data, f32)),
                arith.ConstantOp(FloatAttr(float(op.out_zero_point.value.data), f32)),
                arith.ConstantOp(FloatAttr(float(lo), f32)),
                arith.ConstantOp(FloatAttr(float(hi), f32)),
            ]
            empty = tensor.EmptyOp([], TensorType(dst.element_type, dst.get_shape()))
            block = Block(arg_types=[src.element_type, dst.element_type])
            body = requantize_body(
                block.args[0], *(c.result for c in consts), dst.element_type
            )
            block.add_ops([*body, YieldOp(body[-1].results[0])])
            rank = len(dst.get_shape())
            generic = GenericOp(
                [op.input],
                [empty.tensor],
                Region(block),
                [AffineMapAttr(AffineMap.identity(rank))] * 2,
                [IteratorTypeAttr(IteratorType.PARALLEL)] * rank,
                [dst],
            )
            for c, hint in zip(
                consts, ("in_scale", "in_zp", "out_scale", "out_zp", "lo", "hi")
            ):
                c.result.name_hint = hint
            empty.tensor.name_hint = "init"
            rewriter.replace(op, [*consts, empty, generic], generic.results)

    class LowerMyQ(ModulePass):
        name = "lower-myq"

        def apply(self, ctx, op) -> None:
            PatternRewriteWalker(LowerRequantize()).rewrite_module(op)

    return LowerMyQ, requantize_body


@app.cell
def _(LowerMyQ, PROGRAM, parse, xquant):
    lowered = parse(PROGRAM)
    LowerMyQ().apply(xquant.make_context(), lowered)
    lowered.verify()
    lowered_text = xquant.print_module(lowered)
    print(lowered_text)
    return lowered, lowered_text


@app.cell
def _(exercise_body, requantize_body):
    def check_exercise_3():
        from xdsl.dialects.builtin import f32, i8, i32
        from xdsl.ir import Block

        args = Block(arg_types=[i8, f32, i32, f32, f32, f32, f32]).args
        try:
            mine = exercise_body(*args, i8)
        except NotImplementedError as err:
            return str(err)
        want = [op.name for op in requantize_body(*args, i8)]
        got = [op.name for op in mine]
        return f"exercise 3: {'same ops as' if got == want else 'different ops from'} the solution"

    exercise_3_status = check_exercise_3()
    print(exercise_3_status)
    return (exercise_3_status,)


@app.cell
def _(mo):
    mo.md(r"""
    ## Step 4 · A FileCheck test of the lowered text

    The repo's lit tests (`filecheck/`) pipe `xquant-opt` output into
    FileCheck. Here we call the `filecheck` package's matcher on the text
    directly. `CHECK-NOT` makes sure the op is gone; `CHECK-SAME`
    continues the previous line; `{{.*}}` is a regex.
    """)
    return


@app.cell
def _():
    CHECKS = """\
    // CHECK-NOT: myq.requantize
    // CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4x8xi8>
    // CHECK: linalg.generic
    // CHECK-SAME: iterator_types = ["parallel", "parallel"]
    // CHECK-SAME: outs(%[[INIT]] : tensor<4x8xi8>)
    // CHECK: arith.extsi %{{.*}} : i8 to i32
    // CHECK-NEXT: arith.subi
    // CHECK-NEXT: arith.sitofp %{{.*}} : i32 to f32
    // CHECK: math.roundeven
    // CHECK-NEXT: arith.fptosi %{{.*}} : f32 to i8
    // CHECK-NEXT: linalg.yield
    """

    def filecheck(text, checks, show_errors=True):
        """True if `text` passes the CHECK lines (FileCheck when installed)."""
        import contextlib
        import io
        import os
        import tempfile

        try:
            from filecheck.matcher import Matcher
            from filecheck.options import Options
        except ImportError:  # fallback: each check's literal text, in order
            pos = 0
            for line in checks.splitlines():
                lit = line.split(":", 1)[1].strip().split("%")[0].split("{{")[0]
                if "CHECK-NOT" in line:
                    if lit in text:
                        return False
                    continue
                pos = text.find(lit, pos)
                if pos < 0:
                    return False
            return True
        with tempfile.TemporaryDirectory() as d:
            check_file, input_file = os.path.join(d, "checks"), os.path.join(d, "input")
            with open(check_file, "w") as f:
                f.write(checks)
            with open(input_file, "w") as f:
                f.write(text)
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                status = Matcher.from_opts(
                    Options(match_filename=check_file, input_file=input_file)
                ).run()
            if status != 0 and show_errors:
                print(out.getvalue())
            return status == 0

    return CHECKS, filecheck


@app.cell
def _(CHECKS, filecheck, lowered_text):
    lowered_ok = filecheck(lowered_text, CHECKS)
    print("FileCheck on the lowered IR:", "PASS" if lowered_ok else "FAIL")
    assert lowered_ok
    # and a check that must fail, to see that the checker is really checking
    assert not filecheck(lowered_text, "// CHECK: arith.fptoui", show_errors=False)
    return (lowered_ok,)


@app.cell
def _(mo):
    mo.md(r"""
    ## Step 5 · Run both and compare

    Every int8 value, through the op (our interpreter implementation) and
    through the lowered IR (xquant's linalg/arith/math implementations).
    """)
    return


@app.cell
def _(LowerMyQ, np, parse, run, xquant):
    ALL_I8 = np.arange(-128, 128, dtype=np.int8).reshape(4, 64)
    WIDE = """\
    func.func @main(%q: tensor<4x64xi8>) -> tensor<4x64xi8> {
      %r = myq.requantize %q {in_scale = 5.000000e-02 : f32, in_zero_point = 3 : i32, out_scale = 3.000000e-02 : f32, out_zero_point = 10 : i32} : tensor<4x64xi8> to tensor<4x64xi8>
      func.return %r : tensor<4x64xi8>
    }
    """
    _before = parse(WIDE)
    _after = parse(WIDE)
    LowerMyQ().apply(xquant.make_context(), _after)
    (_want,) = run(_before, ALL_I8)
    (_got,) = run(_after, ALL_I8)
    same = np.array_equal(_want, _got)
    print("op vs lowered, all 256 int8 inputs: identical =", same)
    print("saturated outputs:", int(np.count_nonzero((_want == 127) | (_want == -128))))
    assert same
    return (same,)


@app.cell
def _(mo):
    mo.md(r"""
    ## Where this goes in the repo

    The op would live in `xquant/dialects/<dialect>/ops.py` (and its
    dialect in `xquant/universe.py`), the implementation in
    `xquant/interpreter/<dialect>.py` (listed in
    `EXTRA_IMPLEMENTATION_MODULES`), the pattern and pass in
    `xquant/transforms/<pass>.py`, the FileCheck test in
    `filecheck/transforms/<pass>.mlir`, and a differential test
    (op vs lowered, as in step 5) in `tests/transforms/`.
    `docs/adding-an-op-or-a-pass.md` lists the files one by one.
    """)
    return


if __name__ == "__main__":
    app.run()
