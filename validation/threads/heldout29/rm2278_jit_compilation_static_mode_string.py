# source: https://github.com/rm-2278/JAX_practice/blob/58e715587d73ba56c2dd6dabb287a703cd3e522d/functions/jit_compilation.py
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: mode is a str marked static (static_argnums=1) and branched on in Python; the two 'standard' calls share one compile and 'minmax' adds the second, as intended.
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
from jax import jit

def normalize(x, mode):
    print(f"Computing normalization for {mode}")
    if mode == 'standard':
        return ((x - jnp.mean(x)) / jnp.std(x))
    if mode == "minmax":
        return ((x - jnp.min(x)) / (jnp.max(x) - jnp.min(x)))
    else:
        return x
    
jitted_normalize = jit(normalize, static_argnums=1)

data = jnp.array([1, 2, 3, 4])
# Run 1
jitted_normalize(data, 'standard')
# Run 2
jitted_normalize(data, 'standard')
# Run 3
jitted_normalize(data, 'minmax')
_report({"jit(normalize)"}, 3)  # scaffolding
