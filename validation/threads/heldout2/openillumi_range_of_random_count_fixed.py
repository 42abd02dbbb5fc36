# source: https://openillumi.com/?p=117793
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the answer draws the count outside jit, converts it with int() and passes it as a static argument, so range() gets a Python int and do_stuff compiles once.

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


from functools import partial
import jax

key = jax.random.PRNGKey(0)  # scaffolding

@partial(jax.jit, static_argnums=(1,))
def do_stuff(start, num_iters):
    for i in range(num_iters):
        start = start + i  # scaffolding
    return start

num_iters = int(jax.random.randint(key, (1,), 1, 10)[0])  # [0]: int() of a 1-element array is deprecated
do_stuff(0, num_iters)
_report({"jit(do_stuff)"}, 1)  # scaffolding
