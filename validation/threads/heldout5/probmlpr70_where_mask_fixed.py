# source: https://github.com/probml/probml-notebooks/pull/70
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the PR's replacement of the boolean-index update by jnp.where(mask, X, value) keeps every shape fixed, so the jitted masked softmax compiles and runs.
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
import jax.numpy as jnp


def sequence_mask(X, valid_len, value=0):  # scaffolding: d2l's sequence_mask, ported the way the PR describes
    maxlen = X.shape[1]
    mask = jnp.arange((maxlen), dtype=jnp.float32)[None, :] < valid_len[:, None]
    return jnp.where(mask, X, value)


@jax.jit  # scaffolding: the notebook jits the attention forward pass
def masked_softmax(X, valid_lens):
    shape = X.shape
    valid_lens = jnp.repeat(valid_lens, shape[1])
    X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return jax.nn.softmax(X.reshape(shape), axis=-1)


print(masked_softmax(jax.random.uniform(jax.random.PRNGKey(0), (2, 2, 4)), jnp.array([2, 3])))  # scaffolding
_report({"jit(masked_softmax)"}, 1)  # scaffolding
