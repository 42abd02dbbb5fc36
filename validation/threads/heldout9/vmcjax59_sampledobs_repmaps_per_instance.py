# source: https://github.com/markusschmitt/vmc_jax/issues/59
# expect: jit-in-loop-or-body at line 75
# runtime: COMPILES 6 CALLS 6
# why: SampledObs.__init__ calls self.jit_my_stuff(), which builds new pmap-wrapped lambdas whenever pmap_devices_updated() is true; the module-level pmapDevices is never assigned, so that check is always true and every new SampledObs (one per TDVP step) pmaps fresh lambdas, which compile again each time (3 objects, 3 compiles of each helper).

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

pmapDevices = None
def pmap_devices_updated():
    if collections.Counter(pmapDevices) == collections.Counter(myPmapDevices):
        return False
    return True


class mpi:  # scaffolding: stand-in for jVMC.mpi_wrapper (single process)
    @staticmethod
    def global_sum(x):  # scaffolding
        return x.sum(axis=0)  # scaffolding


class SampledObs():

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

    def jit_my_stuff(self):
        # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
        # at all times.

        if pmap_devices_updated():
            self._mean_helper = pmap_for_my_devices(lambda data, w: jnp.tensordot(w, data, axes=(0,0)), in_axes=(0, 0))
            self._data_prep = pmap_for_my_devices(lambda data, w, mean: jax.vmap(lambda d, w, m: jnp.sqrt(w) * (d - m), in_axes=(0,0,None))(data, w, mean), in_axes=(0, 0, None))


obs = jnp.ones((1, 8, 3))  # scaffolding: (devices, samples, observables)
w = jnp.full((1, 8), 1.0 / 8)  # scaffolding
for step in range(3):  # scaffolding: one SampledObs per TDVP step
    o = SampledObs(obs * step, w)  # scaffolding
_report({"jit(_fun)"}, 6)  # scaffolding: two pmapped helpers called per object (pmap compiles as jit(_fun) on jax 0.10.2)
