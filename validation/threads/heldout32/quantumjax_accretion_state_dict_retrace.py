# source: https://github.com/pmocz/quantum-jax/blob/35266cb61a81cd6a036137b9d111701d051910c1/quantum-fluid-accretion.py
# expect: shape-churn at line 130
# runtime: COMPILES 2 CALLS 9
# why: main() builds the initial state dict with a Python float t and without the five bh_* keys that update() returns, so the second update call sees a new pytree structure and a strong-typed t and compiles the (large) step a second time.

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
import numpy as np
import jax
import jax.numpy as jnp

# precision (needed for large dynamic range)
jax.config.update("jax_enable_x64", True)

# scaffolding: the script's global parameters, cut to what the step below reads; nx and dt shrunk
nx = 8  # scaffolding: 128 in the script
Lx = 10.0
dx = Lx / nx
cs_const = 60.0
HYDRO_CFL = 0.15  # gentler
BH_INJECT_T = 13.0  # internal time units (kpc/(km/s))
dt = 3.0  # scaffolding: t_end / nt in the script; large so that the warm-up takes a few steps
rho_gas = 1.0e6
R_ACC_MULT = 2.5


def cs2_local(rho):
    # Jeans floor removed: always constant sound speed (unchanged by request)
    return jnp.full_like(rho, cs_const**2)


def compute_step(psi, rho, vx, vy, vz, t, M_bh_acc, x_bh, vxbh, vybh, vzbh, bh_placed):
    # scaffolding: stand-in for the script's 170-line kick-drift-kick step (FFT gravity, hydro,
    # Bondi accretion); it keeps the step's inputs, its CFL-capped dt_eff and its 21 outputs
    c_eff = jnp.sqrt(cs2_local(rho))
    vmag = jnp.sqrt(vx * vx + vy * vy + vz * vz)
    Cmax = jnp.max(c_eff + vmag)
    dt_h = HYDRO_CFL * dx / (Cmax + 1e-30)
    dt_eff = jnp.maximum(dt, dt_h)  # scaffolding: min() in the script; max() keeps the stand-in short
    t = t + dt_eff
    inject = (bh_placed < 0.5) & (t >= BH_INJECT_T)
    bh_placed = jnp.where(inject, jnp.array(1.0), bh_placed)
    M_bh_eff_out = M_bh_acc * bh_placed
    z = jnp.zeros_like(M_bh_acc)
    return (psi, rho, vx, vy, vz, t,
            M_bh_eff_out, M_bh_acc, x_bh, vxbh, vybh, vzbh,
            z, z, z, bh_placed,
            z, z, z,
            z, z)


@jax.jit
def update(_, state):
    (psi, rho, vx, vy, vz, t,
     M_bh_eff, M_bh_acc, x_bh, vxbh, vybh, vzbh,
     dMdt, rho_inf, r_B, bh_placed,
     dMdt_real, cap_ratio, r_acc_eff,
     alpha_target, alpha_real) = compute_step(
        state["psi"], state["rho"], state["vx"], state["vy"], state["vz"], state["t"],
        state["M_bh_acc"], state["x_bh"], state["vxbh"], state["vybh"], state["vzbh"], state["bh_placed"]
    )
    state = {
        "psi": psi, "rho": rho, "vx": vx, "vy": vy, "vz": vz, "t": t,
        "M_bh": M_bh_eff, "M_bh_acc": M_bh_acc,
        "x_bh": x_bh, "vxbh": vxbh, "vybh": vybh, "vzbh": vzbh,
        "bh_dMdt": dMdt, "bh_rho_inf": rho_inf, "bh_r_B": r_B,
        "bh_placed": bh_placed,
        "bh_dMdt_real": dMdt_real, "bh_cap_ratio": cap_ratio, "bh_r_acc": r_acc_eff,
        # NEW:
        "bh_alpha_target": alpha_target, "bh_alpha_real": alpha_real,
    }
    return state


def main():
    # ----- Initial conditions
    t = 0.0

    psi = jnp.ones((nx, nx, nx), dtype=jnp.complex128)  # scaffolding: random-phase DM blobs in the script

    # ------------------- gas init -------------------
    rho = jnp.ones((nx, nx, nx)) * rho_gas
    vx = jnp.zeros((nx, nx, nx))
    vy = jnp.zeros((nx, nx, nx))
    vz = jnp.zeros((nx, nx, nx))

    # --- BH state: no mass yet; inject site later; mass ramps smoothly after ---
    x_bh  = jnp.array([0.5 * Lx, 0.5 * Lx, 0.5 * Lx])
    M_bh_acc = jnp.array(0.0)      # accreted component only
    vxbh  = jnp.array(0.0)
    vybh  = jnp.array(0.0)
    vzbh  = jnp.array(0.0)
    bh_placed = jnp.array(0.0)     # 0 until site placed at t >= BH_INJECT_T

    state = {
        "t": t, "psi": psi, "rho": rho, "vx": vx, "vy": vy, "vz": vz,
        "x_bh": x_bh, "M_bh": jnp.array(0.0), "M_bh_acc": M_bh_acc,
        "vxbh": vxbh, "vybh": vybh, "vzbh": vzbh,
        "bh_dMdt": jnp.array(0.0), "bh_rho_inf": jnp.array(0.0),
        "bh_r_B": jnp.array(0.0),
        "bh_placed": bh_placed,
    }

    n_calls = 0  # scaffolding
    # =========================
    # WARM-UP to injection time
    # =========================
    while float(state["t"]) < BH_INJECT_T:
        state = update(0, state)
        n_calls += 1  # scaffolding

    t_start = float(state["t"])  # ~ BH_INJECT_T
    t_targets = np.linspace(t_start, t_start + 12.0, 3 + 1)[1:]  # scaffolding: 300 frames over 0.5 Gyr in the script

    for target_t in t_targets:
        # advance until reaching target time
        st = state
        while float(st["t"]) < target_t:
            st = update(0, st)
            n_calls += 1  # scaffolding
        state.update(st)

    _report({"jit(update)"}, n_calls)  # scaffolding


main()  # scaffolding
