# source: https://github.com/thorben-frank/mlff/commit/b8fb77f348974b1f105ed9bbbb63dfc79d2a8078
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the commit marks neighborlist_format static (static_argnames) on coulomb_erf and coulomb_erf_shifted_force_smooth, so the module's str argument is hashed, not traced, and the jitted energy compiles once for three evaluations.
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


# mlff/nn/observable/observable_sparse.py (imports, sigma, switching_fn, coulomb_erf,
# coulomb_erf_shifted_force_smooth, ElectrostaticEnergySparse), mlff/masking/mask.py (safe_mask, safe_scale)
# and mlff/nn/base/sub_module.py (BaseSubModule)
import flax.linen as nn
import jax
import jax.numpy as jnp

# from ase.units import Bohr, Hartree  # scaffolding: ase is not installed; unused by the parts kept here
# from ase.units import alpha as fine_structure  # scaffolding
from functools import partial
from jax.ops import segment_sum
from jax.nn.initializers import constant
from typing import Any, Callable, Dict, Tuple
from typing import Optional
from abc import abstractmethod


# ---- mlff/masking/mask.py ----
def safe_mask(mask, fn: Callable, operand: jnp.ndarray, placeholder: float = 0.) -> jnp.ndarray:
    """
    Safe mask which ensures that gradients flow nicely. See also
    https://github.com/google/jax-md/blob/b4bce7ab9b37b6b9b2d0a5f02c143aeeb4e2a560/jax_md/util.py#L67

    Args:
        mask (array_like): Array of booleans.
        fn (Callable): The function to apply at entries where mask=True.
        operand (array_like): The values to apply fn to.
        placeholder (int): The values to fill in if mask=False.

    Returns: New array with values either being the output of fn or the placeholder value.

    """
    masked = jnp.where(mask, operand, 0)
    return jnp.where(mask, fn(masked), placeholder)


def safe_scale(x: jnp.ndarray, scale: jnp.ndarray, placeholder: float = 0):
    """
    Autograd safe scaling tensor of x with scale.

    Args:
        x (Array): Tensor to scale, shape: (...)
        scale (Array): Tensor by which x is scaled, shape: (1) or same as x
        placeholder (float): Value to put, when scale equals zero

    Returns: Scaled tensor.

    """
    scale_fn = lambda inputs: scale * inputs
    return safe_mask(mask=scale != 0, fn=scale_fn, operand=x, placeholder=placeholder)


# ---- mlff/nn/base/sub_module.py ----
class BaseSubModule(nn.Module):

    @abstractmethod
    def __dict_repr__(self):
        pass

    def reset_prop_keys(self, prop_keys):
        self.prop_keys.update(prop_keys)


# ---- mlff/nn/observable/observable_sparse.py ----
@jax.jit
def sigma(x):
    return safe_mask(x > 0, fn=lambda u: jnp.exp(-1. / u), operand=x, placeholder=0)


@jax.jit
def switching_fn(x, x_on, x_off):
    c = (x - x_on) / (x_off - x_on)
    return sigma(1 - c) / (sigma(1 - c) + sigma(c))


@partial(jax.jit, static_argnames=('neighborlist_format',))
def coulomb_erf(
        q: jnp.ndarray,
        rij: jnp.ndarray,
        idx_i: jnp.ndarray,
        idx_j: jnp.ndarray,
        kehalf: float,
        sigma: float,
        neighborlist_format: str = 'sparse'
) -> jnp.ndarray:
    """ Pairwise Coulomb interaction with erf damping """
    input_dtype = rij.dtype

    if neighborlist_format == 'sparse':
        c = jnp.asarray(0.5, dtype=input_dtype)
    elif neighborlist_format == 'ordered_sparse':
        c = jnp.asarray(1.0, dtype=input_dtype)
    else:
        raise ValueError(
            f"neighborlist_format must be one of either 'ordered_sparse' or 'sparse'. "
            f"received {neighborlist_format=}"
        )

    # Cast constants to input dtype
    _kehalf = jnp.asarray(kehalf, dtype=input_dtype)
    _sigma = jnp.asarray(sigma, dtype=input_dtype)

    pairwise = c * _kehalf * q[idx_i] * q[idx_j] * jax.lax.erf(rij / _sigma) / rij

    return pairwise


@partial(jax.jit, static_argnames=('neighborlist_format',))
def coulomb_erf_shifted_force_smooth(
        q: jnp.ndarray,
        rij: jnp.ndarray,
        idx_i: jnp.ndarray,
        idx_j: jnp.ndarray,
        kehalf: float,
        sigma: float,
        cutoff: float,
        cuton: float,
        neighborlist_format: str = 'sparse'
) -> jnp.ndarray:
    """ Pairwise Coulomb interaction with erf damping, using Shifted Force method """

    input_dtype = rij.dtype

    if neighborlist_format == 'sparse':
        c = jnp.asarray(0.5, dtype=input_dtype)
    elif neighborlist_format == 'ordered_sparse':
        c = jnp.asarray(1.0, dtype=input_dtype)
    else:
        raise ValueError(
            f"neighborlist_format must be one of either 'ordered_sparse' or 'sparse'. "
            f"received {neighborlist_format=}"
        )

    # Cast the constants to input dtype
    _sigma = jnp.asarray(sigma, dtype=input_dtype)
    _kehalf = jnp.asarray(kehalf, dtype=input_dtype)
    _cutoff = jnp.asarray(cutoff, dtype=input_dtype)
    _cuton = jnp.asarray(cuton, dtype=input_dtype)

    def potential(r):
        return jax.lax.erf(r / _sigma) / r

    def force(r):
        return (2 * r * jnp.exp(-(r / _sigma) ** 2) / (jnp.sqrt(jnp.pi) * _sigma) - jax.lax.erf(r / _sigma)) / r ** 2

    f = switching_fn(rij, _cuton, _cutoff)
    pairwise = potential(rij)
    shift = potential(_cutoff)
    force_shift = force(_cutoff)

    shifted_potential = pairwise - shift - force_shift * (rij - _cutoff)

    return jnp.where(
        rij < _cutoff,
        c * _kehalf * q[idx_i] * q[idx_j] * (f * (pairwise - shift) + (1 - f) * shifted_potential),
        0.0
    )


