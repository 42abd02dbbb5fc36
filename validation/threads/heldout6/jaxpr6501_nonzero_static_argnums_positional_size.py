# source: https://github.com/jax-ml/jax/pull/6501
# expect: bad-static-spec at line 38
# runtime: ERROR ValueError
# why: the PR's own example marks argument 1 of jnp.nonzero static by position, but size is keyword-only in jnp.nonzero on 0.10.2, so jit rejects static_argnums=(1,) with ValueError (the function accepts only 1 positional argument).

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
try:  # scaffolding
    print(jit(jnp.nonzero, static_argnums=1)(x, 3))

    # if the size is too large, the result is zero-padded
    print(jit(jnp.nonzero, static_argnums=1)(x, 5))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
