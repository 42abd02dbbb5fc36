# source: https://github.com/eclipse-qrisp/Qrisp/issues/309
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: a jitted function that defines its loop bodies (a nested def and lambdas) inside itself and runs a fori_loop inside a while_loop: on jax 0.10.2 CPU it neither crashes (as reported for 0.8.0) nor recompiles; test compiles once for two calls.

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

@jax.jit
def test():
    bi0 = jnp.array([0,0])
    def body_fun(x):
       result = lax.fori_loop(0, 3, lambda i, state:state, 0)
       return jnp.zeros_like(x)

    return lax.while_loop(lambda x: jnp.any(x!=bi0), body_fun, bi0)

test()
test()  # scaffolding
_report({"jit(test)"}, 2)  # scaffolding
