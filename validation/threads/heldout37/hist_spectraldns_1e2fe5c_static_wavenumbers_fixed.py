# source: https://github.com/dakling/jax-spectral-dns/commit/1e2fe5c242a3c7c9f90a1902117384cb0ad6d222
# expect: none
# runtime: COMPILES 0 CALLS 4
# why: The commit's fix: the jit decorator on get_rk_mats_lhs_inv is commented out, so the per-mode matrices are built eagerly (or inlined into the caller's trace) and nothing is compiled per wavenumber pair.

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
from functools import partial  # scaffolding
from typing import cast

import jax
import jax.numpy as jnp
import numpy as np


class Domain:  # scaffolding: stand-in for the spectral domain
  def __init__(self, n):
    self.grid = [np.arange(4) * 1.0, np.cos(np.pi * np.arange(n) / (n - 1)), np.arange(4) * 1.0]
    x = self.grid[1]
    self.diff_mats = [None, np.subtract.outer(x, x) + np.eye(n)]

  def enforce_homogeneous_dirichlet_jnp(self, mat):
    return mat


class NavierStokesVelVort:
  def __init__(self, n=16):
    self.prepare_matrices = False
    self._domain = Domain(n)

  def get_dt(self):  # scaffolding
    return 1e-3

  def get_domain(self):  # scaffolding
    return self._domain

  def get_physical_domain(self):  # scaffolding
    return self._domain

  def get_Re_tau(self):  # scaffolding
    return 180.0

  def get_rk_parameters(self):  # scaffolding
    return None, [0.5, 0.25, 0.25], None, None

  # @partial(jax.jit, static_argnums=(0, 1, 2, 3))
  def get_rk_mats_lhs_inv(self, step: int, kx: int, kz: int) -> "np_jnp_array":
    if self.prepare_matrices:
      return cast(
          "np_jnp_array",
          jnp.asarray(self.nse_fixed_parameters.rk_mats_lhs_inv)[step, kx, kz],
      )
    else:
      dt = self.get_dt()
      kx_ = jnp.asarray(self.get_domain().grid[0])[kx]
      kz_ = jnp.asarray(self.get_domain().grid[2])[kz]
      domain = self.get_domain()
      physical_domain = self.get_physical_domain()
      Re_tau = self.get_Re_tau()
      _, beta, _, _ = self.get_rk_parameters()
      D2 = np.linalg.matrix_power(physical_domain.diff_mats[1], 2)
      Ly = 1 / Re_tau * D2
      n = Ly.shape[0]
      I = np.eye(n)
      L = Ly + I * (-(kx_**2 + kz_**2)) / Re_tau
      rk_mat_lhs = I - beta[step] * dt * L
      rk_mat_lhs_ = domain.enforce_homogeneous_dirichlet_jnp(rk_mat_lhs)
      return cast("np_jnp_array", jnp.linalg.inv(rk_mat_lhs_))


nse = NavierStokesVelVort()  # scaffolding: one RK substep over four Fourier modes
step = 0
modes = [(0, 1), (1, 0), (1, 1), (2, 1)]
for K in modes:
  kx = K[0]
  kz = K[1]
  lhs_mat_p_inv = jnp.asarray(nse.get_rk_mats_lhs_inv(step, kx, kz))
_report({"jit(get_rk_mats_lhs_inv)"}, len(modes))
