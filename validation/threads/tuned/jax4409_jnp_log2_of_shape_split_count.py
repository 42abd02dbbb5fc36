# source: https://github.com/jax-ml/jax/issues/4409
# expect: trace-time-error at line 42
# runtime: ERROR TypeError
# why: depth is computed with jnp.log2 from a static shape, but under jit jnp ops are staged out, so num_splittings is traced and random.split(key, num_splittings) raises (mattjj: use the original numpy for trace-time values).

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
import collections  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp
from jax import random
SamplerState = collections.namedtuple('SamplerState', 'mu')  # scaffolding

@jax.jit  # scaffolding
def split_keys(sampler_state, key):  # scaffolding
    num_clusters = sampler_state.mu.shape[0]  # 2^(depth-1)
    depth = jnp.log2(num_clusters) + 1
    depth = depth.astype(jnp.int_)
    print(depth, type(depth))
    num_splittings = 2 ** (depth - 1) - 1
    keys = random.split(key, num_splittings)
    return keys  # scaffolding

try:  # scaffolding
    split_keys(SamplerState(mu=jnp.zeros((8, 2))), random.PRNGKey(0))
    _report({"jit(split_keys)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
