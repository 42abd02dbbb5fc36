# source: https://github.com/jax-ml/jax/issues/8572
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: patrick-kidger's pattern from the thread: compute the condition with jnp and raise only when it is not a Tracer, so under jit the check is skipped and check_points compiles once for 2 calls.

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


def cond_fn(p):  # scaffolding
    return jnp.any(jnp.diff(p) <= 0.)  # scaffolding: True when the points are not ascending


@jax.jit  # scaffolding
def check_points(p):  # scaffolding
    cond = cond_fn(p)  # unvmap_all(cond_fn(p)) in the comment
    if not isinstance(cond, jax.core.Tracer) and cond:
        raise ValueError("the points must be strictly ascending")  # scaffolding
    return p  # scaffolding


check_points(jnp.arange(4.0))  # scaffolding
check_points(jnp.arange(4.0) * 2)  # scaffolding
_report({"jit(check_points)"}, 2)  # scaffolding
