# source: https://github.com/hyungkwonko/jax-tutorial/blob/dffae7058a9d8540025ecd03afa0b411d920ac4a/e4_vmap.py
# expect: none
# runtime: COMPILES 1 CALLS 100
# why: the jitted vmap function is called with its default batched_x argument 100 times by timeit; the default array is passed the same way each call, so it compiles once.
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

import jax.numpy as jnp
from jax import jit, vmap, random
from timeit import timeit

N = [100]
KEY = random.PRNGKey(0)
MAT = random.normal(KEY, (150, 100))
BATCHED_X = random.normal(KEY, (10, 100))

def apply_matrix(v, mat=MAT):
	return jnp.dot(mat, v)

def naively_batched_apply_matrix(batched_x=BATCHED_X):
	return jnp.stack([apply_matrix(v) for v in batched_x])

@jit
def vmap_batched_apply_matrix(batched_x=BATCHED_X):
	return vmap(apply_matrix)(batched_x)  # do not need to care about batch dim


if __name__ == '__main__':
	for n in N:
		print(f"Naively batched... time taken for {n} times: {timeit(naively_batched_apply_matrix, number=n)} sec...")
		print(f"Auto-vectorized with vmap... time taken for {n} times: {timeit(vmap_batched_apply_matrix, number=n)} sec...")
	_report({"jit(vmap_batched_apply_matrix)"}, 100)  # scaffolding
