# source: https://github.com/DifferentiableUniverseInitiative/jax_cosmo/issues/113
# expect: trace-time-error at line 79
# runtime: ERROR AttributeError
# why: tree_unflatten does children = list(children[8:]).reverse(), which is None, so when jit rebuilds a Cosmology that has gamma from its traced leaves, children.pop() raises AttributeError during tracing.
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

import jax
import jax.numpy as np
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Cosmology:
    def __init__(self, Omega_c, Omega_b, h, n_s, sigma8, Omega_k, w0, wa, gamma=None):
        # Store primary parameters
        self._Omega_c = Omega_c
        self._Omega_b = Omega_b
        self._h = h
        self._n_s = n_s
        self._sigma8 = sigma8
        self._Omega_k = Omega_k
        self._w0 = w0
        self._wa = wa

        self._flags = {}

        # Secondary optional parameters
        self._gamma = gamma
        self._flags["gamma_growth"] = gamma is not None

        # Create a workspace where functions can store some precomputed
        # results
        self._workspace = {}

    # Operations for flattening/unflattening representation
    def tree_flatten(self):
        params = (
            self._Omega_c,
            self._Omega_b,
            self._h,
            self._n_s,
            self._sigma8,
            self._Omega_k,
            self._w0,
            self._wa,
        )

        if self._flags["gamma_growth"]:
            params += (self._gamma,)

        return (
            params,
            self._flags,
        )

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        # Retrieve base parameters
        Omega_c, Omega_b, h, n_s, sigma8, Omega_k, w0, wa = children[:8]
        children = list(children[8:]).reverse()

        # We extract the remaining parameters in reverse order from how they
        # were inserted
        if aux_data["gamma_growth"]:
            gamma = children.pop()
        else:
            gamma = None

        return cls(
            Omega_c=Omega_c,
            Omega_b=Omega_b,
            h=h,
            n_s=n_s,
            sigma8=sigma8,
            Omega_k=Omega_k,
            w0=w0,
            wa=wa,
            gamma=gamma,
        )

    @property
    def Omega_m(self):
        return self._Omega_b + self._Omega_c

    @property
    def gamma(self):
        return self._gamma


@jax.jit
def growth_rate(cosmo, a):  # scaffolding: stands in for the jitted angular_cl / growth computations
    omega_m_a = cosmo.Omega_m / (cosmo.Omega_m + (1.0 - cosmo.Omega_m) * a ** 3)
    return omega_m_a ** cosmo.gamma


cosmo = Cosmology(Omega_c=0.2545, Omega_b=0.0485, h=0.682, n_s=0.971, sigma8=0.801,
                  Omega_k=0.0, w0=-1.0, wa=0.0, gamma=0.55)  # scaffolding: a cosmology with the growth index gamma
a = np.linspace(0.1, 1.0, 8)  # scaffolding
try:  # scaffolding
    growth_rate(cosmo, a)
    growth_rate(cosmo, a)
    _report({"jit(growth_rate)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
