# source: https://github.com/jax-ml/jax/issues/33348
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: A jitted function runs a while_loop whose body builds a fori_loop over a fresh lambda; everything is traced once inside the outer jit, so on jax 0.10.2 (CPU) it compiles once and returns instead of crashing as reported on Windows.

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
import jax
import jax.numpy as jnp
import jax.lax as lax

@jax.jit
def test():
    bi0 = jnp.array([0,0])
    def body_fun(x):
       result = lax.fori_loop(0, 3, lambda i, state:state, 0)
       return jnp.zeros_like(x)

    return lax.while_loop(lambda x: jnp.any(x!=bi0), body_fun, bi0)

test()
print(test())  # scaffolding: a second call
_report({"jit(test)"}, 2)  # scaffolding
