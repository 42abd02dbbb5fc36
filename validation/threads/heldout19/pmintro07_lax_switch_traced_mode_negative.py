# source: https://github.com/patemotter/jax-intro/blob/main/07_control_flow.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the branch index mode is a traced jit argument that picks the branch inside lax.switch; the three modes share one compile (3 calls).
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

import jax
import jax.numpy as jnp
import jax.lax as lax
import numpy as np

# lax.switch(index, [fn0, fn1, fn2, ...], *operands)
# Selects and runs the function at position `index`

def activation(x, mode):
    """Apply different activations based on mode (0=relu, 1=tanh, 2=identity)."""
    return lax.switch(
        mode,
        [
            lambda x: jnp.maximum(x, 0),     # mode 0: ReLU
            lambda x: jnp.tanh(x),            # mode 1: tanh
            lambda x: x,                      # mode 2: identity
        ],
        x
    )

jit_act = jax.jit(activation)
x = jnp.array([-1.0, 0.5, 2.0])
for mode in range(3):
    print(f"Mode {mode}: {jit_act(x, mode)}")
_report({"jit(activation)"}, 3)  # scaffolding
