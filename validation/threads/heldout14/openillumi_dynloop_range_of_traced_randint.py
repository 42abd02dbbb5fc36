# source: https://openillumi.com/en/en-jax-jit-dynamic-loop-error-fix
# expect: trace-time-error at line 38
# runtime: ERROR TypeError
# why: the loop count is drawn with jax.random.randint inside the jitted function, so range() receives a traced array and tracing fails (on 0.10.2 the shape-(1,) tracer raises a plain TypeError rather than the TracerIntegerConversionError the page quotes).

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

key = jax.random.PRNGKey(0)  # scaffolding


@jax.jit
def do_stuff(start):
    # decide the number of loop iterations with JAX's random number generator
    num_iters = jax.random.randint(key, (1,), 1, 10)
    for i in range(num_iters):
        start += i  # scaffolding: the page elides the loop body
    return start


try:  # scaffolding
    do_stuff(0)
    _report({"jit(do_stuff)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
