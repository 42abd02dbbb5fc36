# source: https://github.com/markusschmitt/vmc_jax/issues/59
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: the fix commit makes jit_my_stuff a module-level function that builds the pmapped helpers into module globals only when the device list has changed, and records the devices it built them for; later SampledObs objects reuse the same helpers, so each compiles once.

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

myPmapDevices = jax.devices()  # [myDevice]
myDeviceCount = len(myPmapDevices)
pmap_for_my_devices = partial(jax.pmap, devices=myPmapDevices)

def pmap_devices_updated(pmapDevices):
    if collections.Counter(pmapDevices) == collections.Counter(myPmapDevices):
        return False
    return True


class mpi:  # scaffolding: stand-in for jVMC.mpi_wrapper (single process)
    @staticmethod
    def global_sum(x):  # scaffolding
        return x.sum(axis=0)  # scaffolding


_mean_helper = None
_data_prep = None

statsPmapDevices = None

def jit_my_stuff():
    # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
    # at all times.

    global _mean_helper
    global _data_prep

    global statsPmapDevices

    if pmap_devices_updated(statsPmapDevices):

        statsPmapDevices = myPmapDevices

        _mean_helper = pmap_for_my_devices(lambda data, w: jnp.tensordot(w, data, axes=(0,0)), in_axes=(0, 0))
        _data_prep = pmap_for_my_devices(lambda data, w, mean: jax.vmap(lambda d, w, m: jnp.sqrt(w) * (d - m), in_axes=(0,0,None))(data, w, mean), in_axes=(0, 0, None))


class SampledObs():

    def __init__(self, observations=None, weights=None):

        jit_my_stuff()

        if (observations is not None) and (weights is not None):
            if len(observations.shape) == 2:
                observations = observations[...,None]

            self._weights = weights
            self._mean = mpi.global_sum( _mean_helper(observations,self._weights)[None,...] )
            self._data = _data_prep(observations, self._weights, self._mean)
        else:
            self._weights = weights
            self._data = observations
            self._mean = None


obs = jnp.ones((1, 8, 3))  # scaffolding: (devices, samples, observables)
w = jnp.full((1, 8), 1.0 / 8)  # scaffolding
for step in range(3):  # scaffolding: one SampledObs per TDVP step
    o = SampledObs(obs * step, w)  # scaffolding
_report({"jit(_fun)"}, 6)  # scaffolding: two pmapped helpers called per object (pmap compiles as jit(_fun) on jax 0.10.2)
