# source: https://github.com/EQuS/jaxquantum/commit/52c313af6e0e4fd1b8d06f3879d026d98358ac6b
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: _get_basis_z builds jit(self._compute_gkp_basis_z, static_argnames=('dim',)) afresh on every call, but the wrapped function is a staticmethod (the same function object each time) and jax caches its trace/compile per function, so 4 qubits x 2 calls compile once.

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
from typing import Tuple

from jax import jit, lax, vmap

import jax.numpy as jnp


class GKPQubit:  # scaffolding: stand-in for jaxquantum.codes.base.BosonicQubit / GKPQubit (only what _get_basis_z needs)
    def __init__(self, params):  # scaffolding
        self.params = params  # scaffolding
        self.basis_z = self._get_basis_z()  # scaffolding: the base class builds the basis on construction

    @staticmethod
    def _q_quadrature(q_points, n):
        q_points = q_points.T

        F_0_init = jnp.ones_like(q_points)
        F_1_init = jnp.sqrt(2) * q_points

        def scan_body(n, carry):
            F_0, F_1 = carry
            F_n = (jnp.sqrt(2 / n) * lax.mul(q_points, F_1) - jnp.sqrt(
                (n - 1) / n) * F_0)

            new_carry = (F_1, F_n)

            return new_carry

        initial_carry = (F_0_init, F_1_init)
        final_carry = lax.fori_loop(2, jnp.max(jnp.array([n + 1, 2])),
                                    scan_body, initial_carry)

        q_quad = lax.select(n == 0, F_0_init,
                            lax.select(n == 1, F_1_init,
                                       final_carry[1]))

        q_quad = jnp.pi ** (-0.25) * lax.mul(
            jnp.exp(-lax.pow(q_points, 2) / 2), q_quad)

        return q_quad

    @staticmethod
    def _compute_gkp_basis_z(delta, dim, mu):
        """
        Args:
            mu: state index (0 or 1)

        Returns:
            GKP basis state

        Adapted from code by Lev-Arcady Sellem <lev-arcady.sellem@inria.fr>
        """
        truncat_series = 100

        q_points = jnp.sqrt(jnp.pi) * (2 * jnp.arange(truncat_series) + mu)

        def compute_pop(n):
            quadvals = GKPQubit._q_quadrature(q_points, n)
            return jnp.exp(-(delta ** 2) * n) * (
                    2 * jnp.sum(quadvals) - (1 - mu) * quadvals[0])

        psi_even = vmap(compute_pop)(jnp.arange(0, dim, 2))

        psi = jnp.zeros(2 * psi_even.size, dtype=psi_even.dtype)

        psi = psi.at[::2].set(psi_even)

        psi = psi / jnp.linalg.norm(psi)  # scaffolding: was jqt.Qarray.create(jnp.array(psi)).unit()

        return psi

    def _get_basis_z(self) -> Tuple[jnp.ndarray, jnp.ndarray]:
        """
        Construct basis states |+-z>.
        """

        delta = self.params["delta"]
        dim = self.params["N"]
        
        jitted_compute_gkp_basis_z = jit(self._compute_gkp_basis_z, 
                                         static_argnames=("dim",))
        
        plus_z = jitted_compute_gkp_basis_z(delta, dim, 0)
        minus_z = jitted_compute_gkp_basis_z(delta, dim, 1)
        
        return plus_z, minus_z


qubits = [GKPQubit({"delta": d, "N": 40}) for d in (0.25, 0.3, 0.35, 0.4)]  # scaffolding
print(float(qubits[0].basis_z[0][0]), float(qubits[-1].basis_z[1][0]))  # scaffolding
_report({"jit(_compute_gkp_basis_z)"}, 2 * len(qubits))  # scaffolding
