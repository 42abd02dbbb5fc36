# source: https://github.com/google-deepmind/chex/pull/327
# expect: trace-time-error at line 46
# runtime: ERROR TypeError
# why: a chex.dataclass flattens every field as a pytree child, so the str field name reaches jax.jit as an argument leaf and raises TypeError (not a valid JAX type), as the PR describes.

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


import chex
import jax
import jax.numpy as jnp


@chex.dataclass(frozen=True)
class Foo:
    name: str
    data: jnp.ndarray

def noise(key, foo):
    rng, key = jax.random.split(key)
    noise = jax.random.normal(rng, foo.data.shape)
    return foo.data + noise


foo = Foo(name="foo", data=jnp.zeros((3,)))  # scaffolding
try:  # scaffolding
    jax.jit(noise)(jax.random.PRNGKey(0), foo)  # scaffolding: "when I try to JIT the noise function it will crash"
    _report({"jit(noise)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
