# source: https://github.com/jax-ml/jax/issues/4143
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: jit(vmap(f)) and vmap(jit(f)) are each built once and reused; each compiles once for repeated calls.

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
import jax.numpy as jnp
from jax import jit, vmap, random, make_jaxpr

key = random.PRNGKey(1701)
M = random.normal(key, (150, 100))
x = random.normal(key, (10, 100))

def apply_M(v):
  return jnp.dot(M, v)

f1 = jit(vmap(apply_M))
f2 = vmap(jit(apply_M))

for _ in range(3):  # scaffolding: %timeit
  f1(x).block_until_ready()
  f2(x).block_until_ready()

print(make_jaxpr(f1)(x))
print(make_jaxpr(f2)(x))
_report({"jit(apply_M)"}, 6)
