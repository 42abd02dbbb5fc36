# source: https://openillumi.com/?p=117793
# expect: trace-time-error at line 36
# runtime: ERROR TypeError
# why: num_iters is drawn with jax.random.randint inside the jitted do_stuff, so it is a traced array and range(num_iters) cannot turn it into a Python int; with shape (1,) jax 0.10.2 raises TypeError (the page reports TracerIntegerConversionError, the scalar case).

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

key = jax.random.PRNGKey(0)  # scaffolding

@jax.jit
def do_stuff(start):
    # decide the loop count with JAX's random number generator
    num_iters = jax.random.randint(key, (1,), 1, 10)
    for i in range(num_iters):
        start = start + i  # scaffolding
    return start

try:  # scaffolding
    do_stuff(0)
    _report({"jit(do_stuff)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
