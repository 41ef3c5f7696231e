"""Native backends: run lowered xquant IR with a real MLIR compiler instead of the interpreter.

`iree.py` compiles linalg/arith/tensor IR with IREE (`llvm-cpu`, the host
CPU) and runs it with IREE's runtime. IREE is an optional dependency
(`pip install xquant[iree]`); nothing here imports it until a function is called.
"""
