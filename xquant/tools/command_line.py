"""`xquant-opt`'s command line, read the way LLVM's `cl` library reads mlir-opt's.

mlir-opt accepts `-flag` and `--flag` alike, values as `-o out`, `-o=out` or
`--flag=value`, booleans as `-flag=true|false|1|0`, one positional input
(default `-`, standard input), and one flag per registered pass
(`--lower-quant-ops`, `--canonicalize="max-iterations=3 test-convergence"`),
in any order. `--pass-pipeline='builtin.module(func.func(cse))'` is the
textual pipeline instead. xdsl-opt's spellings keep working: `-p a,b{x=1}`,
`--print-op-generic`.

Errors carry LLVM's messages (`Unknown command line argument '--x'.  Try:
...`), so scripts written against mlir-opt see what they expect.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum, auto

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError

from xquant.transforms.utils.pass_options import description, options_summary

__all__ = [
    "CommandLineError",
    "OptOptions",
    "PassRequest",
    "parse_command_line",
    "parse_mlir_pipeline",
]

TOOL = "xquant-opt"


class CommandLineError(Exception):
    """A command line mlir-opt would refuse; the text is what to print."""


class _Kind(Enum):
    FLAG = auto()
    """A boolean: `-f`, `-f=true`, `-f=0`."""
    VALUE = auto()
    """Needs a value: `-o out`, `-o=out`."""
    OPTIONAL_VALUE = auto()
    """`-f` alone or `-f=value` (LLVM's ValueOptional: never a separate word)."""


@dataclass(frozen=True)
class _Option:
    names: tuple[str, ...]
    kind: _Kind
    dest: str
    help: str
    default_value: str = ""
    """For OPTIONAL_VALUE: the value `-f` alone means."""


_OPTIONS: tuple[_Option, ...] = (
    _Option(("o",), _Kind.VALUE, "output", "Output filename (default: stdout)"),
    _Option(
        ("split-input-file",),
        _Kind.OPTIONAL_VALUE,
        "split_input_file",
        "Split the input at lines '// -----' (or =MARKER) and process each chunk independently",
        "// -----",
    ),
    _Option(
        ("output-split-marker",),
        _Kind.VALUE,
        "output_split_marker",
        "Separator between the outputs of split chunks (default '// -----')",
    ),
    _Option(
        ("verify-diagnostics",),
        _Kind.OPTIONAL_VALUE,
        "verify_diagnostics",
        "Check diagnostics against expected-* annotations (=all, =only-expected)",
        "all",
    ),
    _Option(
        ("allow-unregistered-dialect",),
        _Kind.FLAG,
        "allow_unregistered_dialect",
        "Allow operations and types of dialects that are not registered",
    ),
    _Option(
        ("verify-each",),
        _Kind.FLAG,
        "verify_each",
        "Verify the IR after each pass (default: true)",
    ),
    _Option(
        ("mlir-print-op-generic", "print-op-generic"),
        _Kind.FLAG,
        "print_op_generic",
        "Print every operation in the generic form",
    ),
    _Option(
        ("mlir-print-debuginfo",),
        _Kind.FLAG,
        "print_debuginfo",
        "Print source locations of operations",
    ),
    _Option(
        ("mlir-print-ir-after-all",),
        _Kind.FLAG,
        "print_ir_after_all",
        "Print the IR to stderr after every pass",
    ),
    _Option(
        ("mlir-print-ir-before-all",),
        _Kind.FLAG,
        "print_ir_before_all",
        "Print the IR to stderr before every pass",
    ),
    _Option(
        ("mlir-print-elementsattrs-with-hex-if-larger",),
        _Kind.VALUE,
        "hex_threshold",
        "Print dense elements with more elements than this as hex (default 100, -1: never)",
    ),
    _Option(
        ("no-implicit-module",),
        _Kind.FLAG,
        "no_implicit_module",
        "Do not wrap the input in a module: it must be one top-level op",
    ),
    _Option(
        ("dump-pass-pipeline",),
        _Kind.FLAG,
        "dump_pass_pipeline",
        "Print the pass pipeline to stderr before running it",
    ),
    _Option(
        ("pass-pipeline",),
        _Kind.VALUE,
        "pass_pipeline",
        "A textual pipeline, e.g. 'builtin.module(func.func(canonicalize),cse)'",
    ),
    _Option(
        ("p", "passes"),
        _Kind.VALUE,
        "passes",
        "xdsl-opt's pipeline syntax: 'pass-a,pass-b{option=value}'",
    ),
    _Option(
        ("mlir-disable-threading",),
        _Kind.FLAG,
        "disable_threading",
        "Accepted for mlir-opt compatibility (xquant-opt is single-threaded)",
    ),
    _Option(("h", "help"), _Kind.FLAG, "help", "Show this help"),
    _Option(("version",), _Kind.FLAG, "version", "Show the version"),
)

# mlir-opt options whose output xquant-opt cannot produce: named, then refused.
_UNSUPPORTED = frozenset(
    {
        "emit-bytecode",
        "emit-bytecode-version",
        "irdl-file",
        "load-dialect-plugin",
        "load-pass-plugin",
        "mlir-elide-elementsattrs-if-larger",
        "mlir-pass-statistics",
        "mlir-print-assume-verified",
        "mlir-print-local-scope",
        "mlir-print-value-users",
        "mlir-print-ir-module-scope",
        "mlir-print-ir-after-change",
        "mlir-print-ir-after-failure",
        "mlir-pretty-debuginfo",
        "mlir-timing",
        "run-reproducer",
        "show-dialects",
        "verify-roundtrip",
        "mlir-print-skip-regions",
        "mlir-use-nameloc-as-prefix",
    }
)


@dataclass(frozen=True)
class PassRequest:
    """One pass of the pipeline as the user spelled it, before instantiation."""

    spec: ArgSpec
    spelling: str
    """The option text as given, for error messages."""


@dataclass
class OptOptions:
    """Everything `xquant-opt` was asked to do."""

    input: str = "-"
    output: str = "-"
    split_input_file: str | None = None
    """The split marker, or None when the input is one module."""
    output_split_marker: str = "// -----"
    verify_diagnostics: str | None = None
    """None, "all" or "only-expected"."""
    allow_unregistered_dialect: bool = False
    verify_each: bool = True
    print_op_generic: bool = False
    print_debuginfo: bool = False
    print_ir_after_all: bool = False
    print_ir_before_all: bool = False
    hex_threshold: int = 100
    no_implicit_module: bool = False
    dump_pass_pipeline: bool = False
    pass_pipeline: str | None = None
    passes: list[PassRequest] = field(default_factory=list[PassRequest])
    help: bool = False
    version: bool = False


_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


def _find_option(name: str) -> _Option | None:
    for option in _OPTIONS:
        if name in option.names:
            return option
    return None


def _set(options: OptOptions, option: _Option, value: str) -> None:
    """Store `value` for `option`, converting and checking as `cl` does."""
    flag = (
        f"-{option.names[0]}" if len(option.names[0]) == 1 else f"--{option.names[0]}"
    )
    match option.kind, option.dest:
        case _Kind.FLAG, dest:
            if value.lower() not in _BOOLEANS and value != "":
                raise CommandLineError(
                    f"{TOOL}: for the {flag} option: '{value}' is invalid value "
                    "for boolean argument! Try 0 or 1\n"
                )
            setattr(options, dest, _BOOLEANS.get(value.lower(), True))
        case _, "hex_threshold":
            try:
                setattr(options, option.dest, int(value))
            except ValueError:
                raise CommandLineError(
                    f"{TOOL}: for the {flag} option: '{value}' value invalid for "
                    "integer argument!\n"
                ) from None
        case _, "verify_diagnostics":
            if value not in ("all", "only-expected"):
                raise CommandLineError(
                    f"{TOOL}: for the {flag} option: Cannot find option named '{value}'!\n"
                )
            options.verify_diagnostics = value
        case _, "passes":
            try:
                for spec in parse_pipeline(value):
                    options.passes.append(PassRequest(spec, value))
            except ArgSpecParseError as err:
                raise CommandLineError(
                    f"{TOOL}: invalid pass pipeline '{value}': {err}\n"
                ) from None
        case _, dest:
            setattr(options, dest, value)


def parse_command_line(
    argv: Sequence[str], pass_names: Callable[[], Sequence[str]]
) -> OptOptions:
    """Read `argv` (without the program name) as mlir-opt would.

    `pass_names` lists the passes that may appear as flags; it is called only
    when a word is not one of the driver's own options.
    """
    options = OptOptions()
    positionals: list[str] = []
    known_passes: set[str] | None = None
    words = list(argv)
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            positionals += words[index:]
            break
        if word == "-" or not word.startswith("-"):
            positionals.append(word)
            continue
        name, has_value, value = word.lstrip("-").partition("=")
        option = _find_option(name)
        if option is not None:
            if option.kind is _Kind.VALUE and not has_value:
                if index == len(words):
                    raise CommandLineError(
                        f"{TOOL}: for the -{name} option: requires a value!\n"
                    )
                value = words[index]
                index += 1
            elif option.kind is _Kind.OPTIONAL_VALUE and not has_value:
                value = option.default_value
            _set(options, option, value)
            continue
        if name in _UNSUPPORTED:
            raise CommandLineError(
                f"{TOOL}: the mlir-opt option '{word}' is not supported by {TOOL}\n"
            )
        if known_passes is None:
            known_passes = set(pass_names())
        if name in known_passes:
            options.passes.append(_pass_flag(name, value if has_value else None))
            continue
        raise CommandLineError(_unknown_argument(word, known_passes))
    if len(positionals) > 1:
        raise CommandLineError(
            f"{TOOL}: Too many positional arguments specified!\n"
            f"Can specify at most 1 positional arguments: See: {TOOL} --help\n"
        )
    if positionals:
        options.input = positionals[0]
    if options.pass_pipeline is not None and options.passes:
        raise CommandLineError(
            "<unknown>:0: error: '-pass-pipeline' option can't be used with "
            "individual pass options\n"
        )
    return options


def _pass_flag(name: str, value: str | None) -> PassRequest:
    """`--name` or `--name=opt1=v opt2` as a pass request."""
    text = name if value is None or not value.strip() else f"{name}{{{value}}}"
    try:
        return PassRequest(parse_spec(text), value or "")
    except ArgSpecParseError as err:
        raise CommandLineError(
            f"<unknown>:0: error: <Pass-Options-Parser>: {err}\n\n"
            f"failed to add `{name}` with options `{value}`\n"
        ) from None


def _unknown_argument(word: str, known_passes: set[str]) -> str:
    message = f"{TOOL}: Unknown command line argument '{word}'.  Try: '{TOOL} --help'\n"
    name = word.lstrip("-").partition("=")[0]
    candidates = [n for option in _OPTIONS for n in option.names] + sorted(known_passes)
    close = difflib.get_close_matches(name, candidates, n=1)
    if close:
        message += f"{TOOL}: Did you mean '--{close[0]}'?\n"
    return message


def parse_mlir_pipeline(text: str) -> list[PassRequest]:
    """MLIR's textual pipeline as a flat list of passes.

    `builtin.module(func.func(canonicalize{max-iterations=3}), cse)`: op
    anchors nest, options in braces are space separated. xquant's and
    xDSL's passes are module passes, so a pass anchored on `func.func` runs
    on the whole module, which is the same for every function-local pass.
    """
    parser = _PipelineParser(text)
    anchor, inner = parser.anchored()
    parser.expect_end()
    if anchor != "builtin.module":
        raise CommandLineError(
            f"<unknown>:0: error: can't run '{anchor}' pass manager on "
            "'builtin.module' op\n"
        )
    return inner


class _PipelineParser:
    """Recursive descent over `anchor(element, ...)` with `pass{opts}` leaves."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def _skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def _error(self, message: str) -> CommandLineError:
        return CommandLineError(
            f"<unknown>:0: error: invalid pass pipeline '{self.text}': {message} "
            f"at position {self.pos}\n"
        )

    def _name(self) -> str:
        self._skip_spaces()
        start = self.pos
        while self.pos < len(self.text) and (
            self.text[self.pos].isalnum() or self.text[self.pos] in "-_."
        ):
            self.pos += 1
        if start == self.pos:
            raise self._error("expected a pass or op name")
        return self.text[start : self.pos]

    def _peek(self) -> str:
        self._skip_spaces()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def anchored(self) -> tuple[str, list[PassRequest]]:
        anchor = self._name()
        if self._peek() != "(":
            raise self._error(f"expected '(' after '{anchor}'")
        self.pos += 1
        passes: list[PassRequest] = []
        if self._peek() == ")":
            self.pos += 1
            return anchor, passes
        while True:
            passes += self._element()
            match self._peek():
                case ",":
                    self.pos += 1
                case ")":
                    self.pos += 1
                    return anchor, passes
                case _:
                    raise self._error("expected ',' or ')'")

    def _element(self) -> list[PassRequest]:
        start = self.pos
        name = self._name()
        if self._peek() == "(":
            self.pos = start
            return self.anchored()[1]
        options = None
        if self._peek() == "{":
            depth = 0
            open_at = self.pos
            while self.pos < len(self.text):
                depth += {"{": 1, "}": -1}.get(self.text[self.pos], 0)
                self.pos += 1
                if depth == 0:
                    break
            if depth:
                raise self._error("unbalanced '{'")
            options = self.text[open_at + 1 : self.pos - 1]
        return [_pass_flag(name, options)]

    def expect_end(self) -> None:
        if self._peek():
            raise self._error("unexpected text after the pipeline")


def pass_help_line(pass_class: type[ModulePass]) -> str:
    """`  --name  [option=<type> (default d), ...]`, then the docstring's first line."""
    line = f"  --{pass_class.name}"
    if options := options_summary(pass_class):
        line += f"  [{options}]"
    if text := description(pass_class):
        line += f"\n      {text}"
    return line


def help_text(
    xquant_passes: Sequence[type[ModulePass]], other_passes: Sequence[str]
) -> str:
    """The `--help` text: xquant's passes first, one line each with their options."""
    lines = [
        f"OVERVIEW: {TOOL}: xquant's modular optimizer, an mlir-opt drop-in",
        "",
        f"USAGE: {TOOL} [options] <input file>",
        "",
        "xquant passes:",
        *(pass_help_line(p) for p in xquant_passes),
        "",
        "Options:",
    ]
    for option in _OPTIONS:
        spelled = ", ".join(
            (f"-{n}" if len(n) == 1 else f"--{n}")
            + ("=<value>" if option.kind is not _Kind.FLAG and len(n) > 1 else "")
            for n in option.names
        )
        lines.append(f"  {spelled:<52} {option.help}")
    lines += ["", "Other passes (xDSL's), as --NAME or in -p/--pass-pipeline:"]
    line = " "
    for name in other_passes:
        if len(line) + len(name) > 78:
            lines.append(line.rstrip())
            line = " "
        line += f" {name}"
    lines.append(line.rstrip())
    return "\n".join(lines) + "\n"
