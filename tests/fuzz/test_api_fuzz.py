"""Mutated shipped programs never escape the API as anything but a diagnostic.

Every mutant (`tests/fuzz/mutants.py`) that parses goes through each pass
pipeline of the dialects it uses and through the interpreter (every function,
on generated arguments of its declared types), before and after each pipeline.
Only `ParseError` and `DiagnosticException` (`VerifyException`,
`InterpretationError`, `PassFailedException`, `OpDiagnostic`) may escape.

Deterministic in CI (`derandomize=True`); run it longer locally with
`XQUANT_FUZZ_EXAMPLES=5000 python -m pytest tests/fuzz -p no:cacheprovider`.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, ShapedType, TensorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException, ParseError

import xquant
from tests.fuzz.mutants import KINDS, SEEDS, Mutation, mutate, relevant_pipelines
from xquant.interpreter.runner import holder_dtype
from xquant.numerics.values import is_float_dtype

MAX_EXAMPLES = int(os.environ.get("XQUANT_FUZZ_EXAMPLES", "150"))
MAX_ELEMENTS = 1 << 16  # larger tensors are not interpreted (time, memory)
TIME_LIMIT = 2.0  # seconds per mutant; a slower one is not a failure, just skipped

DIAGNOSTICS = (ParseError, DiagnosticException)


class _OutOfTime(BaseException):
    """Not an `Exception`, so no `except Exception` on the way turns it into a diagnostic."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _elements(t: Attribute) -> int:
    if not isinstance(t, ShapedType):
        return 1
    n = 1
    for d in t.get_shape():
        n *= max(d, 1)
    return n


def _small_enough(module: ModuleOp) -> bool:
    for op in module.walk():
        types = [r.type for r in op.results]
        if isinstance(op, func.FuncOp):
            types += op.function_type.inputs.data
        if any(_elements(t) > MAX_ELEMENTS for t in types):
            return False
    return True


def _argument(t: Attribute, rng: np.random.Generator) -> Any | None:
    """A value of type `t` (small integers, quarter-step floats), or None if there is
    no generating one (dynamic shapes, MX tensors, ...)."""
    dt = holder_dtype(t)
    if dt is None or (isinstance(t, ShapedType) and not isinstance(t, TensorType)):
        return None
    shape = tuple(t.get_shape()) if isinstance(t, TensorType) else ()
    if any(d < 0 for d in shape):
        return None
    if dt.kind == "b":
        value = rng.integers(0, 2, shape).astype(dt)
    elif dt.kind == "u":
        value = rng.integers(0, 16, shape).astype(dt)
    elif dt.kind == "i":
        value = rng.integers(-8, 8, shape).astype(dt)
    elif is_float_dtype(dt):
        value = (rng.integers(-10, 11, shape) * 0.25).astype(dt)
    else:
        return None
    return value if isinstance(t, TensorType) else value[()]


def _run_every_function(module: ModuleOp) -> None:
    if not _small_enough(module):
        return
    rng = np.random.default_rng(0)
    for fn in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        if not fn.body.blocks:
            continue
        args = [_argument(t, rng) for t in fn.function_type.inputs.data]
        if any(a is None for a in args):
            continue
        try:
            xquant.run(module, fn.sym_name.data, *args)
        except DIAGNOSTICS:
            pass


def check_mutant(text: str) -> None:
    """Parse, lower and interpret `text`; fail on anything but a diagnostic.

    Each stage has its own time limit; a stage out of time is skipped.
    """
    try:
        with _time_limit(TIME_LIMIT):
            module = xquant.parse_module(text)  # checks dominance too
    except (*DIAGNOSTICS, _OutOfTime):
        return
    with suppress(_OutOfTime), _time_limit(TIME_LIMIT):
        _run_every_function(module)
    for pipeline in relevant_pipelines(text):
        lowered = module.clone()
        try:
            with _time_limit(TIME_LIMIT):
                xquant.apply_passes(lowered, pipeline)
        except (*DIAGNOSTICS, _OutOfTime):
            continue
        with suppress(_OutOfTime), _time_limit(TIME_LIMIT):
            _run_every_function(lowered)


def _explain(text: str, err: BaseException) -> str:
    return f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}\nmutant:\n{text}"


mutations = st.lists(
    st.tuples(
        st.integers(0, len(KINDS) - 1), st.integers(0, 1 << 12), st.integers(0, 64)
    ),
    min_size=1,
    max_size=3,
)


@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.sampled_from(SEEDS), edits=mutations)
def test_mutants_raise_only_diagnostics(seed: Any, edits: Sequence[Mutation]) -> None:
    text = mutate(seed.text, edits)
    try:
        check_mutant(text)
    except DIAGNOSTICS as err:  # pragma: no cover - check_mutant catches these
        pytest.fail(_explain(text, err))
    except Exception as err:
        raise AssertionError(
            f"{seed.name} {list(edits)}: {_explain(text, err)}"
        ) from err


def test_the_seeds_themselves_run() -> None:
    """Every seed parses; a seed that does not would fuzz nothing."""
    for seed in SEEDS:
        xquant.parse_module(seed.text)
