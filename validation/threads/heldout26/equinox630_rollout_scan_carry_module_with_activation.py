# source: https://github.com/patrick-kidger/equinox/issues/630
# expect: trace-time-error at line 48
# runtime: ERROR TypeError
# why: rollout passes [mlp] (an eqx.Module whose MLP holds activation functions) as the lax.scan carry, so scan must treat the function leaves as traced arrays and raises TypeError (not a valid JAX type).
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
import equinox as eqx

class SimpleMLP(eqx.Module):
    mlp: eqx.nn.MLP
    def __init__(self, *, key) -> None:
        self.mlp = eqx.nn.MLP(in_size=3, out_size=1, width_size=32, depth=2, key=key)
    
    def __call__(self, x):
        return self.mlp(x)

key = jax.random.PRNGKey(42)
mlp = SimpleMLP(key=key)

def rollout(mlp, xs):
    def step(carry, x):
        mlp = carry # just for understanding 
        val = mlp(x)
        carry = mlp
        return carry, [val]
    
    _, scan_out = jax.lax.scan(
        step,
        [mlp],
        xs
    )
    
    return scan_out

key, subkey = jax.random.split(key)
try:  # scaffolding
    vals = rollout(mlp, jax.random.normal(key=subkey, shape=(200, 3)))
    _report({"jit(scan)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(str(e)[:200])  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
