# source: https://github.com/jax-ml/jax/pull/20218
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: f is jitted and closes over a module-level mutable array that it updates in place; the closed-over ref is fed in on every call, so a second call sees the first call's update and f compiles once.

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
mutable_array = jax.new_ref  # scaffolding: renamed API

x_mut = mutable_array(jnp.zeros(3))

@jax.jit
def f():
  x_mut[0] += 1

f()  # don't crash!
f()  # scaffolding: a second call sees the first update
print(x_mut)  # [1, 0, 0]
_report({"jit(f)"}, 2)  # scaffolding
