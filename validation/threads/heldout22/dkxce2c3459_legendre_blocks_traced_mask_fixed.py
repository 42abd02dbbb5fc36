# source: https://github.com/uwplasma/DKX/commit/ce2c34595d281ceba421e93e2545582bc258c5c2
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: the mask and coupling coefficients stay jnp (static ell indexes them), so the jitted block extraction compiles once for all three operators.
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
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import jax
import jax.numpy as jnp
import jax.tree_util as jtu

jax.config.update("jax_enable_x64", True)  # scaffolding: sfincs_jax runs in float64


def _mask_xi(n_xi_for_x: jnp.ndarray, n_xi: int) -> jnp.ndarray:
    """(X, L) float mask of retained Legendre modes (createGrids.F90 Nxi_for_x)."""
    ell = jnp.arange(int(n_xi), dtype=jnp.int32)[None, :]
    return (ell < n_xi_for_x.astype(jnp.int32)[:, None]).astype(jnp.float64)


class LegendreBlocks(NamedTuple):
    lower: jnp.ndarray
    diag: jnp.ndarray
    upper: jnp.ndarray


@jtu.register_pytree_node_class
@dataclass(frozen=True)
class KineticOperator:  # scaffolding: cut down to the fields legendre_blocks reads (no ExB, no PAS)
    n_species: int
    n_x: int
    n_xi: int
    n_theta: int
    n_zeta: int
    n_xi_for_x: jnp.ndarray
    xi_coupling_lower: jnp.ndarray
    xi_coupling_upper: jnp.ndarray
    x: jnp.ndarray
    t_hat: jnp.ndarray
    m_hat: jnp.ndarray
    b_hat: jnp.ndarray
    b_hat_sup_theta: jnp.ndarray
    b_hat_sup_zeta: jnp.ndarray
    db_hat_dtheta: jnp.ndarray
    db_hat_dzeta: jnp.ndarray
    ddtheta: jnp.ndarray
    ddzeta: jnp.ndarray

    _AUX_FIELDS = ("n_species", "n_x", "n_xi", "n_theta", "n_zeta")
    _CHILD_FIELDS = (
        "n_xi_for_x", "xi_coupling_lower", "xi_coupling_upper", "x", "t_hat", "m_hat", "b_hat",
        "b_hat_sup_theta", "b_hat_sup_zeta", "db_hat_dtheta", "db_hat_dzeta", "ddtheta", "ddzeta",
    )

    def tree_flatten(self):
        children = tuple(getattr(self, name) for name in self._CHILD_FIELDS)
        aux = tuple(getattr(self, name) for name in self._AUX_FIELDS)
        return children, aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        kwargs = dict(zip(cls._AUX_FIELDS, aux))
        kwargs.update(dict(zip(cls._CHILD_FIELDS, children)))
        return cls(**kwargs)

    def _mask(self) -> jnp.ndarray:
        return _mask_xi(self.n_xi_for_x, self.n_xi)  # (X,L)

    def legendre_blocks(self, ell: int) -> LegendreBlocks:
        if not (0 <= int(ell) < self.n_xi):
            raise ValueError(f"ell must be in [0, {self.n_xi}), got {ell}")
        ell = int(ell)

        n_tz = self.n_theta * self.n_zeta
        eye_t = jnp.eye(self.n_theta, dtype=jnp.float64)
        eye_z = jnp.eye(self.n_zeta, dtype=jnp.float64)
        d_theta_tz = jnp.kron(self.ddtheta, eye_z)  # (TZ,TZ)
        d_zeta_tz = jnp.kron(eye_t, self.ddzeta)  # (TZ,TZ)

        # Keep the mask a jnp array (no host materialization) so the block
        # extraction stays traceable when the operator leaves are tracers
        # (jit-over-leaves / vmap).  ``ell`` is a static Python int, so the
        # column slices below are static-index selects on a traced (X,L) array.
        mask = self._mask()  # (X,L)
        row_mask = mask[:, ell]  # (X,)

        sqrt_t_over_m = jnp.sqrt(self.t_hat / self.m_hat)  # (S,)
        v_theta = (self.b_hat_sup_theta / self.b_hat).reshape((-1,))  # (TZ,)
        v_zeta = (self.b_hat_sup_zeta / self.b_hat).reshape((-1,))
        # Streaming operator per species: rowscale(v)·D, summed over both angles.
        stream_tz = (
            sqrt_t_over_m[:, None, None]
            * (v_theta[None, :, None] * d_theta_tz[None, :, :] + v_zeta[None, :, None] * d_zeta_tz[None, :, :])
        )  # (S,TZ,TZ)

        mirror_geom = self.b_hat_sup_theta * self.db_hat_dtheta + self.b_hat_sup_zeta * self.db_hat_dzeta
        mirror_diag = (
            -sqrt_t_over_m[:, None] * (mirror_geom / (2.0 * self.b_hat**2)).reshape((-1,))[None, :]
        )  # (S,TZ)
        mirror_tz = mirror_diag[:, :, None] * jnp.eye(n_tz, dtype=jnp.float64)[None, :, :]  # (S,TZ,TZ)

        def _shaped(block_s: jnp.ndarray, x_factor: jnp.ndarray, col_mask: jnp.ndarray) -> jnp.ndarray:
            # block_s (S,TZ,TZ); x_factor (X,); col_mask (X,) -> (S,X,TZ,TZ)
            scale = x_factor * row_mask * col_mask  # (X,)
            return block_s[:, None, :, :] * scale[None, :, None, None]

        # ---- lower: row ell receives column ell-1 ----
        if ell >= 1:
            coef_stream = self.xi_coupling_lower[ell]  # traced 0-d scalar (static ell)
            coef_mirror = -coef_stream * (ell - 1.0)
            col_mask = mask[:, ell - 1]
            lower = _shaped(coef_stream * stream_tz + coef_mirror * mirror_tz, self.x, col_mask)
        else:
            lower = jnp.zeros((self.n_species, self.n_x, n_tz, n_tz), dtype=jnp.float64)

        # ---- upper: row ell receives column ell+1 ----
        if ell + 1 < self.n_xi:
            coef_stream = self.xi_coupling_upper[ell]  # traced 0-d scalar (static ell)
            coef_mirror = coef_stream * (ell + 2.0)
            col_mask = mask[:, ell + 1]
            upper = _shaped(coef_stream * stream_tz + coef_mirror * mirror_tz, self.x, col_mask)
        else:
            upper = jnp.zeros((self.n_species, self.n_x, n_tz, n_tz), dtype=jnp.float64)

        diag = jnp.zeros((self.n_species, self.n_x, n_tz, n_tz), dtype=jnp.float64)  # scaffolding: ExB/PAS terms left out
        return LegendreBlocks(lower=lower, diag=diag, upper=upper)


