# source: https://github.com/uwplasma/regcoil_jax/commit/69c2f5daf12440085d44723aa5317246414ae0dd
# expect: trace-time-error at line 217
# runtime: ERROR ValueError
# why: inductance_and_h_sum is jitted without marking nfp static, so nfp is traced and lax.fori_loop(0, nfp, ...) becomes a while_loop; taking jax.grad through it in grad_jit raises ValueError (reverse-mode needs static fori_loop bounds).
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



# ===== regcoil_jax/constants.py (regcoil_jax @ parent of 69c2f5d) =====
import jax.numpy as jnp

pi = jnp.pi
twopi = 2.0 * pi
mu0 = 4e-7 * pi  # vacuum permeability [H/m]

# ===== regcoil_jax/geometry_torus.py (regcoil_jax @ parent of 69c2f5d) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness (annotations here are plain types)
import jax.numpy as jnp

def torus_xyz_and_derivs(theta, zeta, R0: float, a: float):
    """Analytic circular torus parameterization.

    x = (R0 + a cosθ) cosζ
    y = (R0 + a cosθ) sinζ
    z = a sinθ

    Returns:
      r      : (3,T,Z)
      r_theta: (3,T,Z)
      r_zeta : (3,T,Z)
      nunit  : (3,T,Z)
      normN  : (T,Z) where N = r_zeta × r_theta
    """
    th = theta[:, None]               # (T,1)
    ze = zeta[None, :]                # (1,Z)
    cth = jnp.cos(th); sth = jnp.sin(th)
    cze = jnp.cos(ze); sze = jnp.sin(ze)

    R = R0 + a * cth                  # (T,1)

    x = R * cze                       # (T,Z)
    y = R * sze                       # (T,Z)
    z = (a * sth) * jnp.ones_like(ze) # (T,Z)

    # derivatives w.r.t theta
    dR_dth = -a * sth                 # (T,1)
    dx_dth = dR_dth * cze             # (T,Z)
    dy_dth = dR_dth * sze             # (T,Z)
    dz_dth = (a * cth) * jnp.ones_like(ze)  # (T,Z)

    # derivatives w.r.t zeta
    dx_dze = -R * sze                 # (T,Z) = -y
    dy_dze =  R * cze                 # (T,Z) =  x
    dz_dze = jnp.zeros_like(dx_dze)

    r_theta = jnp.stack([dx_dth, dy_dth, dz_dth], axis=0)  # (3,T,Z)
    r_zeta  = jnp.stack([dx_dze, dy_dze, dz_dze], axis=0)  # (3,T,Z)
    r       = jnp.stack([x, y, z], axis=0)                 # (3,T,Z)

    # normal = r_zeta × r_theta
    nvec = jnp.cross(jnp.moveaxis(r_zeta, 0, -1), jnp.moveaxis(r_theta, 0, -1))
    nvec = jnp.moveaxis(nvec, -1, 0)  # (3,T,Z)
    normN = jnp.linalg.norm(nvec, axis=0)
    nunit = nvec / normN

    return r, r_theta, r_zeta, nunit, normN


def torus_xyz_and_derivs2(theta, zeta, R0: float, a: float):
    """Analytic circular torus parameterization with 2nd derivatives.

    Returns:
      r      : (3,T,Z)
      r_theta: (3,T,Z)
      r_zeta : (3,T,Z)
      r_tt   : (3,T,Z)
      r_tz   : (3,T,Z)
      r_zz   : (3,T,Z)
      nunit  : (3,T,Z)
      normN  : (T,Z) where N = r_zeta × r_theta
    """
    th = theta[:, None]               # (T,1)
    ze = zeta[None, :]                # (1,Z)
    cth = jnp.cos(th); sth = jnp.sin(th)
    cze = jnp.cos(ze); sze = jnp.sin(ze)

    R = R0 + a * cth                  # (T,1)
    x = R * cze                       # (T,Z)
    y = R * sze                       # (T,Z)
    z = (a * sth) * jnp.ones_like(ze) # (T,Z)

    # first derivatives
    dR_dth = -a * sth                 # (T,1)
    dx_dth = dR_dth * cze
    dy_dth = dR_dth * sze
    dz_dth = (a * cth) * jnp.ones_like(ze)

    dx_dze = -R * sze
    dy_dze =  R * cze
    dz_dze = jnp.zeros_like(dx_dze)

    # second derivatives
    d2R_dth2 = -a * cth
    d2x_dth2 = d2R_dth2 * cze
    d2y_dth2 = d2R_dth2 * sze
    d2z_dth2 = (-a * sth) * jnp.ones_like(ze)

    d2x_dthdze = -(dR_dth * sze)
    d2y_dthdze =  (dR_dth * cze)
    d2z_dthdze = jnp.zeros_like(d2x_dthdze)

    d2x_dze2 = -R * cze
    d2y_dze2 = -R * sze
    d2z_dze2 = jnp.zeros_like(d2x_dze2)

    r_theta = jnp.stack([dx_dth, dy_dth, dz_dth], axis=0)
    r_zeta = jnp.stack([dx_dze, dy_dze, dz_dze], axis=0)
    r_tt = jnp.stack([d2x_dth2, d2y_dth2, d2z_dth2], axis=0)
    r_tz = jnp.stack([d2x_dthdze, d2y_dthdze, d2z_dthdze], axis=0)
    r_zz = jnp.stack([d2x_dze2, d2y_dze2, d2z_dze2], axis=0)
    r = jnp.stack([x, y, z], axis=0)

    nvec = jnp.cross(jnp.moveaxis(r_zeta, 0, -1), jnp.moveaxis(r_theta, 0, -1))
    nvec = jnp.moveaxis(nvec, -1, 0)
    normN = jnp.linalg.norm(nvec, axis=0)
    nunit = nvec / normN

    return r, r_theta, r_zeta, r_tt, r_tz, r_zz, nunit, normN

