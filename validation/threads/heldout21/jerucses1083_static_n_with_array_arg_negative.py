# source: https://github.com/jeru/learn-jax/blob/main/exercises/cses-1083/solve.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the jitted run_in_jax takes n as a static argname (it sizes jnp.arange) next to the traced array of the other numbers; one call, one compile.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")
# Copyright 2026 Cheng Sheng
# SPDX-License-Identifier: Apache-2.0
#
# https://cses.fi/problemset/task/1068/
#
# Given an array from 1 to N, one is missing. Which one?
#
# Can simply compute the sum/xor of all numbers from input and all numbers
# from 1-N manually and check the difference. So, totally converted into
# aggregation calcuation.

import os
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["JAX_ENABLE_X64"] = "1"

from functools import partial

import jax
jax.config.update("jax_enable_x64", True)  # scaffolding: the harness imported jax before the JAX_ENABLE_X64 line above
from jax import numpy as jnp
from jaxtyping import Array, Int64

# Learn note: treat `n` as a static value (jax.jit compile-time known).
# The consequenec is that for each different `n`, jax will create one
# compilation.
#
# jax.jit requires static array shape for each compilation, so a dynamic
# `n` won't compile.
@partial(jax.jit, static_argnames=["n"])
def run_in_jax(n: int, a: Int64[Array, " NMinusOne"]) -> Int64[Array, "1"]:
    b = jnp.arange(1, n + 1, dtype=jnp.int64)
    return jnp.bitwise_xor.reduce(jnp.concatenate([a, b], axis=0))


def main():
    import sys
    n = int(sys.stdin.readline())
    arr = [int(x) for x in sys.stdin.readline().split()]
    assert len(arr) == n - 1
    ans = run_in_jax(n, jnp.array(arr, dtype=jnp.int64))
    print(int(ans))


import io, sys  # scaffolding
sys.argv = ['solve.py']  # scaffolding
sys.stdin = io.StringIO('5\n2 3 1 5\n')  # scaffolding: CSES input
main()  # scaffolding (was: if __name__ == "__main__": main())
_report({'jit(run_in_jax)'}, 1)  # scaffolding
