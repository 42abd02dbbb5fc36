# source: https://github.com/jax-ml/jax/pull/6501
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: size passed by keyword and marked with static_argnames: jnp.nonzero gets a static size; 2 compiles for 2 calls because size changes from 3 to 5 (a new static value each, as the PR intends).

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
import jax.numpy as jnp
from jax import jit
x = jnp.array([0, 1, 1, 0, 0, 1])

# normal calling pattern still works
print(jnp.nonzero(x))

# pass a static size and it works with jit()
jit_nonzero = jit(jnp.nonzero, static_argnames='size')  # scaffolding: size is keyword-only now
print(jit_nonzero(x, size=3))

# if the size is too large, the result is zero-padded
print(jit_nonzero(x, size=5))
_report({"jit(nonzero)"}, 2)  # scaffolding
