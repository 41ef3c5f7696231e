"""MLIR's textual form: a parser that remembers where each op came from, a
printer that writes what `mlir-opt` writes, and MLIR's diagnostic checking.

These are the pieces `mlir-opt`'s driver is built from (MLIR's `AsmParser`,
`AsmPrinter`, `SourceMgrDiagnosticVerifierHandler`); the tools in
`xquant.tools` and the Python API use them, and nothing here imports a tool.
"""
