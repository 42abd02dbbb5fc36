# source: https://github.com/jax-ml/jax/issues/6922
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: With jax_disable_jit set, jax.random.choice with a plain int population now runs eagerly without the TypeError reported, and no jitted user function is involved.

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
jax.config.update('jax_disable_jit', True)
print(jax.random.choice(jax.random.PRNGKey(1234), 8, shape=(100,))[:5])  # scaffolding: print
_report(set(), 1)  # scaffolding
