# source: https://github.com/XanaduAI/GradDFT/issues/99
# expect: trace-time-error at line 53
# runtime: ERROR TracerBoolConversionError
# why: Molecule is a flax struct passed through the jitted training kernel, so its omegas field is traced, and select_HF_omegas's `if o not in self.omegas` asks for the truth value of a traced comparison.
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


from typing import Callable, Optional, Tuple, Union

import jax
import numpy as np
import optax
from flax import struct
from jax import numpy as jnp
from jax import vmap
from jax.lax import Precision
from jaxtyping import Array, Float, PyTree, Scalar
from optax import GradientTransformation, OptState, apply_updates


@struct.dataclass
class Molecule:  # scaffolding: grad_dft/molecule.py's Molecule reduced to the fields used here (field order and types kept)
    ao: Float[Array, "grid orbitals"]
    rdm1: Float[Array, "spin orbitals orbitals"]
    omegas: Optional[Float[Array, "omega"]] = None
    chi: Optional[Float[Array, "grid omega spin orbitals"]] = None
    energy: Optional[Scalar] = None

    # grad_dft/molecule.py (GradDFT main, 941afc2), docstrings cut
    def select_HF_omegas(self, omegas: Float[Array, "omega"]) -> Array:
        if self.chi is None:
            raise ValueError("Precomputed chi tensor has not been loaded.")
        for o in omegas:
            if o not in self.omegas:
                raise ValueError(
                    f"The molecule.chi tensor does not contain omega value {o}, only {self.omegas}"
                )
        indices = [list(self.omegas).index(o) for o in omegas]
        chi = jnp.stack([self.chi[:, i] for i in indices], axis=1)
        return chi

    def HF_energy_density(self, omegas: Float[Array, "omega"], *args, **kwargs) -> Array:
        chi = self.select_HF_omegas(omegas)
        return HF_energy_density(self.rdm1, self.ao, chi, *args, **kwargs)


def HF_energy_density(
    rdm1: Float[Array, "spin orbitals orbitals"],
    ao: Float[Array, "grid orbitals"],
    chi: Float[Array, "grid omega spin orbitals"],
    precision: Precision = Precision.HIGHEST
) -> Float[Array, "omega spin grid"]:
    # return - jnp.einsum("rwsc,sac,ra->wsr", chi, rdm1, ao, precision=precision)/2
    _hf_energy = (
        lambda _chi, _rdm1, _ao: - jnp.einsum("wsc,sac,a->ws", _chi, _rdm1, _ao, precision=precision)
        / 2
    )
    return vmap(_hf_energy, in_axes=(0, None, 0), out_axes=2)(chi, rdm1, ao)


# grad_dft/train.py (GradDFT main, 941afc2), docstrings cut
def train_kernel(tx: GradientTransformation, loss: Callable) -> Callable:
    def kernel(
        params: PyTree, opt_state: OptState, atoms, ground_truth_energy: float, *args
    ) -> Tuple[PyTree, OptState, Scalar, Scalar]:
        (cost_value, predictedenergy), grads = loss(params, atoms, ground_truth_energy)

        updates, opt_state = tx.update(grads, opt_state, params)
        params = apply_updates(params, updates)

        return params, opt_state, cost_value, predictedenergy

    return kernel


OMEGAS = [0.0, 0.4]  # scaffolding: the range-separation parameters of the reporter's range-separated hybrid


def energy(params, molecule):  # scaffolding: a predicted energy built from the exact-exchange densities, as the reporter's functional does
    ehf = molecule.HF_energy_density(OMEGAS)  # scaffolding: omega spin grid
    return params["w"] * jnp.sum(ehf)  # scaffolding


def loss(params, molecule, ground_truth_energy):  # scaffolding: ((cost, predicted energy), grads) as grad_dft's losses return
    def cost(p):  # scaffolding
        predicted = energy(p, molecule)  # scaffolding
        return (predicted - ground_truth_energy) ** 2, predicted  # scaffolding
    return jax.value_and_grad(cost, has_aux=True)(params)  # scaffolding


rng = np.random.RandomState(0)  # scaffolding: a small molecule with precomputed chi for two omegas
n_grid, n_orb = 16, 4  # scaffolding
molecule = Molecule(ao=jnp.asarray(rng.randn(n_grid, n_orb)), rdm1=jnp.asarray(rng.randn(2, n_orb, n_orb)),  # scaffolding
                    omegas=jnp.asarray(OMEGAS), chi=jnp.asarray(rng.randn(n_grid, 2, 2, n_orb)),  # scaffolding
                    energy=jnp.asarray(-1.0))  # scaffolding
tx = optax.adam(1e-3)  # scaffolding
params = {"w": jnp.asarray(1.0)}  # scaffolding
opt_state = tx.init(params)  # scaffolding
kernel = jax.jit(train_kernel(tx, loss))  # scaffolding: as in GradDFT's examples (kernel = jax.jit(train_kernel(tx, loss)))
try:  # scaffolding
    # the reporter's train_epoch call (traceback, train.py line 418)
    params, opt_state, cost_val, metrics = kernel(params, opt_state, molecule, molecule.energy)
    _report({"jit(kernel)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
