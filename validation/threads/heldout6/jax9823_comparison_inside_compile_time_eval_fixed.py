# source: https://github.com/jax-ml/jax/issues/9823
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: mattjj's fix: 'positive = z > 0' inside the ensure_compile_time_eval block gives a concrete bool, so the branch is taken at trace time; f compiles once for 2 calls.

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

print(jax.__version__)  # 0.3.1

@jax.jit
def f(x):
    with jax.ensure_compile_time_eval():
        y = jnp.sin(3.0)
        z = jnp.sin(y)
        positive = z > 0  # mattjj: having a line like `positive = z > 0` inside the context
    if positive:
        return jnp.sin(x)
    else:
        return jnp.cos(x)
    
f(0)
f(1)  # scaffolding: a second call
_report({"jit(f)"}, 2)  # scaffolding
