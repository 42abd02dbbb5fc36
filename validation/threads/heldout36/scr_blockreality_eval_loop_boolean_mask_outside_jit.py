# source: https://github.com/rocky59487/Block-Realityapi-Fast-design/blob/55239d283f055d77c4d49144c1a621bf24869434/ml/brml/brml/pipeline/auto_train.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: evaluate_model loops over every structure of the dataset with a jitted infer that closes over params; the per-structure variable-size work (boolean masks of the solid voxels) is done in NumPy after the jitted call on the fixed-size [1,L,L,L,6] grid, so infer compiles once.

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
from types import SimpleNamespace  # scaffolding

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np
from flax import linen as nn  # scaffolding


def _import_jax():  # scaffolding: the module imports jax lazily
    return jax, jnp, None, None, None


class TinyFNO(nn.Module):  # scaffolding: stand-in for FNO3DMultiField (10 output channels)
    @nn.compact
    def __call__(self, x):
        return nn.Dense(10)(x)


def _von_mises_np(s):  # scaffolding: simplified
    return np.sqrt(np.sum(s[:, :3] ** 2, axis=-1))


def build_input_tensor(dataset, idx: int, jnp):
    """Build FNO input: [occ, E_norm, nu, density_norm, rcomp_norm, rtens_norm] = 6 channels."""
    occ  = jnp.array(dataset.occupancy[idx])
    E    = jnp.array(dataset.E_field[idx])    / 200e9   # normalize by steel E
    nu   = jnp.array(dataset.nu_field[idx])
    rho  = jnp.array(dataset.density_field[idx]) / 7850.0  # normalize by steel density
    rc   = jnp.array(dataset.rcomp_field[idx])  / 250.0    # normalize by steel Rcomp
    rt   = jnp.array(dataset.rtens_field[idx])  / 500.0    # normalize by steel Rtens

    return jnp.stack([occ, E, nu, rho, rc, rt], axis=-1)  # [Lx, Ly, Lz, 6]


def evaluate_model(params, model, dataset, train_history: dict,
                   fem_trust_low: float = 0.30, fem_trust_high: float = 0.60) -> dict:
    jax, jnp, _, _, _ = _import_jax()

    stress_scale = train_history["stress_scale"]
    disp_scale   = train_history["disp_scale"]
    phi_p99      = train_history["phi_p99"]

    # JIT the inference step once
    @jax.jit
    def infer(x):
        return model.apply({"params": params}, x)

    per_sample = []

    for idx in range(len(dataset)):
        x    = build_input_tensor(dataset, idx, jnp)[None]          # [1,L,L,L,6]
        pred = np.array(infer(x)[0])                                # [L,L,L,10]
        mask = dataset.occupancy[idx].astype(bool)                  # [L,L,L]
        n_solid = int(mask.sum())
        if n_solid < 3:
            continue

        # Denormalize predictions (match training-time normalization)
        s_pred_pa = pred[..., :6][mask] * stress_scale              # [N, 6] Pa
        d_pred_m  = pred[..., 6:9][mask] * disp_scale              # [N, 3] m
        p_pred    = pred[..., 9][mask]                              # [N]   phi (dimensionless)

        # Ground truth
        s_true_pa = dataset.stress_tensor[idx][mask]                # [N, 6] Pa
        d_true_m  = dataset.displacement[idx][mask]                 # [N, 3] m
        p_true    = dataset.phi_pfsf[idx][mask]                     # [N]   phi

        # Von Mises
        vm_pred = _von_mises_np(s_pred_pa)                          # [N] Pa
        vm_true = _von_mises_np(s_true_pa)                          # [N] Pa

        # Per-voxel FEM trust (same formula as loss_fn)
        vm_gt_norm  = vm_true / (stress_scale + 1e-8)
        phi_gt_norm = p_true  / (phi_p99 + 1e-8)
        discrepancy = np.abs(vm_gt_norm - phi_gt_norm)
        trust = np.clip(
            (fem_trust_high - discrepancy) / (fem_trust_high - fem_trust_low + 1e-8),
            0.0, 1.0,
        )
        per_sample.append({
            "idx":               idx,
            "n_solid":           n_solid,
            "fem_trust_mean":       float(trust.mean()),
            "stress_mae_pa":    float(np.mean(np.abs(s_pred_pa - s_true_pa))),
        })  # scaffolding: the remaining metrics and the aggregation are cut
    return per_sample


# scaffolding: 6 random 8^3 structures with different solid-voxel counts
g = np.random.default_rng(0)
L, N = 8, 6
occ = (g.random((N, L, L, L)) < np.linspace(0.2, 0.8, N)[:, None, None, None]).astype(np.float32)
dataset = SimpleNamespace(occupancy=occ, E_field=occ * 30e9, nu_field=occ * 0.2, density_field=occ * 2400,
                          rcomp_field=occ * 30, rtens_field=occ * 3, stress_tensor=g.normal(size=(N, L, L, L, 6)),
                          displacement=g.normal(size=(N, L, L, L, 3)), phi_pfsf=g.random((N, L, L, L)))
class _DS(SimpleNamespace):  # scaffolding
    def __len__(self):
        return len(self.occupancy)
dataset = _DS(**vars(dataset))
model = TinyFNO()
params = model.init(jax.random.PRNGKey(0), jnp.zeros((1, L, L, L, 6)))["params"]
out = evaluate_model(params, model, dataset, {"stress_scale": 1e6, "disp_scale": 1e-3, "phi_p99": 1.0})
_report({"jit(infer)"}, len(dataset))
