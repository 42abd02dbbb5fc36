# source: https://github.com/CoastEgo/microlux/commit/4f3ea46d1925766197c4f9d2237f68a692c1ad78
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: find_nearest_sort (jitted) defines @jax.jit functions in its body and passes them to lax.cond; the body only runs while the outer jit traces, so the inner jits are inlined and the outer compiles once for four calls with equal shapes.

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
from jax import numpy as jnp, random, jit
from jax import lax
import jax
from scipy.optimize import linear_sum_assignment
import time
jax.config.update("jax_platform_name", "cpu")
jax.config.update("jax_enable_x64", True)
@jax.jit
def find_nearest_sort(array1, parity1, array2, parity2):
    # sort the image using a navie method, and don't promise the minimum distance,
    # but may be sufficient for binary lens. VBBL use the similar method.
    # To use Jax's shard_map api to get get combination of
    # jax.jit and parallel, we can't use while loop now.
    # check here for more details: https://jax.readthedocs.io/en/latest/jep/14273-shard-map.html
    cost=jnp.abs(array2-array1[:,None])+jnp.abs(parity2-parity1[:,None])*5
    cost=jnp.where(jnp.isnan(cost),100,cost)
    idx=jnp.argmin(cost,axis=1)
    @jax.jit
    def nan_in_array1(carry):
        array1,array2,cost,idx=carry
        idx=jnp.where(~jnp.isnan(array1),idx,-1)
        diff_idx=jnp.setdiff1d(jnp.arange(array1.shape[0]),idx,size=2)
        used=0
        for i in range(array1.shape[0]):
            cond=jnp.isnan(array1[i])
            idx_i=jnp.where(cond,diff_idx[used],idx[i])
            idx=idx.at[i].set(idx_i)
            used=jnp.where(cond,used+1,used)
        return (array1,array2,cost,idx)
    def nan_not_in_array1(carry):
        @jax.jit
        def nan_in_array2(carry):
            array1,array2,cost,idx=carry
            idx=jnp.argmin(cost,axis=0)
            idx=jnp.where(~jnp.isnan(array1),idx,-1)
            diff_idx=jnp.setdiff1d(jnp.arange(array2.shape[0]),idx,size=2)
            used=0
            for i in range(array1.shape[0]):
                cond=jnp.isnan(array2[i])
                idx_i=jnp.where(cond,diff_idx[used],idx[i])
                idx=idx.at[i].set(idx_i)
                used=jnp.where(cond,used+1,used)
            ## rearrange the idx
            row_resort=jnp.argsort(idx)
            col_idx=jnp.arange(array1.shape[0])
            return (array1,array2,cost,col_idx[row_resort])
        carry=lax.cond(jnp.isnan(array2).sum()==2,nan_in_array2,lambda x:x,(array1,array2,cost,idx))
        return carry
    carry=lax.cond(jnp.isnan(array1).sum()==2,nan_in_array1,nan_not_in_array1,(array1,array2,cost,idx))
    array1,array2,cost,idx=carry
    return idx


# scaffolding: four calls with image positions of a binary lens (5 roots, some missing as NaN)
nan = jnp.nan
calls = [
    (jnp.array([1+1j, 2+0j, nan, -1j, nan]), jnp.array([1., -1., 0., 1., 0.]),
     jnp.array([1.1+1j, 2+0.1j, 0.5j, -1.1j, 3.]), jnp.array([1., -1., 1., 1., -1.])),
    (jnp.array([1+1j, 2+0j, 0.5j, -1j, 3.]), jnp.array([1., -1., 1., 1., -1.]),
     jnp.array([1.1+1j, nan, 0.5j, -1.1j, nan]), jnp.array([1., 0., 1., 1., 0.])),
    (jnp.array([1+1j, 2+0j, 0.5j, -1j, 3.]), jnp.array([1., -1., 1., 1., -1.]),
     jnp.array([3.1+0j, 2+0.1j, 0.4j, -1.1j, 1+1.1j]), jnp.array([-1., -1., 1., 1., 1.])),
    (jnp.array([nan, 2+0j, 0.5j, nan, 3.]), jnp.array([0., -1., 1., 0., -1.]),
     jnp.array([1.1+1j, 2+0.1j, 0.5j, -1.1j, 3.]), jnp.array([1., -1., 1., 1., -1.])),
]  # scaffolding
for args in calls:  # scaffolding
    idx = find_nearest_sort(*args)
_report({"jit(find_nearest_sort)", "jit(nan_in_array1)", "jit(nan_in_array2)"}, len(calls))
