# source: https://github.com/jax-ml/jax/issues/15412
# expect: shape-churn at line 57
# runtime: COMPILES 3 CALLS 4
# why: compute is called in a loop with Lmat and Cs whose leading size follows shape_array, so every new size traces and compiles again; only a size seen before (the repeated 92) hits the cache.
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
from time import perf_counter

jax.config.update("jax_enable_x64", True)


seed = 170
key = jax.random.PRNGKey(seed)
Bmat = jax.random.uniform(key, shape=(166, 1494),minval=0., maxval =1. )  # scaffolding: sizes / 10
Cd_inv =jax.random.uniform(key, shape=(166, 166),minval=0., maxval =1. )  # scaffolding: sizes / 10
dvec = jax.random.uniform(key, shape=(166,),minval=0., maxval =2. )  # scaffolding: sizes / 10

cpu = jax.devices('cpu')[0]
shape_array = jnp.asarray([94, 92, 97, 92])  # scaffolding: the thread's [940, 929, 971, ...] / 10, with a repeat


@jax.jit
def compute(Lmat, Cs):  # scaffolding: stand-in for the thread's jitted function
    G = Lmat @ Bmat.T @ Cd_inv
    return G @ dvec + jnp.trace(Cs)


calls = 0
for n in shape_array:
    n = int(n)
    Lmat = jax.random.uniform(key, shape=(n, 1494))
    Cs = jax.random.uniform(key, shape=(n, n))
    t0 = perf_counter()
    out = compute(Lmat, Cs).block_until_ready()
    calls += 1
    print(n, perf_counter() - t0)
_report({"jit(compute)"}, calls)
