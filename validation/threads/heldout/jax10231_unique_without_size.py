# source: https://github.com/jax-ml/jax/issues/10231
# expect: trace-time-error at line 34
# runtime: ERROR ConcretizationTypeError
# why: jnp.unique without size= has a data-dependent output shape; on a traced age_idx it raises ConcretizationTypeError (the reporter saw NonConcreteBooleanIndexError in 2022; jakevdp: working as intended).

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
import jax.numpy as jnp

@jax.jit  # scaffolding: traced as in the reporter's model
def predict(age_idx):  # scaffolding
    ages_pred = jnp.unique(age_idx)
    return ages_pred  # scaffolding

try:  # scaffolding
    predict(jnp.array([24, 25, 26, 6, 14, 10, 24], dtype=jnp.int32))
    _report({"jit(predict)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
