# source: https://github.com/probml/probml-notebooks/pull/70
# expect: trace-time-error at line 34
# runtime: ERROR NonConcreteBooleanIndexError
# why: the JAX port of d2l's sequence_mask sets the padded entries with X.at[~mask].set(value); under jit the mask is traced, and boolean indices must be concrete, so the jitted masked softmax raises NonConcreteBooleanIndexError (the PR: 'x.at[x < 0].set(0) does not work under JIT compilation').
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
    X = X.at[~mask].set(value)
    return X


@jax.jit  # scaffolding: the notebook jits the attention forward pass
def masked_softmax(X, valid_lens):
    shape = X.shape
    valid_lens = jnp.repeat(valid_lens, shape[1])
    X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return jax.nn.softmax(X.reshape(shape), axis=-1)


try:  # scaffolding
    masked_softmax(jax.random.uniform(jax.random.PRNGKey(0), (2, 2, 4)), jnp.array([2, 3]))  # scaffolding
    _report({"jit(masked_softmax)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
