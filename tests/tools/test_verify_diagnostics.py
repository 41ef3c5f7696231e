"""`xquant-opt -verify-diagnostics` is a check that can fail.

Each behaviour of MLIR's verifier is pinned on a small file, and on
upstream's own `parse-uniform-invalid.mlir` (read from ../shared, skipped when
absent) every single altered message, moved line and dropped annotation must
make the run fail.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from tests.fetch_upstream_tests import SHARED_DIR, absent_reason
from xquant.tools.command_line import parse_command_line
from xquant.tools.xquant_opt import OptDriver, _pass_names

SHARED_QUANT = SHARED_DIR / "mlir-quant-tests"


def verify(path: Path, *flags: str) -> tuple[int, str, str]:
    """Run the driver in-process: exit code, stdout, stderr."""
    options = parse_command_line(
        [str(path), "-split-input-file", "-verify-diagnostics", *flags], _pass_names
    )
    out, err = io.StringIO(), io.StringIO()
    code = OptDriver(options, out, err).run()
    return code, out.getvalue(), err.getvalue()


BAD_SCALE = "func.func private @f() -> !quant.uniform<i8:f32, -1.0>\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.mlir"
    path.write_text(text)
    return path


def test_matching_annotation_passes(tmp_path: Path) -> None:
    path = write(
        tmp_path, "// expected-error@+1 {{out of expressed type range}}\n" + BAD_SCALE
    )
    assert verify(path)[0] == 0


def test_altered_message_fails(tmp_path: Path) -> None:
    path = write(
        tmp_path, "// expected-error@+1 {{out of unexpressed type range}}\n" + BAD_SCALE
    )
    code, _, err = verify(path)
    assert code == 1
    assert f"{path}:2:" in err and "unexpected error: " in err
    assert (
        f'{path}:1:4: error: expected error "out of unexpressed type range" was not produced'
        in err
    )


def test_missing_diagnostic_fails(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "// expected-error@+1 {{out of expressed type range}}\n"
        "func.func private @f() -> !quant.uniform<i8:f32, 1.0>\n",
    )
    code, out, err = verify(path)
    assert code == 1
    assert "was not produced" in err and "unexpected" not in err
    assert "func.func private @f()" in out  # the module still prints


def test_extra_diagnostic_fails(tmp_path: Path) -> None:
    code, _, err = verify(write(tmp_path, BAD_SCALE))
    assert code == 1
    assert err.startswith(f"{tmp_path / 't.mlir'}:1:")
    assert "error: unexpected error: " in err and "out of expressed type range" in err


def test_wrong_line_fails(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "// expected-error@+2 {{out of expressed type range}}\n" + BAD_SCALE + "\n",
    )
    code, _, err = verify(path)
    assert code == 1
    assert "unexpected error" in err and "was not produced" in err


def test_wrong_kind_is_a_near_miss(tmp_path: Path) -> None:
    path = write(
        tmp_path, "// expected-warning@+1 {{out of expressed type range}}\n" + BAD_SCALE
    )
    code, _, err = verify(path)
    assert code == 1
    assert "'error' diagnostic emitted when expecting a 'warning'" in err
    assert 'expected warning "out of expressed type range" was not produced' in err


def test_only_expected_ignores_unexpected(tmp_path: Path) -> None:
    code, _, _ = verify(write(tmp_path, BAD_SCALE), "-verify-diagnostics=only-expected")
    assert code == 0


@pytest.mark.parametrize(
    "annotation",
    [
        "// expected-error-re@+1 {{out of {{expressed|stored}} type range}}",
        "// expected-error @+1 {{of expressed type}}",
        "// expected-error@below {{out of expressed type range}}",
    ],
)
def test_annotation_forms(tmp_path: Path, annotation: str) -> None:
    assert verify(write(tmp_path, annotation + "\n" + BAD_SCALE))[0] == 0


def test_stacked_below_annotations_target_the_same_line(tmp_path: Path) -> None:
    text = (
        "// expected-error@below {{out of expressed type range}}\n"
        "// expected-error@below {{out of expressed type range}}\n"
        "func.func private @f() -> (!quant.uniform<i8:f32, -1.0>, !quant.uniform<i8:f32, -2.0>)\n"
    )
    code, _, err = verify(write(tmp_path, text))
    # One parse error for two annotations: the second is not produced.
    assert code == 1 and err.count("was not produced") == 1 and ":2:4:" in err


def test_same_line_and_above(tmp_path: Path) -> None:
    text = (
        "func.func private @f() -> !quant.uniform<i8:f32, -1.0> "
        "// expected-error {{out of expressed type range}}\n"
        "// -----\n"
        + BAD_SCALE
        + "// expected-error@above {{out of expressed type range}}\n"
    )
    assert verify(write(tmp_path, text))[0] == 0


def test_regex_is_literal_outside_braces(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "// expected-error-re@+1 {{out of expressed type .ange}}\n" + BAD_SCALE,
    )
    assert verify(path)[0] == 1


def test_plain_text_braces_are_literal(tmp_path: Path) -> None:
    path = write(
        tmp_path, "// expected-error@+1 {{out of {{.*}} type range}}\n" + BAD_SCALE
    )
    assert verify(path)[0] == 1


def test_bad_regex_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "// expected-error-re@+1 {{out of {{(}}}}\n" + BAD_SCALE)
    code, _, err = verify(path)
    assert code == 1 and "invalid regex" in err


def test_lines_count_from_the_start_of_the_whole_file(tmp_path: Path) -> None:
    text = "func.func private @a() -> i8\n// -----\n\n" + BAD_SCALE
    code, _, err = verify(write(tmp_path, text))
    assert code == 1 and f"{tmp_path / 't.mlir'}:4:" in err


def test_identical_annotations_need_two_diagnostics(tmp_path: Path) -> None:
    """As upstream: each diagnostic satisfies the first matching annotation."""
    text = (
        "// expected-error@+2 {{out of expressed type range}}\n"
        "// expected-error@+1 {{out of expressed type range}}\n" + BAD_SCALE
    )
    code, _, err = verify(write(tmp_path, text))
    assert code == 1 and err.count("was not produced") == 1


def test_parse_error_in_a_chunk_does_not_stop_the_others(tmp_path: Path) -> None:
    text = (
        "// expected-error@+1 {{out of expressed type range}}\n"
        + BAD_SCALE
        + "// -----\n"
        "func.func private @g() -> i8\n"
    )
    code, out, _ = verify(write(tmp_path, text))
    assert code == 0
    assert out.startswith("// -----\n") and "@g" in out


# Upstream's own file: every annotation must be load-bearing.

_ANNOTATION = re.compile(r"expected-error(@[+-]\d+)? \{\{(.*)\}\}")


def _upstream_invalid() -> str:
    path = SHARED_QUANT / "parse-uniform-invalid.mlir"
    if not path.is_file():
        pytest.skip(absent_reason(f"mlir-quant-tests/{path.name}"))
    return path.read_text()


def _mutants(text: str) -> list[tuple[str, str]]:
    """(description, mutated text) for every annotation: message, line, dropped."""
    lines = text.splitlines(keepends=True)
    mutants: list[tuple[str, str]] = []
    for index, line in enumerate(lines):
        match = _ANNOTATION.search(line)
        if match is None:
            continue
        message = match.group(2)
        for what, new_line in (
            ("message", line.replace("{{" + message + "}}", "{{" + message + "XYZ}}")),
            ("line", line.replace("expected-error@+1", "expected-error@+2")),
            ("dropped", "//\n"),
        ):
            if new_line == line:
                continue
            mutated = lines.copy()
            mutated[index] = new_line
            mutants.append((f"line {index + 1}: {what}", "".join(mutated)))
    return mutants


def test_upstream_invalid_file_passes_unchanged(tmp_path: Path) -> None:
    code, _, err = verify(write(tmp_path, _upstream_invalid()))
    assert code == 0, err


def test_every_upstream_annotation_can_fail(tmp_path: Path) -> None:
    mutants = _mutants(_upstream_invalid())
    assert len(mutants) >= 3 * 40
    survivors = [
        what for what, text in mutants if verify(write(tmp_path, text))[0] == 0
    ]
    assert not survivors, f"mutants -verify-diagnostics accepted: {survivors}"


CALIBRATED = "!qalias = !quant.calibrated<f32<-0.998>>\n"


def test_follow_up_errors_are_expected_in_order(tmp_path: Path) -> None:
    """MLIR reports `expected ':'`, then `calibrated values must be present`
    (upstream's parse-calibrated-invalid.mlir expects both)."""
    both = (
        "// expected-error@+2 {{calibrated values must be present}}\n"
        "// expected-error@+1 {{expected ':'}}\n" + CALIBRATED
    )
    assert verify(write(tmp_path, both))[0] == 0
    only_first = "// expected-error@+1 {{expected ':'}}\n" + CALIBRATED
    code, _, err = verify(write(tmp_path, only_first))
    assert code == 1
    assert "unexpected error: calibrated values must be present" in err
    assert (
        "t.mlir:2:29: error: unexpected error: calibrated values must be present" in err
    )
