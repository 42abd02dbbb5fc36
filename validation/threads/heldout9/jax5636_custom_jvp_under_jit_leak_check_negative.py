# source: https://github.com/jax-ml/jax/issues/5636
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: a jitted function calling a custom_jvp function, run with the tracer-leak checker on, raised a spurious 'Leaked trace' in 2021; on jax 0.10.2 it runs cleanly and s compiles once, since nothing is stored outside the trace.

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
jax.config.update("jax_check_tracer_leaks", True)  # scaffolding: the report exports JAX_CHECK_TRACER_LEAKS=1

@jax.custom_jvp
def t(y):
    return y

def t_jvp(primals, tangents):
    assert False

t.defjvp(t_jvp)

@jax.jit
def s(y):
    return t(y)

s(0.0)
s(1.0)  # scaffolding
_report({"jit(s)"}, 2)  # scaffolding