class ElectrostaticEnergySparse(BaseSubModule):
    prop_keys: Dict
    partial_charges: Any
    cutoff_lr: float
    ke: float = 14.399645351950548
    electrostatic_energy_scale: float = 1.0
    neighborlist_format: str = 'sparse'  # or 'ordered_sparse'
    module_name: str = 'electrostatic_energy'
    # regression_dim: int = None
    # activation_fn: Callable[[Any], Any] = lambda u: u
    # output_is_zero_at_init: bool = True
    # use_particle_mesh_ewald: bool = False
    # fractional_coordinates: bool = True
    # input_convention: str = 'positions'
    # module_usage: str = 'training'  # or 'simulation'

    @nn.compact
    def __call__(self, inputs: Dict, *args, **kwargs) -> Dict[str, jnp.ndarray]:
        node_mask = inputs['node_mask']  # (num_nodes)
        num_nodes = len(node_mask)
        idx_i_lr = inputs['idx_i_lr']
        idx_j_lr = inputs['idx_j_lr']
        d_ij_lr = inputs['d_ij_lr']
        # lr_cutoff = inputs['lr_cutoff']  # TODO: make a property of module?

        # Calculate partial charges
        partial_charges = self.partial_charges(inputs)['partial_charges']

        # If cutoff is set, we apply damping with error function with smoothing to zero at cutoff_lr.
        # We also apply force shifting to reduce discontinuity artifacts.
        if self.cutoff_lr is not None:
            # Calculate electrostatic energies per long-range edge
            atomic_electrostatic_energy_ij = coulomb_erf_shifted_force_smooth(
                partial_charges,
                d_ij_lr,
                idx_i_lr,
                idx_j_lr,
                kehalf=self.ke,
                sigma=self.electrostatic_energy_scale,
                cutoff=self.cutoff_lr,
                cuton=self.cutoff_lr * 0.45,
                neighborlist_format=self.neighborlist_format
            )
        # If no cutoff is set, we just apply damping with error function and no explicit smoothing to zero.
        else:
            # Calculate electrostatic energies per long-range edge
            atomic_electrostatic_energy_ij = coulomb_erf(
                partial_charges,
                d_ij_lr,
                idx_i_lr,
                idx_j_lr,
                kehalf=self.ke,
                sigma=self.electrostatic_energy_scale,
                neighborlist_format=self.neighborlist_format
            )

        # Calculate electrostatic atomic energies via summing over long-range neighbors
        atomic_electrostatic_energy = segment_sum(
            atomic_electrostatic_energy_ij,
            segment_ids=idx_i_lr,
            num_segments=num_nodes
        )  # (num_nodes)

        # Mask padded nodes
        atomic_electrostatic_energy = safe_scale(atomic_electrostatic_energy, node_mask)

        return dict(electrostatic_energy=atomic_electrostatic_energy)

    def reset_output_convention(self, output_convention):
        pass



# ---- scaffolding: a partial-charge module stand-in, a small long-range graph and a jitted energy call ----
class _PartialCharges(nn.Module):  # scaffolding: stands in for PartialChargesSparse (charges from node features)
    @nn.compact  # scaffolding
    def __call__(self, inputs):  # scaffolding
        q = nn.Dense(1)(inputs['x'])[:, 0]  # scaffolding
        return dict(partial_charges=q - q.mean())  # scaffolding


module = ElectrostaticEnergySparse(prop_keys={}, partial_charges=_PartialCharges(), cutoff_lr=None)  # scaffolding: no long-range cutoff (the coulomb_erf branch)
n, idx_i, idx_j = 4, jnp.array([0, 0, 1, 2, 3, 1]), jnp.array([1, 2, 3, 0, 2, 0])  # scaffolding
inputs = dict(x=jnp.ones((n, 3)) * jnp.arange(1.0, n + 1)[:, None], node_mask=jnp.ones(n, dtype=bool),  # scaffolding
              idx_i_lr=idx_i, idx_j_lr=idx_j, d_ij_lr=jnp.array([1.5, 2.0, 2.5, 2.0, 3.0, 1.5]))  # scaffolding

energy_fn = jax.jit(lambda params, inputs: module.apply(params, inputs)['electrostatic_energy'].sum())  # scaffolding: as the potential's jitted energy


calls = 0  # scaffolding
try:  # scaffolding
    params = module.init(jax.random.PRNGKey(0), inputs)  # scaffolding
    for k in range(3):  # scaffolding: three evaluations, e.g. MD steps
        e = energy_fn(params, dict(inputs, d_ij_lr=inputs['d_ij_lr'] + 0.1 * k))  # scaffolding
        calls += 1  # scaffolding
    print(float(e))  # scaffolding
    _report({"jit(<lambda>)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
