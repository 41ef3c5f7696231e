"""`--mlir-print-debuginfo` and a few custom forms, byte for byte as mlir-opt 22.1.8.

Block arguments carry the location of their name and print it inline
(`%arg0: i32 loc("f.mlir":1:14)`), while its `#locN` definition goes to the top
of the output with the other aliases; op locations print as `loc(#locN)` with
their definitions at the end. The expected texts below were written from
mlir-opt's output; `test_same_as_mlir_opt` compares with mlir-opt itself where
it is installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.upstream.mlir_opt import require_mlir_opt

XQUANT_OPT = [
    sys.executable,
    "-c",
    "import sys; from xquant.tools.xquant_opt import main; sys.exit(main())",
]

BLOCK_ARGS = """\
func.func @f(%a: i32, %b: tensor<2xf32>) -> i32 {
  %c = arith.addi %a, %a : i32
  %r = scf.execute_region -> i32 {
    cf.br ^bb1(%c : i32)
  ^bb1(%x: i32):
    scf.yield %x : i32
  }
  return %r : i32
}
func.func private @decl(i32 {test.attr = 1 : i32}) -> (i32 {foo.bar})
"""

BLOCK_ARGS_EXPECTED = """\
#loc2 = loc("f.mlir":1:14)
#loc3 = loc("f.mlir":1:23)
#loc7 = loc("f.mlir":5:8)
module {
  func.func @f(%arg0: i32 loc("f.mlir":1:14), %arg1: tensor<2xf32> loc("f.mlir":1:23)) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc4)
    %1 = scf.execute_region -> i32 {
      cf.br ^bb1(%0 : i32) loc(#loc6)
    ^bb1(%2: i32 loc("f.mlir":5:8)):  // pred: ^bb0
      scf.yield %2 : i32 loc(#loc8)
    } loc(#loc5)
    return %1 : i32 loc(#loc9)
  } loc(#loc1)
  func.func private @decl(i32 {test.attr = 1 : i32}) -> (i32 {foo.bar}) loc(#loc10)
} loc(#loc)
#loc = loc("f.mlir":0:0)
#loc1 = loc("f.mlir":1:1)
#loc4 = loc("f.mlir":2:8)
#loc5 = loc("f.mlir":3:8)
#loc6 = loc("f.mlir":4:5)
#loc8 = loc("f.mlir":6:5)
#loc9 = loc("f.mlir":8:3)
#loc10 = loc("f.mlir":10:1)
"""

# Block-argument locations sort with the other aliases (`#loc` before `#map`).
LINALG = """\
#map = affine_map<(d0) -> (d0)>
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""

LINALG_EXPECTED = """\
#loc2 = loc("f.mlir":2:14)
#loc4 = loc("f.mlir":4:8)
#loc5 = loc("f.mlir":4:17)
#map = affine_map<(d0) -> (d0)>
module {
  func.func @g(%arg0: tensor<4xf32> loc("f.mlir":2:14)) -> tensor<4xf32> {
    %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) {
    ^bb0(%in: f32 loc("f.mlir":4:8), %out: f32 loc("f.mlir":4:17)):
      linalg.yield %in : f32 loc(#loc6)
    } -> tensor<4xf32> loc(#loc3)
    return %0 : tensor<4xf32> loc(#loc7)
  } loc(#loc1)
} loc(#loc)
#loc = loc("f.mlir":0:0)
#loc1 = loc("f.mlir":2:1)
#loc3 = loc("f.mlir":3:8)
#loc6 = loc("f.mlir":5:5)
#loc7 = loc("f.mlir":7:3)
"""

# `-> i32` without parentheses, `-> (i32, i32)` with; terminators kept.
EXECUTE_REGION = """\
func.func @e(%a: i32) -> (i32, i32) {
  scf.execute_region {
    "test.op"() : () -> ()
    scf.yield
  }
  %r:2 = scf.execute_region -> (i32, i32) {
    scf.yield %a, %a : i32, i32
  }
  %s = scf.execute_region -> i32 {
    scf.yield %a : i32
  }
  return %r#0, %s : i32, i32
}
"""

EXECUTE_REGION_EXPECTED = """\
module {
  func.func @e(%arg0: i32) -> (i32, i32) {
    scf.execute_region {
      "test.op"() : () -> ()
      scf.yield
    }
    %0:2 = scf.execute_region -> (i32, i32) {
      scf.yield %arg0, %arg0 : i32, i32
    }
    %1 = scf.execute_region -> i32 {
      scf.yield %arg0 : i32
    }
    return %0#0, %1 : i32, i32
  }
}
"""

# Locations written in the text (MLIR's whole grammar), as JAX prints them:
# aliases defined after the module and used before, file ranges, callsite,
# fused with metadata, named locations, a generic-form op.
JAX_LIKE = """\
#loc1 = loc("x.py":3:4)
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {jax.arg_info = "x"} loc("x"), %arg1: tensor<4xf32> loc(#loc9)) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = "arith.addf"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#loc5)
    %1 = arith.mulf %0, %0 : tensor<4xf32> loc(#loc7)
    %2 = arith.mulf %1, %0 : tensor<4xf32> loc(fused<"foo">["a.py":1:2, "b.py":3:4 to 5:6])
    %3 = arith.mulf %2, %0 : tensor<4xf32> loc(fused["a.py":1:2, "b.py":3:4 to :6, unknown])
    %4 = arith.mulf %3, %0 : tensor<4xf32> loc("n"("a.py":1:2 to 1:2))
    %5 = arith.mulf %4, %0 : tensor<4xf32> loc("n2"(unknown))
    %6 = arith.mulf %5, %0 : tensor<4xf32> loc(callsite("a" at callsite("b.py":1:1 at "c.py":2:2)))
    %7 = arith.mulf %6, %0 : tensor<4xf32> loc("a.py":7)
    %8 = arith.mulf %7, %0 : tensor<4xf32> loc(fused<{a = 1}>[#loc1])
    return %8 : tensor<4xf32> loc(#loc1)
  } loc(#loc1)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("x.py":256:18 to :46)
#loc3 = loc("x.py":5:6)
#loc4 = loc(callsite(#loc2 at #loc3))
#loc5 = loc("jit(f)/add"(#loc4))
#loc6 = loc("y.py":1:2 to 3:4)
#loc7 = loc(fused[#loc5, #loc6])
#loc9 = loc("arg1")
"""

JAX_LIKE_EXPECTED = """\
#loc2 = loc("x")
#loc3 = loc("arg1")
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {jax.arg_info = "x"} loc("x"), %arg1: tensor<4xf32> loc("arg1")) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = arith.addf %arg0, %arg1 : tensor<4xf32> loc(#loc22)
    %1 = arith.mulf %0, %0 : tensor<4xf32> loc(#loc24)
    %2 = arith.mulf %1, %0 : tensor<4xf32> loc(#loc17)
    %3 = arith.mulf %2, %0 : tensor<4xf32> loc(#loc18)
    %4 = arith.mulf %3, %0 : tensor<4xf32> loc(#loc19)
    %5 = arith.mulf %4, %0 : tensor<4xf32> loc(#loc11)
    %6 = arith.mulf %5, %0 : tensor<4xf32> loc(#loc23)
    %7 = arith.mulf %6, %0 : tensor<4xf32> loc(#loc15)
    %8 = arith.mulf %7, %0 : tensor<4xf32> loc(#loc21)
    return %8 : tensor<4xf32> loc(#loc1)
  } loc(#loc1)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("x.py":3:4)
#loc4 = loc("x.py":256:18 to :46)
#loc5 = loc("x.py":5:6)
#loc6 = loc("y.py":1:2 to 3:4)
#loc7 = loc("a.py":1:2)
#loc8 = loc("b.py":3:4 to 5:6)
#loc9 = loc("b.py":3:4 to :6)
#loc10 = loc("a.py":1:2)
#loc11 = loc("n2")
#loc12 = loc("a")
#loc13 = loc("b.py":1:1)
#loc14 = loc("c.py":2:2)
#loc15 = loc("a.py":7:0)
#loc16 = loc(callsite(#loc4 at #loc5))
#loc17 = loc(fused<"foo">[#loc7, #loc8])
#loc18 = loc(fused[#loc7, #loc9])
#loc19 = loc("n"(#loc10))
#loc20 = loc(callsite(#loc13 at #loc14))
#loc21 = loc(fused<{a = 1 : i64}>[#loc1])
#loc22 = loc("jit(f)/add"(#loc16))
#loc23 = loc(callsite(#loc12 at #loc20))
#loc24 = loc(fused[#loc22, #loc6])
"""

# Each spelling of a file range is its own attribute (its own alias), while
# `fused` is uniqued (unknowns dropped, duplicates merged, nested fused
# flattened, a lone location returned as itself) and `"n"(unknown)` is `"n"`.
RANGES = """\
func.func @f(%a: i32 loc("n"(unknown)), %b: i32 loc("z.py":9:9 to :9)) -> i32 {
  %0 = arith.addi %a, %a : i32 loc("x":3:4 to 3:6)
  %1 = arith.addi %0, %a : i32 loc("x":3:4 to :4)
  %2 = arith.addi %1, %a : i32 loc("x":3:4 to :6)
  %3 = arith.addi %2, %a : i32 loc("x":3:4)
  %4 = arith.addi %3, %a : i32 loc("x":3)
  %5 = arith.addi %4, %a : i32 loc("x":0x3:0)
  %6 = arith.addi %5, %a : i32 loc("x":3:4 to 2:1)
  %7 = arith.addi %6, %a : i32 loc("q\\n\\"x":0:0)
  %8 = arith.addi %7, %a : i32 loc(fused[unknown])
  %9 = arith.addi %8, %a : i32 loc(fused["a":1:1])
  %10 = arith.addi %9, %a : i32 loc(fused[])
  %11 = arith.addi %10, %a : i32 loc(fused<unit>["a":1:1, "a":1:1, fused<unit>["b":2:2]])
  %12 = arith.addi %11, %a : i32 loc(callsite(unknown at unknown))
  %13 = arith.addi %12, %a : i32 loc(fused<"m">[])
  return %13 : i32 loc("n"(unknown))
}
"""

RANGES_EXPECTED = """\
#loc2 = loc("n")
#loc3 = loc("z.py":9:9)
module {
  func.func @f(%arg0: i32 loc("n"), %arg1: i32 loc("z.py":9:9)) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc4)
    %1 = arith.addi %0, %arg0 : i32 loc(#loc5)
    %2 = arith.addi %1, %arg0 : i32 loc(#loc6)
    %3 = arith.addi %2, %arg0 : i32 loc(#loc7)
    %4 = arith.addi %3, %arg0 : i32 loc(#loc8)
    %5 = arith.addi %4, %arg0 : i32 loc(#loc9)
    %6 = arith.addi %5, %arg0 : i32 loc(#loc10)
    %7 = arith.addi %6, %arg0 : i32 loc(#loc11)
    %8 = arith.addi %7, %arg0 : i32 loc(#loc12)
    %9 = arith.addi %8, %arg0 : i32 loc(#loc13)
    %10 = arith.addi %9, %arg0 : i32 loc(#loc12)
    %11 = arith.addi %10, %arg0 : i32 loc(#loc15)
    %12 = arith.addi %11, %arg0 : i32 loc(#loc16)
    %13 = arith.addi %12, %arg0 : i32 loc(#loc17)
    return %13 : i32 loc(#loc2)
  } loc(#loc1)
} loc(#loc)
#loc = loc("f.mlir":0:0)
#loc1 = loc("f.mlir":1:1)
#loc4 = loc("x":3:4 to :6)
#loc5 = loc("x":3:4)
#loc6 = loc("x":3:4 to :6)
#loc7 = loc("x":3:4)
#loc8 = loc("x":3:0)
#loc9 = loc("x":3:0)
#loc10 = loc("x":3:4 to 2:1)
#loc11 = loc("q\\0A\\22x":0:0)
#loc12 = loc(unknown)
#loc13 = loc("a":1:1)
#loc14 = loc("b":2:2)
#loc15 = loc(fused<unit>[#loc13, #loc14])
#loc16 = loc(callsite(#loc12 at #loc12))
#loc17 = loc(fused<"m">[#loc12])
"""

# Block-argument locations print inline, with what they nest as aliases
# defined before the module (sorted by depth, `#map` among them).
NESTED_ARGS = """\
#foo = loc("foo.py":1:1)
#map = affine_map<(d0) -> (d0)>
func.func @g(%a: tensor<4xf32> loc(callsite("inner"("g.py":2:3 to :9) at #foo)), %n: i32) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32 loc(#l3), %o: f32 loc(fused["u.py":1:1, "v.py":2:2])):
    %y = arith.addf %x, %o : f32 loc(#l3)
    linalg.yield %y : f32 loc(#foo)
  } -> tensor<4xf32> loc(#l4)
  %c = arith.constant 1 : i32 loc(unknown)
  cf.br ^bb1(%c : i32) loc(#l5)
^bb1(%z: i32 loc("bb.py":9:9)):
  return %r : tensor<4xf32> loc("ret"(#foo))
} loc(#foo)
#l3 = loc("l3.py":3:3 to 4:4)
#l4 = loc(fused<#map>[#l3, #foo])
#l5 = loc(callsite(#l4 at "c.py":1:1))
"""

NESTED_ARGS_EXPECTED = """\
#loc1 = loc("foo.py":1:1)
#loc2 = loc("g.py":2:3 to :9)
#loc3 = loc("f.mlir":3:82)
#loc4 = loc("l3.py":3:3 to 4:4)
#loc5 = loc("u.py":1:1)
#loc6 = loc("v.py":2:2)
#loc9 = loc("bb.py":9:9)
#map = affine_map<(d0) -> (d0)>
#loc10 = loc("inner"(#loc2))
#loc12 = loc(fused[#loc5, #loc6])
#loc14 = loc(callsite(#loc10 at #loc1))
module {
  func.func @g(%arg0: tensor<4xf32> loc(callsite(#loc10 at #loc1)), %arg1: i32 loc("f.mlir":3:82)) -> tensor<4xf32> {
    %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) {
    ^bb0(%in: f32 loc("l3.py":3:3 to 4:4), %out: f32 loc(fused[#loc5, #loc6])):
      %2 = arith.addf %in, %out : f32 loc(#loc4)
      linalg.yield %2 : f32 loc(#loc1)
    } -> tensor<4xf32> loc(#loc11)
    %c1_i32 = arith.constant 1 : i32 loc(#loc7)
    cf.br ^bb1(%c1_i32 : i32) loc(#loc15)
  ^bb1(%1: i32 loc("bb.py":9:9)):  // pred: ^bb0
    return %0 : tensor<4xf32> loc(#loc13)
  } loc(#loc1)
} loc(#loc)
#loc = loc("f.mlir":0:0)
#loc7 = loc(unknown)
#loc8 = loc("c.py":1:1)
#loc11 = loc(fused<#map>[#loc4, #loc1])
#loc13 = loc("ret"(#loc1))
#loc15 = loc(callsite(#loc11 at #loc8))
"""

NESTED_ARGS_GENERIC_EXPECTED = """\
#loc1 = loc("foo.py":1:1)
#loc2 = loc("g.py":2:3 to :9)
#loc3 = loc("f.mlir":3:82)
#loc4 = loc("l3.py":3:3 to 4:4)
#loc5 = loc("u.py":1:1)
#loc6 = loc("v.py":2:2)
#loc9 = loc("bb.py":9:9)
#map = affine_map<(d0) -> (d0)>
#loc10 = loc("inner"(#loc2))
#loc12 = loc(fused[#loc5, #loc6])
#loc14 = loc(callsite(#loc10 at #loc1))
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, i32) -> tensor<4xf32>, sym_name = "g"}> ({
  ^bb0(%arg0: tensor<4xf32> loc(callsite(#loc10 at #loc1)), %arg1: i32 loc("f.mlir":3:82)):
    %0 = "linalg.generic"(%arg0, %arg0) <{indexing_maps = [#map, #map], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg2: f32 loc("l3.py":3:3 to 4:4), %arg3: f32 loc(fused[#loc5, #loc6])):
      %3 = "arith.addf"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc(#loc4)
      "linalg.yield"(%3) : (f32) -> () loc(#loc1)
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#loc11)
    %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32 loc(#loc7)
    "cf.br"(%1)[^bb1] : (i32) -> () loc(#loc15)
  ^bb1(%2: i32 loc("bb.py":9:9)):  // pred: ^bb0
    "func.return"(%0) : (tensor<4xf32>) -> () loc(#loc13)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)
#loc = loc("f.mlir":0:0)
#loc7 = loc(unknown)
#loc8 = loc("c.py":1:1)
#loc11 = loc(fused<#map>[#loc4, #loc1])
#loc13 = loc("ret"(#loc1))
#loc15 = loc(callsite(#loc11 at #loc8))
"""

JAX_LIKE_PLAIN_EXPECTED = """\
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {jax.arg_info = "x"}, %arg1: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = arith.addf %arg0, %arg1 : tensor<4xf32>
    %1 = arith.mulf %0, %0 : tensor<4xf32>
    %2 = arith.mulf %1, %0 : tensor<4xf32>
    %3 = arith.mulf %2, %0 : tensor<4xf32>
    %4 = arith.mulf %3, %0 : tensor<4xf32>
    %5 = arith.mulf %4, %0 : tensor<4xf32>
    %6 = arith.mulf %5, %0 : tensor<4xf32>
    %7 = arith.mulf %6, %0 : tensor<4xf32>
    %8 = arith.mulf %7, %0 : tensor<4xf32>
    return %8 : tensor<4xf32>
  }
}
"""

# Trailing `loc(#alias)` of block arguments and ops before the alias is
# defined; a location used by an op and by a block argument is defined before
# the module.
FORWARD_ALIASES = """\
func.func @f(%a: i32 loc(#a)) -> i32 {
  %r = scf.execute_region -> i32 {
    cf.br ^bb1(%a : i32) loc(#b)
  ^bb1(%x: i32 loc(#b)):
    scf.yield %x : i32
  }
  return %r : i32
}
#a = loc("a.py":1:2 to :5)
#b = loc(callsite("f"(#a) at "b.py":3:4))
"""

FORWARD_ALIASES_EXPECTED = """\
#loc2 = loc("a.py":1:2 to :5)
#loc4 = loc("b.py":3:4)
#loc7 = loc("f"(#loc2))
#loc8 = loc(callsite(#loc7 at #loc4))
module {
  func.func @f(%arg0: i32 loc("a.py":1:2 to :5)) -> i32 {
    %0 = scf.execute_region -> i32 {
      cf.br ^bb1(%arg0 : i32) loc(#loc8)
    ^bb1(%1: i32 loc(callsite(#loc7 at #loc4))):  // pred: ^bb0
      scf.yield %1 : i32 loc(#loc5)
    } loc(#loc3)
    return %0 : i32 loc(#loc6)
  } loc(#loc1)
} loc(#loc)
#loc = loc("f.mlir":0:0)
#loc1 = loc("f.mlir":1:1)
#loc3 = loc("f.mlir":2:8)
#loc5 = loc("f.mlir":5:5)
#loc6 = loc("f.mlir":7:3)
"""

# Aliases are per chunk; a written module location replaces the chunk's.
SPLIT = """\
func.func @a(%x: i32 loc(#l)) -> i32 {
  return %x : i32 loc(#l)
}
#l = loc("a.py":1:1)
// -----
module @m {
  func.func @c(%x: i32) -> i32 {
    return %x : i32 loc(fused<"q">["c.py":3:3])
  } loc("c.py":2:2)
} loc("m.py":1:1 to 9:9)
"""

SPLIT_EXPECTED = """\
#loc2 = loc("a.py":1:1)
module {
  func.func @a(%arg0: i32 loc("a.py":1:1)) -> i32 {
    return %arg0 : i32 loc(#loc2)
  } loc(#loc1)
} loc(#loc)
#loc = loc("f.mlir":0:0)
#loc1 = loc("f.mlir":1:1)

// -----
#loc2 = loc("f.mlir":7:16)
module @m {
  func.func @c(%arg0: i32 loc("f.mlir":7:16)) -> i32 {
    return %arg0 : i32 loc(#loc4)
  } loc(#loc1)
} loc(#loc)
#loc = loc("m.py":1:1 to 9:9)
#loc1 = loc("c.py":2:2)
#loc3 = loc("c.py":3:3)
#loc4 = loc(fused<"q">[#loc3])
"""

CASES = {
    "block_args": (BLOCK_ARGS, ["--mlir-print-debuginfo"], BLOCK_ARGS_EXPECTED),
    "linalg": (LINALG, ["--mlir-print-debuginfo"], LINALG_EXPECTED),
    "execute_region": (
        EXECUTE_REGION,
        ["--allow-unregistered-dialect"],
        EXECUTE_REGION_EXPECTED,
    ),
    "jax_like": (JAX_LIKE, ["--mlir-print-debuginfo"], JAX_LIKE_EXPECTED),
    "ranges": (RANGES, ["--mlir-print-debuginfo"], RANGES_EXPECTED),
    "nested_args": (NESTED_ARGS, ["--mlir-print-debuginfo"], NESTED_ARGS_EXPECTED),
    "nested_args_generic": (
        NESTED_ARGS,
        ["--mlir-print-debuginfo", "--mlir-print-op-generic"],
        NESTED_ARGS_GENERIC_EXPECTED,
    ),
    "forward_aliases": (
        FORWARD_ALIASES,
        ["--mlir-print-debuginfo"],
        FORWARD_ALIASES_EXPECTED,
    ),
    "split": (
        SPLIT,
        ["--mlir-print-debuginfo", "-split-input-file"],
        SPLIT_EXPECTED,
    ),
    # Without the flag, locations are kept but not printed.
    "jax_like_no_debuginfo": (JAX_LIKE, [], JAX_LIKE_PLAIN_EXPECTED),
}


def _run(command: list[str], source: str, flags: list[str], tmp_path: Path) -> str:
    (tmp_path / "f.mlir").write_text(source)
    done = subprocess.run(
        [*command, "f.mlir", *flags],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("name", CASES)
def test_expected_text(name: str, tmp_path: Path) -> None:
    source, flags, expected = CASES[name]
    # Both tools end their output with an empty line.
    assert _run(XQUANT_OPT, source, flags, tmp_path) == expected + "\n"


@pytest.mark.parametrize("name", CASES)
def test_same_as_mlir_opt(name: str, tmp_path: Path) -> None:
    mlir_opt = require_mlir_opt()
    source, flags, expected = CASES[name]
    assert (
        _run([str(part) for part in mlir_opt], source, flags, tmp_path)
        == expected + "\n"
    )


# A malformed location is a located parse error with mlir-opt's message and
# column: `return %a : i32 loc(<text>)` on line 3 of each chunk below.
MALFORMED = {
    "#loc9": (23, "operation location alias was never defined"),
    "#map": (23, "expected location, but found 'affine_map<(d0) -> (d0)>'"),
    '"f":1:2 to 3': (
        35,
        "expected either integer or `:` post `to` in FileLineColRange",
    ),
    '"f":x': (27, "expected integer line number in FileLineColRange"),
    '"f":1:2 to': (33, "expected either integer or `:` post `to` in FileLineColRange"),
    'callsite("a" "b")': (35, "expected 'at' in callsite location"),
    'callsite "a"': (31, "expected '(' in callsite location"),
    'callsite("a" at "b"': (43, "expected ')' in location"),
    "fused<1": (30, "expected '>' after fused location metadata"),
    "fused<1>": (31, "expected '[' in fused location"),
    'fused["a" "b"]': (32, "expected ']' in fused location"),
    "bogus": (23, "expected location instance"),
    '"a"("b"': (31, "expected ')' in location"),
    '"a"(': (27, "expected location instance"),
    '"f":1:2 to :99999999999': (
        35,
        "expected integer column number in FileLineColRange",
    ),
    '"f":-1:2': (27, "expected integer line number in FileLineColRange"),
    'callsite(#nope at "a")': (37, "undefined symbol alias id 'nope'"),
    'callsite(#map at "a")': (
        37,
        "expected location attribute, but gotaffine_map<(d0) -> (d0)>",
    ),
    '"f":1:2 to 4294967296:1': (33, "expected integer line number in FileLineColRange"),
    '"f":99999999999:1': (27, "expected integer line number in FileLineColRange"),
}

_MALFORMED_CHUNK = """\
#map = affine_map<(d0) -> (d0)>
func.func @f(%a: i32) -> i32 {
  return %a : i32 loc(LOCATION)
}
"""


def _malformed_file() -> tuple[str, list[str]]:
    """Every case as one `// -----` chunk, and the error lines expected."""
    chunks: list[str] = []
    expected: list[str] = []
    for index, (text, (column, message)) in enumerate(MALFORMED.items()):
        chunks.append(_MALFORMED_CHUNK.replace("LOCATION", text))
        expected.append(f"f.mlir:{5 * index + 3}:{column}: error: {message}")
    return "// -----\n".join(chunks), expected


def _error_lines(command: list[str], tmp_path: Path) -> list[str]:
    source, _ = _malformed_file()
    (tmp_path / "f.mlir").write_text(source)
    done = subprocess.run(
        [*command, "f.mlir", "--split-input-file"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 1
    return [line for line in done.stderr.splitlines() if ": error: " in line]


def test_malformed_locations(tmp_path: Path) -> None:
    assert _error_lines(XQUANT_OPT, tmp_path) == _malformed_file()[1]


def test_malformed_locations_as_mlir_opt(tmp_path: Path) -> None:
    mlir_opt = [str(part) for part in require_mlir_opt()]
    assert _error_lines(mlir_opt, tmp_path) == _malformed_file()[1]


# TensorFlow 2.21's printing of a tf.function (tests/data/locations/
# generate_tf.py): `loc(unknown)` arguments, call-site chains through its own
# frames, 200 aliases after the module. The ops are unknown `tf` ops in generic
# form; mlir-opt prints the same aliases as TensorFlow did.
TF_FUNCTION = Path(__file__).resolve().parents[1] / "data/locations/tf_function.mlir"
TF_FLAGS = ["--allow-unregistered-dialect", "--mlir-print-debuginfo"]


def test_tensorflow_locations(tmp_path: Path) -> None:
    text = TF_FUNCTION.read_text()
    printed = _run(XQUANT_OPT, text, TF_FLAGS, tmp_path)
    expected = [line for line in text.splitlines() if line.startswith("#loc")]
    assert [
        line for line in printed.splitlines() if line.startswith("#loc")
    ] == expected
    trailing = [
        line.rsplit(" loc(", 1)[1] for line in text.splitlines() if " loc(#" in line
    ]
    assert [
        line.rsplit(" loc(", 1)[1] for line in printed.splitlines() if " loc(#" in line
    ] == trailing


def test_tensorflow_locations_as_mlir_opt(tmp_path: Path) -> None:
    mlir_opt = [str(part) for part in require_mlir_opt()]
    text = TF_FUNCTION.read_text()
    assert _run(XQUANT_OPT, text, TF_FLAGS, tmp_path) == _run(
        mlir_opt, text, TF_FLAGS, tmp_path
    )
