# source: https://github.com/koldunovn/fesom_jax/commit/b8806f8a51a9687f9134aa68e5b0b2a65c22328e
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the commit initialises u0 with jnp.asarray(1.0, jnp.float64), strongly typed, so Adam's updates keep the same argument types and the jitted step compiles once for all 4 iterations.
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



# ===== scripts/core2_paper_calib_tke_obs.py (fesom_jax @ b8806f8): imports, constants and the calibration part of main() =====
import argparse
import gc
import json
import time
from pathlib import Path

# import fesom_jax  # noqa: F401  (x64)  # scaffolding: fesom_jax is not installed; importing it turns x64 on, done below
import jax
import jax.numpy as jnp
import numpy as np
import optax

jax.config.update("jax_enable_x64", True)  # scaffolding: what `import fesom_jax` does
from types import SimpleNamespace  # scaffolding

DT = 1800.0
CK0 = 0.1  # scaffolding: float(Params.defaults().tke_c_k), fesom_jax/config.py TKE_C_K = 0.1
CEPS0 = 0.7  # scaffolding: float(Params.defaults().tke_c_eps), fesom_jax/config.py TKE_C_EPS = 0.7


def _bail(args, rec, stage, e):  # scaffolding: the script's _bail records the failure and returns 1; re-raised here so the measurement sees it
    raise e  # scaffolding


def main():
    args = SimpleNamespace(params="ck", w_sst=1.0, lr=0.05, iters=4)  # scaffolding: argparse cut; --params ck (the headline run), 4 iterations instead of 60
    rec = {}  # scaffolding
    # [cut: mesh/forcing build, the forward spin-up to S0 and the WOA target loading: the FESOM ocean model is not installed]  # scaffolding
    _r = np.random.default_rng(0)  # scaffolding
    woa_mld = jnp.asarray(_r.uniform(20.0, 80.0, 32))  # scaffolding: stand-in WOA MLD per obs cell
    woa_sst = jnp.asarray(_r.uniform(5.0, 25.0, 32))  # scaffolding: stand-in WOA SST per obs cell
    w_mld = w_sst = jnp.ones(32)  # scaffolding

    def model_surf(tun):  # scaffolding: stand-in for integrate(...) + the obs operator (MLD and SST per obs cell)
        cell_mld = woa_mld * (0.3 + 5.0 * tun["tke_c_k"])  # scaffolding
        cell_sst = woa_sst + 2.0 * (tun["tke_c_k"] - 0.2)  # scaffolding
        return cell_mld, cell_sst  # scaffolding

    obs_compare = SimpleNamespace(misfit=lambda a, b, w: jnp.sum(w * (a - b) ** 2) / jnp.sum(w))  # scaffolding: stand-in for fesom_jax.obs_compare.misfit (weighted mean square)

    def tun_of(u):                                   # scale-free leaves → the Params dict
        d = {"tke_c_k": CK0 * u["ck"]}
        if args.params == "ck_ceps":
            d["tke_c_eps"] = CEPS0 * u["ceps"]
        return d

    def misfits(u):
        cell_mld, cell_sst = model_surf(tun_of(u))
        return (obs_compare.misfit(cell_mld, woa_mld, w_mld),
                obs_compare.misfit(cell_sst, woa_sst, w_sst))

    # ---------- calibrate {c_k(, c_eps)} via the global adjoint ----------
    # ONE fwd+bwd executable (has_aux returns the MLD/SST misfits per iter) — NO separate baseline
    # forward, which would compile its own program + retain a ~24 GB pool and OOM the backward.
    # Fixed O(1) scales balance MLD (~1e3 m²) and SST (~1 °C²) without a baseline pre-pass; the
    # baseline is just the FIRST iter's misfits (default params).
    SCALE_MLD, SCALE_SST = 1000.0, 1.0
    # ⚠️ STRONG float64 (not jnp.asarray(1.0), which is WEAK): a weak→strong type change after the
    # first Adam update re-triggers jit_step compilation at it=2 → a 2nd CUBIN load on top of it=1's
    # → the "Failed to load in-memory CUBIN" OOM. (The twin's init was explicitly float64 ⇒ no recompile.)
    one = jnp.asarray(1.0, jnp.float64)
    u0 = {"ck": one} | ({"ceps": one} if args.params == "ck_ceps" else {})

    def loss_aux(u):
        jm, js = misfits(u)
        return jm / SCALE_MLD + args.w_sst * js / SCALE_SST, (jm, js)

    opt = optax.adam(optax.cosine_decay_schedule(args.lr, args.iters))

    @jax.jit
    def step(u, opt_state):
        # ONE executable for the WHOLE update (value_and_grad + Adam) — separate optax executables
        # OOM on CUBIN-load when the fwd+bwd pool already fills the card (the v5 failure).
        (lval, (jm, js)), grads = jax.value_and_grad(loss_aux, has_aux=True)(u)
        gn = optax.tree.norm(grads)
        updates, opt_state = opt.update(grads, opt_state, u)
        return optax.apply_updates(u, updates), opt_state, lval, jm, js, gn

    try:
        t1 = time.time()
        print(f"\n  --- calibrate {args.params} to WOA MLD+SST (Adam lr={args.lr}, ≤{args.iters} it; "
              f"single jitted step) ---", flush=True)
        u, opt_state, hist = u0, opt.init(u0), []
        m0_mld = m0_sst = None
        for it in range(1, args.iters + 1):
            ck = CK0 * float(u["ck"])                          # the iterate being EVALUATED this step
            ceps = CEPS0 * float(u["ceps"]) if args.params == "ck_ceps" else CEPS0
            u, opt_state, lval, jm, js, gn = step(u, opt_state)
            jm, js, lval = float(jm), float(js), float(lval)
            if m0_mld is None:
                m0_mld, m0_sst = jm, js
            extra = f" c_eps={ceps:.4f}" if args.params == "ck_ceps" else ""
            print(f"    it={it:3d}  c_k={ck:.5f}{extra}  MLD={jm:.4e} m²  SST={js:.4e} °C²  "
                  f"|g|={float(gn):.2e}", flush=True)
            hist.append({"it": it, "ck": ck, "ceps": ceps, "jm": jm, "js": js, "loss": lval})
            # plateau early-stop (the obs misfit bottoms out at the irreducible model-obs gap)
            if it > 8 and hist[-9]["loss"] - lval < 1e-3 * hist[0]["loss"]:
                print(f"    (plateau — stop at it={it})", flush=True)
                break
        ck_fin, ceps_fin = hist[-1]["ck"], hist[-1]["ceps"]   # last EVALUATED iterate (jm/js consistent)
        mf_mld, mf_sst = hist[-1]["jm"], hist[-1]["js"]
        bwd_s = time.time() - t1
    except Exception as e:
        return _bail(args, rec, "calibrate", e)
    if not (m0_mld > 0):
        return _bail(args, rec, "calibrate", ValueError(f"degenerate baseline MLD {m0_mld}"))
    return hist  # scaffolding: the rest of main (plausibility report, npz/results output) is cut


hist = main()  # scaffolding
_report({"jit(step)"}, len(hist))  # scaffolding
