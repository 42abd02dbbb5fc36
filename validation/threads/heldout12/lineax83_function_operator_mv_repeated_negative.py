# source: https://github.com/patrick-kidger/lineax/issues/83
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: three eager operator.mv calls on a non-materialised FunctionLinearOperator reuse one compiled large_function: same shapes, same function object, so the 'compiles again' comments of the quoted docs example do not happen here (one compile for three calls).

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import lineax as lx  # scaffolding


@jax.jit  # scaffolding: stand-in for the docs' `large_function = ...`
def large_function(v):  # scaffolding
    return jnp.sin(v) * 2.0 + jnp.cumsum(v)  # scaffolding


vector1 = jnp.ones(5)  # scaffolding
vector2 = jnp.arange(5.0)  # scaffolding
vector3 = jnp.linspace(0.0, 1.0, 5)  # scaffolding

operator = lx.FunctionLinearOperator(large_function, jax.eval_shape(lambda: vector1))

# Option 1
out1 = operator.mv(vector1)  # Traces and compiles `large_function`
out2 = operator.mv(vector2)  # Traces and compiles `large_function` again!
out3 = operator.mv(vector3)  # Traces and compiles `large_function` a third time!
_report({"jit(large_function)"}, 3)  # scaffolding
