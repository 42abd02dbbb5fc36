# source: https://github.com/apax-hub/apax/pull/43
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: With the PR's condition ("cell" in system_changes) the calculator initialises once and reuses the jitted body_fn for every later step.

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
from dataclasses import dataclass, field  # scaffolding
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

# scaffolding: ase, jax_md and the gmnn model are not installed. all_changes and Calculator mimic
# ase.calculators.calculator; the neighbour list is a pytree with update/did_buffer_overflow as in
# jax_md; the energy is a small pair potential standing in for the GMNN model.
all_changes = ["positions", "numbers", "cell", "pbc", "initial_charges", "initial_magmoms"]


class Calculator:
    def __init__(self, **kwargs):
        self.results = {}

    def calculate(self, atoms, properties, system_changes):
        pass


@jax.tree_util.register_dataclass
@dataclass
class NeighborList:
    idx: jax.Array
    did_buffer_overflow: bool = field(default=False, metadata=dict(static=True))

    def update(self, positions):
        return self


class NeighborFn:
    def allocate(self, positions):
        n = positions.shape[0]
        return NeighborList(idx=jnp.array([(i, j) for i in range(n) for j in range(n) if i != j]))


class Atoms:
    def __init__(self, positions):
        self.positions = positions
        self.numbers = np.ones(len(positions), dtype=int)


def build_energy_neighbor_fns(atoms, config, params, dr_threshold):
    def model(params, positions, neighbor):
        d = positions[neighbor.idx[:, 0]] - positions[neighbor.idx[:, 1]]
        r2 = jnp.sum(d**2, axis=-1)
        return params["eps"] * jnp.sum(1.0 / r2**6 - 1.0 / r2**3)

    energy_fn = partial(model, params)
    return energy_fn, NeighborFn()


class ASECalculator(Calculator):
    """
    DOES NOT SUPPORT CHANING PARTICLE NUMBERS DURING THE SIMULATION!
    """

    implemented_properties = ["energy", "forces"]

    def __init__(self, model_dir=None, dr_threshold: float = 0.5, **kwargs):
        Calculator.__init__(self, **kwargs)
        self.dr_threshold = dr_threshold
        self.model_config = None  # scaffolding: config.yaml and checkpoint loading removed
        self.params = {"eps": jnp.asarray(0.01)}

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


# scaffolding: a short MD-like loop; ASE passes system_changes=["positions"] after the first step
calc = ASECalculator()
positions = np.array([[0.0, 0.0, 0.0], [1.1, 0.0, 0.0], [0.0, 1.2, 0.0]])
calls = 0
for step in range(4):
    atoms = Atoms(positions + 0.01 * step)
    calc.calculate(atoms, system_changes=all_changes if step == 0 else ["positions"])
    calls += 1
_report({"jit(body_fn)"}, calls)
