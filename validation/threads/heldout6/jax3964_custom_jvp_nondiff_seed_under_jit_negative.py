# source: https://github.com/jax-ml/jax/issues/3964
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: a traced PRNG key in a custom_jvp nondiff_argnums slot under vmap and under jit (brianwa84's jit variant) no longer raises on 0.10.2 when nothing is differentiated: the jitted lambda compiles once for 2 calls.

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
import jax, jax.numpy as jnp, functools

@functools.partial(jax.custom_jvp, nondiff_argnums=(0, 2))
def sample(shape, param, seed):
  return jax.random.gamma(key=seed, shape=shape, a=param)

@sample.defjvp
def sample_jvp(shape, seed, primals, tangents):
  param, = primals
  dparam, = tangents
  dparam = jnp.broadcast_to(dparam, shape)
  samples = sample(shape, param, seed)
  return samples, samples * dparam  # dummy jvp for proof of concept

jax.vmap(lambda seed: sample((2,3), 1., seed))(
    jax.random.split(jax.random.PRNGKey(1), 10))
jitted = jax.jit(lambda seed: sample((2,3), 1., seed))  # scaffolding: brianwa84's jit variant, built once
print(jitted(jax.random.PRNGKey(1)).shape)
print(jitted(jax.random.PRNGKey(2)).shape)  # scaffolding: a second call
_report({"jit(<lambda>)"}, 2)  # scaffolding
