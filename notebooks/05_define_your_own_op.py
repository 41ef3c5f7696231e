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

    **How to use it.** The notebook gives you the scaffolding (the op class,
    the interpreter registration, the rewrite pattern, the tests) and leaves
    three functions to you, one per step: the verifier's checks, the numpy
    arithmetic and the scalar IR of the lowering. The scaffolding calls your
    functions, so until one is done the steps after it say "skipped". Under
    each exercise a *checker* compares your function with an independent
    reference (xquant's own `quant` ops, which implement the contract) and
    with inputs that must be rejected, and says what is wrong.

    The worked solutions are in `notebooks/solutions/05_solutions.py` (try
    first!); `python notebooks/solutions/05_solutions.py` runs this notebook
    with them substituted in. Headless, `python notebooks/05_define_your_own_op.py`
    runs the unsolved notebook.

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
        i8,
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
        i8,
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

    `RequantizeOp` below is complete except for its checks: its `verify_`
    calls your `exercise_verify(op)`. The verifier must reject input and
    result shapes that differ, non-integer element types, a scale that is
    not a positive finite number, and a zero point outside its storage
    type's range.
    """)
    return


@app.cell
def _(IntegerType):
    def storage_range(t: IntegerType) -> tuple[int, int]:
        """[min, max] of a signless integer storage type, read as signed (i8: [-128, 127])."""
        width = t.width.data
        return -(2 ** (width - 1)), 2 ** (width - 1) - 1

    return (storage_range,)


@app.cell
def _(mo):
    # EXERCISE 1: the checks of RequantizeOp.verify_.
    def exercise_verify(op):
        """Raise VerifyException("...") if `op` (a RequantizeOp) is invalid; return None if valid.

        What you have (xDSL accessors):
          op.input.type, op.result.type    TensorType; .get_shape() -> tuple[int, ...],
                                           .element_type -> an Attribute (check it with
                                           isinstance(t, IntegerType) before using it)
          op.in_scale, op.out_scale        FloatAttr; .value.data -> Python float
          op.in_zero_point,
          op.out_zero_point                IntegerAttr; .value.data -> Python int
          storage_range(integer_type)      (min, max), from the cell above
          np.isfinite(x)                   False for inf and nan
        """
        # TODO: 1. input and result shapes equal
        #       2. both element types are IntegerType
        #       3. in_scale and out_scale finite and > 0
        #       4. in_zero_point within storage_range of the input element type,
        #          out_zero_point within that of the result element type
        raise NotImplementedError("exercise 1: not done yet (fill in exercise_verify)")

    mo.md("*Exercise 1: fill in `exercise_verify` above.*")
    return (exercise_verify,)


@app.cell
def _(
    FloatAttr,
    IRDLOperation,
    IntegerAttr,
    Pure,
    TensorType,
    attr_def,
    exercise_verify,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
):
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
            try:
                exercise_verify(self)
            except NotImplementedError:
                pass  # exercise 1 not done: no checks yet

    return (RequantizeOp,)


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
def _(
    Block,
    FloatAttr,
    IntegerAttr,
    PROGRAM,
    RequantizeOp,
    TensorType,
    VerifyException,
    exercise_verify,
    f32,
    i8,
    i32,
    parse,
):
    def check_exercise_1():
        """exercise_verify must accept the valid op and reject each broken copy of it."""

        def the_op():
            return next(o for o in parse(PROGRAM).walk() if isinstance(o, RequantizeOp))

        def with_types(input_type, result_type):
            arg = Block(arg_types=[input_type]).args[0]
            return RequantizeOp.create(
                operands=[arg],
                result_types=[result_type],
                attributes=dict(the_op().attributes),
            )

        broken = {
            "shapes differ": with_types(TensorType(i8, [4, 8]), TensorType(i8, [4, 9])),
            "f32 input element type": with_types(
                TensorType(f32, [4, 8]), TensorType(i8, [4, 8])
            ),
            "f32 result element type": with_types(
                TensorType(i8, [4, 8]), TensorType(f32, [4, 8])
            ),
        }
        for name, value in (
            ("out_scale 0", ("out_scale", FloatAttr(0.0, f32))),
            ("in_scale -0.5", ("in_scale", FloatAttr(-0.5, f32))),
            ("in_scale inf", ("in_scale", FloatAttr(float("inf"), f32))),
            ("out_scale nan", ("out_scale", FloatAttr(float("nan"), f32))),
            ("in_zero_point 300", ("in_zero_point", IntegerAttr(300, i32))),
            ("out_zero_point -129", ("out_zero_point", IntegerAttr(-129, i32))),
        ):
            op = the_op()
            op.attributes[value[0]] = value[1]
            broken[name] = op
        try:
            exercise_verify(the_op())
        except NotImplementedError as err:
            return str(err)
        except VerifyException as err:
            return f"exercise 1: your verifier rejects the valid op: {err}"
        missed, wrong_kind = [], []
        for name, op in broken.items():
            try:
                exercise_verify(op)
                missed.append(name)
            except VerifyException:
                pass
            except (AttributeError, TypeError, ValueError, KeyError) as err:
                wrong_kind.append(f"{name} ({type(err).__name__}: {err})")
        if wrong_kind:
            return (
                "exercise 1: raise VerifyException, not another error, for: "
                + "; ".join(wrong_kind)
            )
        if missed:
            return f"exercise 1: your verifier accepts a bad op: {', '.join(missed)}"
        return (
            f"exercise 1: done: your verifier accepts the valid op and rejects "
            f"all {len(broken)} broken ones"
        )

    exercise_1_status = check_exercise_1()
    exercise_1_done = exercise_1_status.startswith("exercise 1: done")
    print(exercise_1_status)
    return exercise_1_done, exercise_1_status


@app.cell
def _(PROGRAM, VerifyException, exercise_1_done, parse):
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
    if not exercise_1_done:
        print("invalid programs: skipped until exercise 1 is done")
    else:
        for _what, _text in INVALID.items():
            try:
                parse(_text)
                rejected[_what] = None
            except VerifyException as _err:
                rejected[_what] = str(_err).splitlines()[0]
        for _what, _msg in rejected.items():
            print(f"{_what}: {_msg}")
    return INVALID, rejected


@app.cell
def _(mo):
    mo.md(r"""
    ## Step 2 · An interpreter implementation

    xquant's interpreter is xDSL's `Interpreter` with numpy implementations
    registered per op: a class deriving from `InterpreterFunctions`,
    decorated with `@register_impls`, one `@impl(OpClass)` method per op
    that takes the operand values (`args`, numpy arrays here) and returns a
    tuple of results. `xquant/interpreter/quant.py` is the model.

    The registration is below; its arithmetic is your `exercise_requantize`.
    Do the arithmetic in f32, in the same order as the formula, so that the
    lowered IR (which computes in f32 too) can match it bit for bit.
    """)
    return


@app.cell
def _(mo):
    # EXERCISE 2: the numpy arithmetic of requantize.
    def exercise_requantize(q, in_scale, in_zp, out_scale, out_zp, lo, hi):
        """Return the requantized integers: a numpy array of q's shape and dtype.

        Arguments:
          q                    numpy array of integers (np.int8 here)
          in_scale, out_scale  Python floats (convert them with np.float32(...))
          in_zp, out_zp        Python ints (zero points)
          lo, hi               Python ints: storage_range of the result type
        numpy you need: q.astype(np.int32), .astype(np.float32), np.float32(x),
        np.clip(v, lo, hi) (or np.maximum/np.minimum), np.rint (rounds half to
        even), .astype(q.dtype).
        """
        # TODO: real = (q - in_zp) * in_scale, the subtraction in int32, the product in f32;
        #       then real / out_scale + out_zp in f32, clamp to [lo, hi], round half to
        #       even, convert to q.dtype.
        raise NotImplementedError(
            "exercise 2: not done yet (fill in exercise_requantize)"
        )

    mo.md("*Exercise 2: fill in `exercise_requantize` above.*")
    return (exercise_requantize,)


@app.cell
def _(np, xquant):
    # The reference both checkers use: xquant's quant ops (the numeric contract),
    # quant.dcast with the input parameters then quant.qcast with the output ones.
    PARAMETERS = [  # (in_scale, in_zp, out_scale, out_zp)
        (0.05, 3, 0.125, -2),  # PROGRAM's
        (0.05, 3, 0.03, 10),  # saturates at both ends
        (1.0, 0, 2.0, 0),  # every odd q is a tie: q / 2 = k + 0.5
    ]
    ALL_I8 = np.arange(-128, 128, dtype=np.int8)

    def contract_requantize(q, in_scale, in_zp, out_scale, out_zp):
        t_in = f"tensor<256x!quant.uniform<i8:f32, {in_scale!r}:{in_zp}>>"
        t_out = f"tensor<256x!quant.uniform<i8:f32, {out_scale!r}:{out_zp}>>"
        text = f"""func.func @main(%q: tensor<256xi8>) -> tensor<256xi8> {{
      %a = quant.scast %q : tensor<256xi8> to {t_in}
      %r = quant.dcast %a : {t_in} to tensor<256xf32>
      %b = quant.qcast %r : tensor<256xf32> to {t_out}
      %s = quant.scast %b : {t_out} to tensor<256xi8>
      return %s : tensor<256xi8>
    }}"""
        (out,) = xquant.run(text, "main", q)
        return out

    REFERENCE = {p: contract_requantize(ALL_I8, *p) for p in PARAMETERS}
    return ALL_I8, PARAMETERS, REFERENCE


@app.cell
def _(ALL_I8, PARAMETERS, REFERENCE, exercise_requantize, np):
    def check_exercise_2():
        for params in PARAMETERS:
            try:
                mine = exercise_requantize(ALL_I8, *params, -128, 127)
            except NotImplementedError as err:
                return str(err)
            mine = np.asarray(mine)
            want = REFERENCE[params]
            if mine.shape != want.shape or mine.dtype != want.dtype:
                return (
                    f"exercise 2: returns {mine.dtype}{list(mine.shape)}, "
                    f"want {want.dtype}{list(want.shape)}"
                )
            bad = np.flatnonzero(mine != want)
            if bad.size:
                at = int(bad[0])
                return (
                    f"exercise 2: differs from the contract for {params} at q = "
                    f"{int(ALL_I8[at])}: got {int(mine[at])}, want {int(want[at])} "
                    f"({bad.size} of 256 differ)"
                )
        return (
            f"exercise 2: done: matches the contract on all 256 int8 inputs x "
            f"{len(PARAMETERS)} parameter sets"
        )

    exercise_2_status = check_exercise_2()
    exercise_2_done = exercise_2_status.startswith("exercise 2: done")
    print(exercise_2_status)
    return exercise_2_done, exercise_2_status


@app.cell
def _(
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    RequantizeOp,
    exercise_requantize,
    impl,
    np,
    register_impls,
    storage_range,
):
    @register_impls
    class MyQFunctions(InterpreterFunctions):
        @impl(RequantizeOp)
        def run_requantize(
            self, interpreter: Interpreter, op: RequantizeOp, args: PythonValues
        ) -> PythonValues:
            lo, hi = storage_range(op.result.type.element_type)
            return (
                exercise_requantize(
                    np.asarray(args[0]),
                    op.in_scale.value.data,
                    op.in_zero_point.value.data,
                    op.out_scale.value.data,
                    op.out_zero_point.value.data,
                    lo,
                    hi,
                ),
            )

    return (MyQFunctions,)


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
def _(exercise_2_done, np, program, run):
    q_in = np.arange(-128, 128, 8, dtype=np.int8).reshape(4, 8)
    q_out = None
    if not exercise_2_done:
        print("running the op: skipped until exercise 2 is done")
    else:
        (q_out,) = run(program, q_in)
        print("in :", q_in[0])
        print("out:", q_out[0])
        # by hand: (-128 - 3) * 0.05 = -6.55; / 0.125 = -52.4; - 2 = -54.4 -> -54
        print("q = -128 gives", int(q_out[0, 0]), "(by hand: -54)")
    return q_in, q_out


@app.cell
def _(mo):
    mo.md(r"""
    ## Step 3 · A lowering pattern

    A `RewritePattern` whose `match_and_rewrite` receives each
    `RequantizeOp` (thanks to `@op_type_rewrite_pattern`) and replaces it
    with `arith.constant`s for the parameters, a `tensor.empty` (the output)
    and a `linalg.generic` with identity maps whose body does the scalar
    arithmetic. A `ModulePass` runs the pattern over the module
    (`PatternRewriteWalker`). In xquant a pass lives in
    `xquant/transforms/<name>.py` and is registered in `xquant/universe.py`
    (see `docs/adding-an-op-or-a-pass.md`).

    The pattern is below; the generic's body is your `exercise_body`.
    """)
    return


@app.cell
def _(mo):
    # EXERCISE 3: the scalar body of the linalg.generic.
    def exercise_body(q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type):
        """Return the list of ops, in order, that compute one output element.

        Arguments (SSA values, all scalars):
          q          the generic's block argument: one input element, type i8
          in_zp      i32 constant (the input zero point)
          in_scale, out_scale, out_zp, lo, hi
                     f32 constants (lo, hi: the storage range of out_type)
          out_type   IntegerType of the result element (i8)
        Op constructors (xdsl.dialects.arith / math); an op with one result can be
        passed where a value is expected:
          arith.ExtSIOp(value, i32)       sign-extend to i32
          arith.SubiOp(lhs, rhs)          lhs - rhs (integers)
          arith.SIToFPOp(value, f32)      signed integer to float
          arith.MulfOp(lhs, rhs), arith.DivfOp(lhs, rhs) (lhs / rhs), arith.AddfOp(lhs, rhs)
          arith.MaximumfOp(lhs, rhs), arith.MinimumfOp(lhs, rhs)
          math.RoundEvenOp(value)         round half to even, stays f32
          arith.FPToSIOp(value, out_type) float to integer: poison when out of range,
                                          so clamp first
        The last op's result is what the generic yields.
        """
        # TODO: extsi, subi, sitofp, mulf, divf, addf, maximumf, minimumf, roundeven, fptosi
        raise NotImplementedError("exercise 3: not done yet (fill in exercise_body)")

    mo.md("*Exercise 3: fill in `exercise_body` above.*")
    return (exercise_body,)


@app.cell
def _(ALL_I8, Block, PARAMETERS, REFERENCE, exercise_body, np):
    def evaluate_body(ops, block_args, arg_values, out_type):
        """Run a body's ops on numpy arrays, one scalar op at a time, as MLIR defines
        them (fptosi of an out-of-range value is poison); an independent check."""
        from xdsl.dialects.builtin import Float32Type, IntegerType

        def dtype_of(t):
            if isinstance(t, Float32Type):
                return np.float32
            if isinstance(t, IntegerType) and t.width.data in (8, 16, 32, 64):
                return {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[
                    t.width.data
                ]
            raise ValueError(f"type {t} is not used by requantize")

        values = dict(zip(block_args, arg_values))
        binary = {
            "arith.subi": np.subtract,
            "arith.mulf": np.multiply,
            "arith.divf": np.divide,
            "arith.addf": np.add,
            "arith.maximumf": np.maximum,
            "arith.minimumf": np.minimum,
        }
        for op in ops:
            if len(op.results) != 1:
                return None, f"{op.name} has {len(op.results)} results"
            args = []
            for operand in op.operands:
                if operand not in values:
                    return None, f"an operand of {op.name} is not defined before it"
                args.append(values[operand])
            dtype = dtype_of(op.results[0].type)
            if op.name in binary:
                result = binary[op.name](args[0], args[1]).astype(dtype)
            elif op.name in ("arith.extsi", "arith.sitofp"):
                result = args[0].astype(dtype)
            elif op.name == "math.roundeven":
                result = np.rint(args[0]).astype(dtype)
            elif op.name == "arith.fptosi":
                info = np.iinfo(dtype)
                outside = ~((args[0] >= info.min - 0.5) & (args[0] < info.max + 1))
                if outside.any():
                    return None, (
                        f"arith.fptosi of {float(args[0][outside][0])} to {dtype.__name__} "
                        "is poison in MLIR: clamp before converting"
                    )
                result = np.trunc(args[0]).astype(dtype)
            else:
                return None, f"{op.name} is not one of the ops the exercise lists"
            values[op.results[0]] = result
        if not ops or ops[-1].results[0].type != out_type:
            return None, f"the last op must produce {out_type}"
        return values[ops[-1].results[0]], None

    def check_exercise_3():
        from xdsl.dialects.builtin import f32, i8, i32

        block_args = Block(arg_types=[i8, f32, i32, f32, f32, f32, f32]).args
        try:
            ops = exercise_body(*block_args, i8)
        except NotImplementedError as err:
            return str(err)
        for params in PARAMETERS:
            in_scale, in_zp, out_scale, out_zp = params
            arg_values = [
                ALL_I8,
                np.float32(in_scale),
                np.int32(in_zp),
                np.float32(out_scale),
                np.float32(out_zp),
                np.float32(-128),
                np.float32(127),
            ]
            with np.errstate(all="ignore"):
                got, problem = evaluate_body(ops, block_args, arg_values, i8)
            if problem:
                return f"exercise 3: {problem} (parameters {params})"
            bad = np.flatnonzero(got != REFERENCE[params])
            if bad.size:
                at = int(bad[0])
                return (
                    f"exercise 3: differs from the contract for {params} at q = "
                    f"{int(ALL_I8[at])}: got {int(got[at])}, want "
                    f"{int(REFERENCE[params][at])} (check the operand order)"
                )
        return (
            f"exercise 3: done: your body computes the contract on all 256 int8 "
            f"inputs x {len(PARAMETERS)} parameter sets, with no poison"
        )

    exercise_3_status = check_exercise_3()
    exercise_3_done = exercise_3_status.startswith("exercise 3: done")
    print(exercise_3_status)
    return exercise_3_done, exercise_3_status


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
    exercise_body,
    f32,
    i32,
    op_type_rewrite_pattern,
    storage_range,
    tensor,
):
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
            body = exercise_body(
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

    return (LowerMyQ,)


@app.cell
def _(LowerMyQ, PROGRAM, exercise_3_done, parse, xquant):
    lowered_text = None
    if not exercise_3_done:
        print("lowering: skipped until exercise 3 is done")
    else:
        _lowered = parse(PROGRAM)
        LowerMyQ().apply(xquant.make_context(), _lowered)
        _lowered.verify()
        lowered_text = xquant.print_module(_lowered)
        print(lowered_text)
    return (lowered_text,)


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
    lowered_ok = None
    if lowered_text is None:
        print("FileCheck: skipped until exercise 3 is done")
    else:
        lowered_ok = filecheck(lowered_text, CHECKS)
        print("FileCheck on the lowered IR:", "PASS" if lowered_ok else "FAIL")
        # and a check that must fail, to see that the checker is really checking
        _fails = not filecheck(
            lowered_text, "// CHECK: arith.fptoui", show_errors=False
        )
        print("a wrong CHECK line fails:", _fails)
    return (lowered_ok,)


@app.cell
def _(mo):
    mo.md(r"""
    ## Step 5 · Run both and compare

    Every int8 value, through the op (your interpreter implementation) and
    through the lowered IR (xquant's linalg/arith/math implementations).
    """)
    return


@app.cell
def _(LowerMyQ, exercise_2_done, exercise_3_done, np, parse, run, xquant):
    WIDE = """\
    func.func @main(%q: tensor<4x64xi8>) -> tensor<4x64xi8> {
      %r = myq.requantize %q {in_scale = 5.000000e-02 : f32, in_zero_point = 3 : i32, out_scale = 3.000000e-02 : f32, out_zero_point = 10 : i32} : tensor<4x64xi8> to tensor<4x64xi8>
      func.return %r : tensor<4x64xi8>
    }
    """
    same = None
    if not (exercise_2_done and exercise_3_done):
        print("op vs lowered: skipped until exercises 2 and 3 are done")
    else:
        _inputs = np.arange(-128, 128, dtype=np.int8).reshape(4, 64)
        _before = parse(WIDE)
        _after = parse(WIDE)
        LowerMyQ().apply(xquant.make_context(), _after)
        (_want,) = run(_before, _inputs)
        (_got,) = run(_after, _inputs)
        same = bool(np.array_equal(_want, _got))
        print("op vs lowered, all 256 int8 inputs: identical =", same)
        print(
            "saturated outputs:",
            int(np.count_nonzero((_want == 127) | (_want == -128))),
        )
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
