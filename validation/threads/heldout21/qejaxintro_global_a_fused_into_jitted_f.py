# source: https://python-programming.quantecon.org/jax_intro.html
# expect: stale-closure at line 33
# runtime: COMPILES 2 CALLS 3
# why: the jitted f reads the global a at trace time; after a = 42 the cached compile still returns a + x with a = 1 ([2. 2.]) until a new input shape forces a retrace.
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
# import quantecon as qe  # scaffolding: quantecon not installed, unused in this section
import jax.numpy as jnp

a = 1  # global

@jax.jit
def f(x):
    return a + x

x = jnp.ones(2)

print(f(x))  # scaffolding: print (notebook cell output)

a = 42

print(f(x))  # scaffolding: print; still [2. 2.], the stale a = 1

x = jnp.ones(3)

print(f(x))  # scaffolding: print; the new shape recompiles and picks up a = 42
_report({"jit(f)"}, 3)  # scaffolding