# ===== regcoil_jax/kernel.py (regcoil_jax @ parent of 69c2f5d) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness (annotations here are plain types)
import jax
import jax.numpy as jnp
# from .constants import mu0, pi  # scaffolding: module inlined in this file

def rotate_z(vec3, phi):
    """Rotate a 3-vector field about +z by angle phi (radians).
    vec3 shape (...,3) or (3,...). Returns same shape.
    """
    c = jnp.cos(phi); s = jnp.sin(phi)
    if vec3.shape[0] == 3:
        x, y, z = vec3[0], vec3[1], vec3[2]
        xr = c*x - s*y
        yr = s*x + c*y
        return jnp.stack([xr, yr, z], axis=0)
    else:
        x, y, z = vec3[...,0], vec3[...,1], vec3[...,2]
        xr = c*x - s*y
        yr = s*x + c*y
        return jnp.stack([xr, yr, z], axis=-1)

@jax.jit
def inductance_and_h_sum(plasma_r, plasma_n, coil_r, coil_n, coil_f, nfp: int):
    """Compute effective inductance kernel (summed over nfp images) and the h field.

    plasma_r: (P,3)
    plasma_n: (P,3) unit normals at plasma
    coil_r:   (C,3) positions for one field period (zeta in [0,2pi/nfp))
    coil_n:   (C,3) unit normals for one field period
    coil_f:   (C,3) factor_for_h vectors for one field period
    Returns:
      induct_eff: (P,C) scaled by mu0/(4pi)
      h_eff:      (P,)  UNweighted sum over coil points (still needs *dtheta*dzeta*mu0/(8pi^2) externally)
    """
    P = plasma_r.shape[0]
    C = coil_r.shape[0]

    def body(l, acc):
        ind_acc, h_acc = acc
        phi = (2.0*jnp.pi/ nfp) * l
        rC = rotate_z(coil_r.T, phi).T
        nC = rotate_z(coil_n.T, phi).T
        fC = rotate_z(coil_f.T, phi).T

        # dr = rP - rC (matches regcoil_build_matrices.f90 where dx = x_plasma - x_coil)
        # Note: the inductance kernel is even in dr, but the h kernel is odd in dr.
        dr = plasma_r[:,None,:] - rC[None,:,:]
        dr2 = jnp.sum(dr*dr, axis=-1)  # (P,C)
        inv_r = jnp.reciprocal(jnp.sqrt(dr2))
        dr2inv = jnp.reciprocal(dr2)
        inv_r3 = inv_r * dr2inv  # 1/r^3

        np_dot_nc = jnp.sum(plasma_n[:,None,:] * nC[None,:,:], axis=-1)
        np_dot_dr = jnp.sum(plasma_n[:,None,:] * dr, axis=-1)
        nc_dot_dr = jnp.sum(nC[None,:,:] * dr, axis=-1)

        ind = (np_dot_nc - 3.0*dr2inv*np_dot_dr*nc_dot_dr) * inv_r3  # (P,C)

        # h kernel: dot( cross(fC, dr), nP ) / r^3
        # cross(fC, dr): (P,C,3)
        cr = jnp.cross(fC[None,:,:], dr)
        h = jnp.sum(cr * plasma_n[:,None,:], axis=-1) * inv_r3  # (P,C)

        return (ind_acc + ind, h_acc + jnp.sum(h, axis=1))

    ind0 = jnp.zeros((P,C), dtype=plasma_r.dtype)
    h0 = jnp.zeros((P,), dtype=plasma_r.dtype)
    (ind_sum, h_sum) = jax.lax.fori_loop(0, nfp, body, (ind0, h0))
    ind_sum = ind_sum * (mu0/(4.0*pi))
    return ind_sum, h_sum

