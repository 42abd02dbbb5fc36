# source: https://github.com/tencent-quantum-lab/tensorcircuit/commit/7593ca5e72a79bd355725b93dfc8ab553dc9dd73
# expect: stale-closure at line 72
# runtime: COMPILES 1 CALLS 6
# why: f1 stores its traced key in the backend's random state (self.g) inside jit, and implicit_randu discards any traced state and re-seeds from numpy at trace time, so the Monte Carlo noise draws are baked into the compiled f1 and all 6 keys give the same trajectory (1 distinct value, 1 compile for 6 calls).

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


import types
from functools import partial
from typing import Any, Optional, Sequence, Tuple, Union

import jax as libjax
import jax.numpy as jnp
import numpy as np

Tensor = Any  # scaffolding
PRNGKeyArray = Any  # scaffolding


# --- tensorcircuit/backends/jax_backend.py: JaxBackend random-state methods (before the commit) ---
class JaxBackend:
    def jit(self, f, static_argnums=None, jit_compile=None):  # scaffolding: tc.backend.jit for jax
        return libjax.jit(f, static_argnums=static_argnums)  # scaffolding

    def real(self, a: Tensor) -> Tensor:  # scaffolding
        return jnp.real(a)  # scaffolding

    def set_random_state(
        self, seed: Optional[Union[int, PRNGKeyArray]] = None, get_only: bool = False
    ) -> Any:
        if seed is None:
            seed = np.random.randint(42)
        if isinstance(seed, int):
            g = libjax.random.PRNGKey(seed)
        else:
            g = seed
        if get_only is False:
            self.g = g
        return g

    def random_split(self, key: Any) -> Tuple[Any, Any]:
        return libjax.random.split(key)  # type: ignore

    def implicit_randu(
        self,
        shape: Union[int, Sequence[int]] = 1,
        low: float = 0,
        high: float = 1,
        dtype: str = "32",
    ) -> Tensor:
        g = getattr(self, "g", None)
        if g is None or getattr(g, "_trace", None) is not None:
            self.set_random_state()
            g = getattr(self, "g", None)
        key, subkey = libjax.random.split(g)
        r = self.stateful_randu(subkey, shape, low, high, dtype)
        self.g = key
        return r

    def stateful_randu(
        self,
        g: PRNGKeyArray,
        shape: Union[int, Sequence[int]] = 1,
        low: float = 0,
        high: float = 1,
        dtype: str = "32",
    ) -> Tensor:
        if isinstance(dtype, str):
            dtype = dtype[-2:]
        if isinstance(shape, int):
            shape = (shape,)
        if dtype == "32":
            dtyper = jnp.float32
        elif dtype == "64":
            dtyper = jnp.float64
        elif not isinstance(dtype, str):
            dtyper = dtype
        r = libjax.random.uniform(g, shape=shape, dtype=dtyper, minval=low, maxval=high)
        return r


# --- stand-in for tc.Circuit: a small state-vector simulator with Monte Carlo Kraus channels --- scaffolding
class Circuit:  # scaffolding
    def __init__(self, n, inputs=None):  # scaffolding
        self.n = n  # scaffolding
        s = jnp.zeros((2,) * n, jnp.complex64).at[(0,) * n].set(1.0)  # scaffolding
        self.s = s if inputs is None else inputs  # scaffolding

    def _apply1(self, u, i):  # scaffolding
        self.s = jnp.moveaxis(jnp.tensordot(u, self.s, axes=[[1], [i]]), 0, i)  # scaffolding

    def H(self, i):  # scaffolding
        self._apply1(jnp.array([[1, 1], [1, -1]], jnp.complex64) / np.sqrt(2), i)  # scaffolding

    def rx(self, i, theta):  # scaffolding
        c, s = jnp.cos(theta / 2), -1j * jnp.sin(theta / 2)  # scaffolding
        self._apply1(jnp.array([[c, s], [s, c]], jnp.complex64), i)  # scaffolding

    def cnot(self, i, j):  # scaffolding
        u = jnp.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], jnp.complex64).reshape(2, 2, 2, 2)  # scaffolding
        self.s = jnp.moveaxis(jnp.tensordot(u, self.s, axes=[[2, 3], [i, j]]), [0, 1], [i, j])  # scaffolding

    def apply_general_kraus(self, kraus, i):  # scaffolding: Monte Carlo trajectory, branch drawn with implicit_randu
        outs = []  # scaffolding
        for k in kraus:  # scaffolding
            self_s = self.s  # scaffolding
            self._apply1(k, i)  # scaffolding
            outs.append(self.s)  # scaffolding
            self.s = self_s  # scaffolding
        p0 = jnp.sum(jnp.abs(outs[0]) ** 2)  # scaffolding
        status = tc.backend.implicit_randu()[0]  # scaffolding
        pick = jnp.where(status < p0, outs[0] / jnp.sqrt(p0), outs[1] / jnp.sqrt(1 - p0))  # scaffolding
        self.s = pick  # scaffolding

    def expectation(self, op_and_site):  # scaffolding
        op, (i,) = op_and_site  # scaffolding
        s2 = jnp.moveaxis(jnp.tensordot(op, self.s, axes=[[1], [i]]), 0, i)  # scaffolding
        return jnp.vdot(self.s, s2)  # scaffolding


def phasedampingchannel(gamma: float):  # scaffolding: tensorcircuit/channels.py, as arrays
    g00 = np.array([[1, 0], [0, 0]], dtype=np.complex64)  # scaffolding
    g11 = np.array([[0, 0], [0, 1]], dtype=np.complex64)  # scaffolding
    return [jnp.asarray(g00 + np.sqrt(1 - gamma) * g11), jnp.asarray(np.sqrt(gamma) * g11)]  # scaffolding


tc = types.SimpleNamespace(backend=JaxBackend(), Circuit=Circuit,  # scaffolding
                           channels=types.SimpleNamespace(phasedampingchannel=phasedampingchannel),  # scaffolding
                           gates=types.SimpleNamespace(z=lambda: jnp.array([[1, 0], [0, -1]], jnp.complex64)))  # scaffolding
np.random.seed(0)  # scaffolding: set_random_state() draws its seed from numpy


# --- examples/mcnoise_boost.py (before the commit) ---
n = 3  # 10
nlayer = 2  # 4


@partial(tc.backend.jit, static_argnums=(2, 3))
def f1(key, param, n, nlayer):
    if key is not None:
        tc.backend.set_random_state(key)
    c = tc.Circuit(n)
    for i in range(n):
        c.H(i)
    for j in range(nlayer):
        for i in range(n - 1):
            c.cnot(i, i + 1)
            c.apply_general_kraus(tc.channels.phasedampingchannel(0.15), i)
            c.apply_general_kraus(tc.channels.phasedampingchannel(0.15), i + 1)
        for i in range(n):
            c.rx(i, theta=param[j, i])
    return tc.backend.real(c.expectation((tc.gates.z(), [int(n / 2)])))


param = jnp.ones([nlayer, n])  # scaffolding: tc.backend.ones
vals = [float(f1(libjax.random.PRNGKey(seed), param, n, nlayer)) for seed in range(6)]  # scaffolding: 6 trajectories
print("trajectories", np.round(vals, 4), "distinct:", len(set(vals)))  # scaffolding: every key gives the same trajectory
_report({"jit(f1)"}, 6)  # scaffolding
