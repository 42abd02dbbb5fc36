# source: https://github.com/google-deepmind/mctx/issues/97
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jnp.finfo(probs) is called on a traced array inside the jitted policy; in 2024 it hashed the tracer and warned, but on jax 0.10.2 finfo reads the dtype without hashing, so the function traces cleanly and compiles once.

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
import jax.numpy as jnp


def _get_logits_from_probs(probs):
  tiny = jnp.finfo(probs).tiny
  return jnp.log(jnp.maximum(probs, tiny))


f = jax.jit(_get_logits_from_probs)  # scaffolding
f(jnp.array([0.2, 0.3, 0.5]))  # scaffolding
f(jnp.array([0.0, 0.5, 0.5]))  # scaffolding
_report({"jit(_get_logits_from_probs)"}, 2)  # scaffolding
