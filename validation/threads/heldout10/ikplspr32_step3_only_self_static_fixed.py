# source: https://github.com/sm00thix/ikpls/pull/32
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with the PR's static_argnums=(0) only self is static in _step_3; the traced component index i flows into the fori_loop bound as an ordinary traced value, so no tracer is hashed and jit(_main_loop_body) compiles once for the three components.

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
from functools import partial
from typing import Tuple

import jax
import jax.numpy as jnp


class PLSBase:
    def __init__(self, verbose: bool = False, name: str = "Improved Kernel PLS"):  # scaffolding
        self.verbose = verbose  # scaffolding
        self.name = name  # scaffolding

    @partial(jax.jit, static_argnums=(0))
    def _step_3(self, i: int, w: jax.Array, P: jax.Array, R: jax.Array) -> jax.Array:
        """
        The third step of the PLS algorithm. Computes the orthogonal weight vectors.
        """
        if self.verbose:
            print(f"_step_3 for {self.name} will be JIT compiled...")
        r = jnp.copy(w)
        r, P, w, R = jax.lax.fori_loop(0, i, self._step_3_body, (r, P, w, R))
        return r

    @partial(jax.jit, static_argnums=0)
    def _step_3_body(
        self, j: int, carry: Tuple[jax.Array, jax.Array, jax.Array, jax.Array]
    ) -> Tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
        if self.verbose:
            print(f"_step_3_body for {self.name} will be JIT compiled...")
        r, P, w, R = carry
        r = r - P[j].reshape(-1, 1).T @ w * R[j].reshape(-1, 1)
        return r, P, w, R

    @partial(jax.jit, static_argnums=(0, 1, 5, 6, 9))
    def _main_loop_body(
        self,
        A: int,
        i: int,
        XTX: jax.Array,
        XTY: jax.Array,
        M: int,
        K: int,
        P: jax.Array,
        R: jax.Array,
        reverse_differentiable: bool,
    ):
        if self.verbose:
            print(f"_main_loop_body for {self.name} will be JIT compiled...")
        # step 2
        w = XTY[:, :1] / jnp.linalg.norm(XTY[:, :1])  # scaffolding: stands in for self._step_2(XTY, M, K)
        # step 3
        if reverse_differentiable:
            r = self._step_3(A, w, P, R)
        else:
            r = self._step_3(i, w, P, R)
        return r  # scaffolding: steps 4-5 dropped


pls = PLSBase()  # scaffolding
A, K, M = 3, 4, 2  # scaffolding
X = jnp.arange(20.0).reshape(5, K) % 7  # scaffolding
Y = jnp.arange(10.0).reshape(5, M) % 3  # scaffolding
XTX, XTY = X.T @ X, X.T @ Y  # scaffolding
P = jnp.zeros((A, K))  # scaffolding
R = jnp.zeros((A, K))  # scaffolding
try:  # scaffolding
    for i in range(A):
        r = pls._main_loop_body(A, i, XTX, XTY, M, K, P, R, False)
    _report({"jit(_main_loop_body)"}, A)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
