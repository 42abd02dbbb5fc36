# source: https://openillumi.com/en/en-jax-jit-recompile-dynamic-shape-fix
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the page's workaround pads every input along the varying axis to one maximum length before the call, so all three calls share one shape and f compiles once.

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
import jax.numpy as jnp  # scaffolding

MAX_ROWS = 1125  # scaffolding: the largest leading length seen


@jax.jit
def f(x):
    print('recompiling')
    return (x + 10) * 100


def pad_rows(x):
    return jnp.pad(x, ((0, MAX_ROWS - x.shape[0]), (0, 0), (0, 0)))


a = f(pad_rows(jax.numpy.arange(3000).reshape((-1, 2, 2))).block_until_ready())[:750]
b = f(pad_rows(jax.numpy.arange(3000).reshape((-1, 2, 2))).block_until_ready())[:750]
c = f(pad_rows(jax.numpy.arange(4500).reshape((-1, 2, 2))).block_until_ready())[:1125]
_report({"jit(f)"}, 3)  # scaffolding