# ===== examples/2_intermediate/jax_optimize_coil_minor_radius.py (regcoil_jax @ parent of 69c2f5d) =====
# !/usr/bin/env python3  # scaffolding
# from __future__ import annotations  # scaffolding: cannot follow the harness (annotations here are plain types)

import time

import jax
import jax.numpy as jnp

# from regcoil_jax.constants import mu0, pi, twopi  # scaffolding: module inlined in this file
# from regcoil_jax.geometry_torus import torus_xyz_and_derivs  # scaffolding: module inlined in this file
# from regcoil_jax.kernel import inductance_and_h_sum  # scaffolding: module inlined in this file


def _flatten_3TZ_to_N3(x_3tz):
    return jnp.reshape(jnp.moveaxis(x_3tz, 0, -1), (-1, 3))


def bnet_for_tori(*, ntheta: int, nzeta: int, nfp: int, R0_plasma: float, a_plasma: float, R0_coil: float, a_coil: jnp.ndarray,
                  net_poloidal_current: float, net_toroidal_current: float) -> tuple[jnp.ndarray, jnp.ndarray]:
    """Compute Bnormal_from_net_coil_currents on a circular torus plasma surface.

    This example intentionally bypasses the full REGCOIL solve and focuses on a JAX-friendly,
    differentiable physics kernel (the h field / Bnet computation).
    """
    theta = twopi * jnp.arange(ntheta) / ntheta
    zeta = (twopi / nfp) * jnp.arange(nzeta) / nzeta

    rP, rthP, rzeP, nunitP, normNP = torus_xyz_and_derivs(theta, zeta, R0_plasma, a_plasma)
    rC, rthC, rzeC, nunitC, normNC = torus_xyz_and_derivs(theta, zeta, R0_coil, a_coil)

    # Full (non-unit) normals, matching REGCOIL conventions.
    NP_full = nunitP * normNP[None, :, :]
    NC_full = nunitC * normNC[None, :, :]

    rP_N3 = _flatten_3TZ_to_N3(rP)
    NP_N3 = _flatten_3TZ_to_N3(NP_full)
    rC_N3 = _flatten_3TZ_to_N3(rC)
    NC_N3 = _flatten_3TZ_to_N3(NC_full)

    factor_for_h = net_poloidal_current * rthC - net_toroidal_current * rzeC
    f_h_N3 = _flatten_3TZ_to_N3(factor_for_h)

    _, h_sum = inductance_and_h_sum(rP_N3, NP_N3, rC_N3, NC_N3, f_h_N3, nfp=nfp)

    dth = twopi / ntheta
    dze = (twopi / nfp) / nzeta
    h = h_sum * (dth * dze * mu0 / (8.0 * pi * pi))

    Bnet = h.reshape(ntheta, nzeta) / normNP
    return Bnet, normNP


def main():
    jax.config.update("jax_enable_x64", True)

    ntheta = 24
    nzeta = 24
    nfp = 1

    R0_plasma = 3.0
    a_plasma = 1.0
    R0_coil = 3.0

    net_pol = 1.4
    net_tor = 0.3

    def objective(a_coil):
        Bnet, normN = bnet_for_tori(
            ntheta=ntheta,
            nzeta=nzeta,
            nfp=nfp,
            R0_plasma=R0_plasma,
            a_plasma=a_plasma,
            R0_coil=R0_coil,
            a_coil=a_coil,
            net_poloidal_current=net_pol,
            net_toroidal_current=net_tor,
        )
        dth = twopi / ntheta
        dze = (twopi / nfp) / nzeta
        chi2_B = nfp * dth * dze * jnp.sum((Bnet * Bnet) * normN)
        return chi2_B

    obj_jit = jax.jit(objective)
    grad_jit = jax.jit(jax.grad(objective))

    a = jnp.asarray(1.7)
    _ = obj_jit(a).block_until_ready()  # compile

    t0 = time.time()
    val0 = float(obj_jit(a).block_until_ready())
    g0 = float(grad_jit(a).block_until_ready())
    t1 = time.time()
    print(f"init: a_coil={float(a):.6f}  chi2_B={val0:.6e}  d(chi2_B)/da={g0:.6e}  eval_s={(t1-t0):.3f}")

    lr = 1e-1
    for k in range(15):
        g = grad_jit(a)
        a = a - lr * g
        val = float(obj_jit(a).block_until_ready())
        print(f"step {k:02d}: a_coil={float(a):.6f}  chi2_B={val:.6e}")


try:  # scaffolding
    main()  # scaffolding: the script's `if __name__ == "__main__": main()`
    _report({"jit(objective)"}, 33)  # scaffolding: obj_jit 17 calls (compile call, initial value, 15 steps) + grad_jit 16 calls; both compile under the name jit(objective)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding

