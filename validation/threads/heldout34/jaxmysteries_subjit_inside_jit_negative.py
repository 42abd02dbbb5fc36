# source: https://github.com/jstuecker/jax-mysteries/blob/7d53834dd15309379a3cd421339a2d2c3b875438/notebooks/jax_mysteries.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: finternal.jit = jax.jit(finternal, inline=False) is called inside another jitted function; the nested jit is traced into the outer program and the outer function compiles once.

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


# --- end harness ---
# --- cell 0 ---
import jax
import jax.numpy as jnp

import numpy as np

x = jnp.zeros((1024*128,2)) # Our probe array -- it uses 1MB

# --- cell 12 ---
def finternal(x):
    return x * 2 + 25.0
finternal.jit = jax.jit(finternal, inline=False)

def f_with_subjit(x):
    """This fuses fine, allthough we jitted our sub-function"""
    return finternal.jit(x) + 3

# scaffolding: the notebook passes jax.jit(f_with_subjit) to its show_hlo_info() helper
# (src/my_jax_utils.py, which lowers, compiles and draws the HLO graph); here it is called instead
f_outer = jax.jit(f_with_subjit)  # scaffolding
for _ in range(4):  # scaffolding
    f_outer(x).block_until_ready()
_report({"jit(f_with_subjit)", "jit(finternal)"}, 4)  # scaffolding
