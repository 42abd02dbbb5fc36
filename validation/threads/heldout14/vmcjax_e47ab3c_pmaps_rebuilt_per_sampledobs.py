# source: https://github.com/markusschmitt/vmc_jax/commit/e47ab3cce5d47deccdc5d80adb04439d1b645d2e
# expect: jit-in-loop-or-body at line 79
# runtime: COMPILES 15 CALLS 3
# why: The device-change guard never trips off: mpi_wrapper's jit_my_stuff stores pmapDevices in its own module global while pmap_devices_updated reads global_defs.pmapDevices (still None), so every global_sum call and every new SampledObs rebuilds its pmap-ed lambdas, and each VMC step recompiles all of them.

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
import collections
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class global_defs:  # scaffolding: the jVMC.global_defs module namespace
    myDevice = jax.devices()[0]
    myPmapDevices = jax.devices()  # [myDevice]
    myDeviceCount = len(myPmapDevices)
    pmap_for_my_devices = partial(jax.pmap, devices=myPmapDevices)

    pmapDevices = None

    @staticmethod
    def pmap_devices_updated():
        if collections.Counter(global_defs.pmapDevices) == collections.Counter(global_defs.myPmapDevices):
            return False
        return True


pmap_for_my_devices = global_defs.pmap_for_my_devices

# --- jVMC/mpi_wrapper.py (single MPI process) ---
_sum_up_pmapd = None
_sum_sq_pmapd = None
mean_helper = None
cov_helper = None


def _cov_helper(data, p):
    return jnp.expand_dims(
        jnp.matmul(jnp.conj(jnp.transpose(data)), jnp.multiply(p[:, None], data)),
        axis=0
    )


def jit_my_stuff():
    # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
    # at all times.

    global _sum_up_pmapd
    global _sum_sq_pmapd
    global mean_helper
    global cov_helper
    global pmapDevices

    if global_defs.pmap_devices_updated():
        _sum_up_pmapd = global_defs.pmap_for_my_devices(lambda x: jax.lax.psum(jnp.sum(x, axis=0), 'i'), axis_name='i')
        _sum_sq_pmapd = global_defs.pmap_for_my_devices(lambda data, mean, p: jnp.einsum('ij, ij, i -> j', jnp.conj(data - mean[None, ...]), (data - mean[None, ...]), p), in_axes=(0, None, 0))
        mean_helper = global_defs.pmap_for_my_devices(lambda data, p: jnp.expand_dims(jnp.dot(p, data), axis=0), in_axes=(0, 0))
        cov_helper = global_defs.pmap_for_my_devices(_cov_helper, in_axes=(0, 0))

        pmapDevices = global_defs.myPmapDevices


def global_sum(data):
    jit_my_stuff()

    data.block_until_ready()

    # Compute sum locally
    localSum = np.array(_sum_up_pmapd(data)[0])

    # Allocate memory for result
    res = np.empty_like(localSum, dtype=localSum.dtype)

    # Global sum
    res[...] = localSum  # scaffolding: comm.Allreduce(localSum, res, op=MPI.SUM) with one process

    return jax.device_put(res, global_defs.myDevice)


class mpi:  # scaffolding: `import jVMC.mpi_wrapper as mpi`
    global_sum = staticmethod(global_sum)


# --- jVMC/stats.py ---
class SampledObs():
    """This class implements the computation of statistics from Monte Carlo or exact samples."""

    def __init__(self, observations=None, weights=None):
        self.jit_my_stuff()

        if (observations is not None) and (weights is not None):
            if len(observations.shape) == 2:
                observations = observations[...,None]

            self._weights = weights
            self._mean = mpi.global_sum( self._mean_helper(observations,self._weights)[None,...] )
            self._data = self._data_prep(observations, self._weights, self._mean)
        else:
            self._weights = weights
            self._data = observations
            self._mean = None

    def mean(self):
        """Returns the mean.
        """

        return self._mean

    def covar(self, other=None):
        self.jit_my_stuff()

        if other is None:
            other = self

        return mpi.global_sum( self._covar_helper(self._data, other._data)[None,...] )

    def jit_my_stuff(self):
        # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
        # at all times.

        if global_defs.pmap_devices_updated():
            self._mean_helper = pmap_for_my_devices(lambda data, w: jnp.tensordot(w, data, axes=(0,0)), in_axes=(0, 0))
            self._data_prep = pmap_for_my_devices(lambda data, w, mean: jax.vmap(lambda d, w, m: jnp.sqrt(w) * (d - m), in_axes=(0,0,None))(data, w, mean), in_axes=(0, 0, None))
            self._covar_helper = pmap_for_my_devices(
                                    lambda data1, data2:
                                        jnp.tensordot(
                                            jnp.conj(data1),
                                            data2, axes=(0,0)),
                                    in_axes=(0, 0)
                                    )


# scaffolding: three VMC steps, each estimating the energy and its covariance from 16 samples
calls = 0
key = jax.random.PRNGKey(0)
for step in range(3):
    key, k = jax.random.split(key)
    Eloc = jax.random.normal(k, (global_defs.myDeviceCount, 16))
    p = jnp.ones((global_defs.myDeviceCount, 16)) / 16
    Eobs = SampledObs(Eloc, p)
    E = Eobs.mean()
    varE = Eobs.covar()
    calls += 1
_report({"jit(_fun)"}, calls)  # pmap compiles are reported as jit(_fun) in this JAX
