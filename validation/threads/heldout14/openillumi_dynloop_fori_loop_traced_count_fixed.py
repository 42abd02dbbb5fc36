# source: https://openillumi.com/en/en-jax-jit-dynamic-loop-error-fix
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the page's alternative, lax.fori_loop with the drawn count as a traced bound, compiles once whatever count is drawn.

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


@jax.jit
def do_stuff(start, num_iters):
    return jax.lax.fori_loop(0, num_iters, lambda i, s: s + i, start)


keys = jax.random.split(jax.random.PRNGKey(0), 5)  # scaffolding: five draws
calls = 0  # scaffolding
for key in keys:  # scaffolding
    num_iters = jax.random.randint(key, (), 1, 10)
    do_stuff(0, num_iters)
    calls += 1  # scaffolding
_report({"jit(do_stuff)"}, calls)  # scaffolding