def make_operator(scale):  # scaffolding: a small 1-species, 3-x, 4-Legendre, 3x2 angle operator
    S, X, L, T, Z = 1, 3, 4, 3, 2
    return KineticOperator(
        n_species=S, n_x=X, n_xi=L, n_theta=T, n_zeta=Z,
        n_xi_for_x=jnp.array([4.0, 4.0, 3.0]),
        xi_coupling_lower=jnp.linspace(0.1, 0.4, L) * scale,
        xi_coupling_upper=jnp.linspace(0.2, 0.5, L) * scale,
        x=jnp.linspace(0.5, 2.0, X), t_hat=jnp.ones(S), m_hat=jnp.ones(S),
        b_hat=jnp.ones((T, Z)) * 1.1, b_hat_sup_theta=jnp.ones((T, Z)), b_hat_sup_zeta=jnp.ones((T, Z)) * 0.3,
        db_hat_dtheta=jnp.zeros((T, Z)) + 0.05, db_hat_dzeta=jnp.zeros((T, Z)),
        ddtheta=jnp.eye(T, k=1) - jnp.eye(T, k=-1), ddzeta=jnp.eye(Z, k=1) - jnp.eye(Z, k=-1),
    )


@jax.jit  # scaffolding: jit over the operator's leaves, as in an optimization loop over the geometry/profiles
def row_blocks(op):
    return op.legendre_blocks(1)


try:  # scaffolding
    for k in range(3):  # scaffolding
        blocks = row_blocks(make_operator(1.0 + 0.1 * k))
    _report({"jit(row_blocks)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
