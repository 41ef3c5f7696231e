"""`common.integer_matmul`: float BLAS only where it is exact, against numpy's int64 loop."""

from __future__ import annotations

import numpy as np
import pytest

from xquant.numerics.values import integer_matmul


@pytest.mark.parametrize(
    ("dtype", "k"),
    [
        (np.int8, 1023),  # 128 * 128 * 1023 < 2^24: float32
        (np.int8, 1025),  # just above: float64
        (np.int16, 300),  # float64
        (np.uint8, 64),
    ],
)
def test_extreme_values_are_exact(dtype: type, k: int) -> None:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(k)
    a = rng.choice([info.min, info.max], size=(3, k)).astype(dtype)
    b = rng.choice([info.min, info.max], size=(k, 4)).astype(dtype)
    a[0, :] = info.min  # a row of the largest magnitude against a column of it
    b[:, 0] = info.min
    want = np.matmul(a.astype(np.int64), b.astype(np.int64))
    got = integer_matmul(a, b)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)


def test_beyond_float64_uses_the_integer_loop() -> None:
    a = np.full((2, 3), 2**40, np.int64)
    b = np.full((3, 2), 2**20 + 1, np.int64)
    np.testing.assert_array_equal(
        integer_matmul(a, b), np.full((2, 2), 3 * 2**40 * (2**20 + 1))
    )


def test_batched_and_empty() -> None:
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    b = np.arange(40, dtype=np.int32).reshape(2, 4, 5)
    want = np.matmul(a.astype(np.int64), b.astype(np.int64))
    np.testing.assert_array_equal(integer_matmul(a, b), want)
    assert (
        integer_matmul(np.zeros((2, 0), np.int8), np.zeros((0, 3), np.int8)).tolist()
        == [[0] * 3] * 2
    )
