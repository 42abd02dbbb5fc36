# source: https://github.com/DifferentiableUniverseInitiative/jax_cosmo/pull/84
# expect: trace-time-error at line 116
# runtime: ERROR TracerBoolConversionError
# why: Cosmology.k classifies the curvature with Python `if self.Omega > 1.0` and transverse_comoving_distance branches on `cosmo.k < 0`; when the Cosmology pytree is an argument of jax.jit its parameters are tracers, so these comparisons raise TracerBoolConversionError.
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
import types  # scaffolding
import jax
import jax.numpy as np
from jax.tree_util import register_pytree_node_class

const = types.SimpleNamespace(rh=2997.92458)  # scaffolding: jax_cosmo.constants.rh


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

    # Cosmological parameters, base and derived
    @property
    def Omega(self):
        return 1.0 - self._Omega_k

    @property
    def Omega_k(self):
        return self._Omega_k

    @property
    def k(self):
        if self.Omega > 1.0:  # Closed universe
            k = 1
        elif self.Omega == 1.0:  # Flat universe
            k = 0
        elif self.Omega < 1.0:  # Open Universe
            k = -1
        return k

    @property
    def sqrtk(self):
        return np.sqrt(np.abs(self._Omega_k))


def radial_comoving_distance(cosmo, a):  # scaffolding: stand-in for the ODE-based distance
    return const.rh * (1.0 / a - 1.0) * 0.5  # scaffolding


def transverse_comoving_distance(cosmo, a):
    chi = radial_comoving_distance(cosmo, a)
    if cosmo.k < 0:  # Open universe
        return const.rh / cosmo.sqrtk * np.sinh(cosmo.sqrtk * chi / const.rh)
    elif cosmo.k > 0:  # Closed Universe
        return const.rh / cosmo.sqrtk * np.sin(cosmo.sqrtk * chi / const.rh)
    else:
        return chi


cosmo = Cosmology(Omega_c=0.25, Omega_b=0.05, h=0.7, n_s=0.96, sigma8=0.8, Omega_k=0.01, w0=-1.0, wa=0.0)  # scaffolding
a = np.linspace(0.5, 1.0, 4)  # scaffolding
print(transverse_comoving_distance(cosmo, a))  # scaffolding: works without jit
try:  # scaffolding
    jax.jit(transverse_comoving_distance)(cosmo, a)  # scaffolding
    _report({"jit(transverse_comoving_distance)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
