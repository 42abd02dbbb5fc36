# source: https://github.com/patrick-kidger/equinox/issues/630
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with eqx.partition only the module's array leaves are the scan carry and the static part (activation functions) is recombined inside the body, so the scan traces and compiles once.
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
    params, static = eqx.partition(mlp, eqx.is_array)  # the fix: only the array leaves travel in the carry
    def step(carry, x):
        mlp = eqx.combine(carry, static)  # the fix: rebuild the module inside the body
        val = mlp(x)
        carry, _ = eqx.partition(mlp, eqx.is_array)  # the fix
        return carry, [val]
    
    _, scan_out = jax.lax.scan(
        step,
        params,  # the fix: was [mlp]
        xs
    )
    
    return scan_out

key, subkey = jax.random.split(key)
try:  # scaffolding
    vals = rollout(mlp, jax.random.normal(key=subkey, shape=(200, 3)))
    print(vals[0].shape)  # scaffolding
    _report({"jit(scan)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(str(e)[:200])  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
