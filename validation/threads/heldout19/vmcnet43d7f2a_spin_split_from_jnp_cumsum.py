# source: https://github.com/jeffminlin/vmcnet/commit/43d7f2aeba3ca6908ad32907814949668ad39d6b
# expect: trace-time-error at line 154
# runtime: ERROR ConcretizationTypeError
# why: total_spin_split is computed with jnp.cumsum, which is staged out under jit, so the FermiNet built from it gets traced split indices and jnp.split raises when the model application is jitted.
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

import jax
import jax.numpy as jnp
import numpy as np  # scaffolding (used by the fix; unused before it)
import flax
from typing import Callable, Optional, Sequence, Tuple, Union  # scaffolding

SpinSplit = Union[int, Sequence[int]]  # scaffolding
WeightInitializer = Callable  # scaffolding
ArrayList = list  # scaffolding


def get_nelec_per_spin(spin_split, nelec_total):  # scaffolding: vmcnet helper
    if isinstance(spin_split, int):
        return [nelec_total // spin_split] * spin_split
    splits = [0] + list(spin_split) + [nelec_total]
    return [splits[i + 1] - splits[i] for i in range(len(splits) - 1)]


class InvariantTensor(flax.linen.Module):  # scaffolding: hidden particles per spin
    spin_split: SpinSplit
    output_shape_per_spin: Sequence[Tuple[int, int]]
    backflow: Callable
    kernel_initializer: WeightInitializer
    bias_initializer: WeightInitializer
    use_bias: bool = True
    register_kfac: bool = True

    @flax.linen.compact
    def __call__(self, x):
        pooled = jnp.mean(x, axis=-2)
        out = []
        for n, d in self.output_shape_per_spin:
            out.append(flax.linen.Dense(n * d)(pooled).reshape(x.shape[:-2] + (n, d)))
        return out


class FermiNet(flax.linen.Module):  # scaffolding: splits particles by spin, log|det| per spin
    spin_split: SpinSplit
    backflow: Callable
    ndeterminants: int
    kernel_initializer_orbital_linear: WeightInitializer
    kernel_initializer_envelope_dim: WeightInitializer
    kernel_initializer_envelope_ion: WeightInitializer
    bias_initializer_orbital_linear: WeightInitializer
    orbitals_use_bias: bool = True
    isotropic_decay: bool = False
    determinant_fn: Optional[Callable] = None

    @flax.linen.compact
    def __call__(self, x):
        parts = jnp.split(x, self.spin_split, axis=-2)
        out = 0.0
        for p in parts:
            orb = flax.linen.Dense(p.shape[-2])(p)
            out = out + jnp.linalg.slogdet(orb)[1]
        return out


class EmbeddedSlaveFermiNet(flax.linen.Module):
    spin_split: SpinSplit
    nhidden_particles_per_spin: Union[int, Sequence[int]]
    backflow: Callable[[jnp.ndarray], Tuple[jnp.ndarray, jnp.ndarray]]
    ndeterminants: int
    kernel_initializer_orbital_linear: WeightInitializer
    kernel_initializer_envelope_dim: WeightInitializer
    kernel_initializer_envelope_ion: WeightInitializer
    bias_initializer_orbital_linear: WeightInitializer
    invariance_backflow: Callable[[jnp.ndarray], Tuple[jnp.ndarray, jnp.ndarray]]
    invariance_kernel_initializer: WeightInitializer
    invariance_bias_initializer: WeightInitializer
    orbitals_use_bias: bool = True
    isotropic_decay: bool = False
    invariance_use_bias: bool = True
    invariance_register_kfac: bool = True
    determinant_fn: Optional[Callable[[ArrayList], jnp.ndarray]] = None

    def _get_total_nelec_per_spin(self, nelec_per_spin: Sequence[int]):
        if isinstance(self.nhidden_particles_per_spin, int):
            return [n + self.nhidden_particles_per_spin for n in nelec_per_spin]

        return [
            n + self.nhidden_particles_per_spin[i] for i, n in enumerate(nelec_per_spin)
        ]

    def _get_invariance_output_shape_per_spin(self, nspins: int, d: int):
        if isinstance(self.nhidden_particles_per_spin, int):
            return [(self.nhidden_particles_per_spin, d)] * nspins

        return [(n, d) for n in self.nhidden_particles_per_spin]

    def _get_invariant_tensor(self, output_shape_per_spin):
        return InvariantTensor(
            self.spin_split,
            output_shape_per_spin,
            self.invariance_backflow,
            self.invariance_kernel_initializer,
            self.invariance_bias_initializer,
            self.invariance_use_bias,
            self.invariance_register_kfac,
        )

    def _get_ferminet(self, total_spin_split: SpinSplit):
        return FermiNet(
            total_spin_split,
            self.backflow,
            self.ndeterminants,
            self.kernel_initializer_orbital_linear,
            self.kernel_initializer_envelope_dim,
            self.kernel_initializer_envelope_ion,
            self.bias_initializer_orbital_linear,
            self.orbitals_use_bias,
            self.isotropic_decay,
            self.determinant_fn,
        )

    @flax.linen.compact
    def __call__(self, elec_pos: jnp.ndarray) -> jnp.ndarray:
        real_nelec_total = elec_pos.shape[-2]
        d = elec_pos.shape[-1]
        real_nelec_per_spin = get_nelec_per_spin(self.spin_split, real_nelec_total)
        nspins = len(real_nelec_per_spin)

        invariance_output_shape_per_spin = self._get_invariance_output_shape_per_spin(
            nspins, d
        )
        invariance = self._get_invariant_tensor(invariance_output_shape_per_spin)

        total_nelec_per_spin = self._get_total_nelec_per_spin(real_nelec_per_spin)
        total_spin_split = tuple(jnp.cumsum(jnp.array(total_nelec_per_spin))[:-1])
        ferminet = self._get_ferminet(total_spin_split)

        split_input_particles = jnp.split(elec_pos, self.spin_split, axis=-2)
        split_hidden_particles = invariance(elec_pos)
        split_all_particles = [
            p
            for i in range(nspins)
            for p in [split_input_particles[i], split_hidden_particles[i]]
        ]
        joint_all_particles = jnp.concatenate(split_all_particles, axis=-2)

        return ferminet(joint_all_particles)


init = flax.linen.initializers.lecun_normal()  # scaffolding
model = EmbeddedSlaveFermiNet(  # scaffolding: 2 up + 2 down electrons, 1 hidden particle per spin
    (2,), 1, None, 1, init, init, init, flax.linen.initializers.zeros, None, init,
    flax.linen.initializers.zeros,
)
elec_pos = jax.random.normal(jax.random.PRNGKey(0), (8, 4, 3))  # scaffolding
params = model.init(jax.random.PRNGKey(1), elec_pos)  # scaffolding: eager init works
apply_fn = jax.jit(model.apply)  # scaffolding: the VMC loop jits the model application
try:  # scaffolding
    for step in range(3):  # scaffolding
        log_psi = apply_fn(params, elec_pos + 0.1 * step)
    _report({"jit(apply)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
