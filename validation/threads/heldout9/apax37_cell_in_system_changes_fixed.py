# source: https://github.com/apax-hub/apax/pull/37
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the follow-up commit tests "cell" in system_changes, so calculate re-initializes (and recompiles) only when the atoms' numbers or cell actually change; steps that move atoms reuse the one compiled body_fn.

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
from functools import partial

import flax
import jax
import jax.numpy as jnp
import numpy as np

all_changes = ["positions", "numbers", "cell", "pbc", "initial_charges", "initial_magmoms"]  # scaffolding: ase.calculators.calculator.all_changes


class Calculator:  # scaffolding: minimal ase.calculators.calculator.Calculator
    def __init__(self, **kwargs):
        self.atoms = None
        self.results = {}

    def calculate(self, atoms=None, properties=["energy"], system_changes=all_changes):
        self.atoms = atoms


class Cell:  # scaffolding: ase.cell.Cell (orthorhombic)
    def __init__(self, lengths):
        self._lengths = np.asarray(lengths, float)

    def lengths(self):
        return self._lengths


class Atoms:  # scaffolding: minimal ase.Atoms
    def __init__(self, numbers, positions, cell):
        self.numbers = np.asarray(numbers)
        self.positions = np.asarray(positions, np.float32)
        self.cell = Cell(cell)

    def get_cell(self):
        return self.cell


class space:  # scaffolding: jax_md.space
    @staticmethod
    def periodic(box):
        def displacement(Ra, Rb):
            dR = Ra - Rb
            return dR - box * jnp.round(dR / box)

        return displacement, None


class NeighborList(flax.struct.PyTreeNode):  # scaffolding: jax_md.partition.NeighborList (dense, never overflows)
    idx: jnp.ndarray
    did_buffer_overflow: jnp.ndarray

    def update(self, positions):
        return self


class NeighborFn:  # scaffolding: jax_md neighbor_fn
    def allocate(self, positions):
        n = positions.shape[0]
        i, j = np.triu_indices(n, 1)
        return NeighborList(idx=jnp.stack([i, j]), did_buffer_overflow=jnp.array(False))


def get_md_model(atomic_numbers, displacement_fn, displacement, box_size, dr_threshold, **kwargs):  # scaffolding: Gaussian pair model
    def model(params, positions, neighbor):
        dR = jax.vmap(displacement_fn)(positions[neighbor.idx[0]], positions[neighbor.idx[1]])
        return params["eps"] * jnp.sum(jnp.exp(-jnp.sum(dR**2, axis=-1) / 4.0))

    return NeighborFn(), None, model


class Config:  # scaffolding: parsed model config
    class model:
        @staticmethod
        def dict():
            return {}


def build_energy_neighbor_fns(atoms, config, params, dr_threshold):
    atomic_numbers = jnp.asarray(atoms.numbers)
    box = jnp.asarray(atoms.get_cell().lengths())

    displacement_fn, _ = space.periodic(box)

    neighbor_fn, _, model = get_md_model(
        atomic_numbers=atomic_numbers,
        displacement_fn=displacement_fn,
        displacement=displacement_fn,
        box_size=box,
        dr_threshold=dr_threshold,
        **config.model.dict(),
    )
    energy_fn = partial(model, params)
    return energy_fn, neighbor_fn


class ASECalculator(Calculator):
    """
    DOES NOT SUPPORT CHANING PARTICLE NUMBERS DURING THE SIMULATION!
    """

    implemented_properties = ["energy", "forces"]

    def __init__(self, params, dr_threshold: float = 0.5, **kwargs):  # scaffolding: params passed instead of restored from model_dir
        Calculator.__init__(self, **kwargs)
        self.dr_threshold = dr_threshold
        self.model_config = Config()
        self.params = params

        self.step = None
        self.neighbor_fn = None
        self.neighbors = None

    def initialize(self, atoms):
        energy_fn, neighbor_fn = build_energy_neighbor_fns(
            atoms, self.model_config, self.params, self.dr_threshold
        )

        @jax.jit
        def body_fn(positions, neighbor):
            neighbor = neighbor.update(positions)
            energy, neg_forces = jax.value_and_grad(energy_fn)(positions, neighbor)
            forces = -neg_forces
            return energy, forces, neighbor

        self.step = body_fn
        self.neighbor_fn = neighbor_fn

    def calculate(self, atoms, properties=["energy"], system_changes=all_changes):
        Calculator.calculate(self, atoms, properties, system_changes)

        if self.step is None or "numbers" in system_changes or "cell" in system_changes:
            self.initialize(atoms)
            self.neighbors = self.neighbor_fn.allocate(atoms.positions)
            energy, forces, self.neighbors = self.step(atoms.positions, self.neighbors)

        energy, forces, self.neighbors = self.step(atoms.positions, self.neighbors)

        if self.neighbors.did_buffer_overflow:
            print("neighbor list overflowed, reallocating.")
            self.neighbors = self.neighbor_fn.allocate(atoms.positions)
            energy, forces, self.neighbors = self.step(atoms.positions, self.neighbors)

        self.results = {
            "energy": np.array(energy, dtype=np.float64).item(),
            "forces": np.array(forces, dtype=np.float64),
        }


calc = ASECalculator(params={"eps": jnp.array(1.0)})  # scaffolding
atoms = Atoms([1, 1], [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0]], cell=[10.0, 10.0, 10.0])  # scaffolding
for i in range(3):  # scaffolding: three MD steps moving the atoms
    atoms.positions = atoms.positions + np.float32(0.01)
    calc.calculate(atoms, system_changes=["positions"] if i else all_changes)
_report({"jit(body_fn)"}, 4)  # scaffolding
