# source: https://github.com/SparkyTruck/deepmd-jax/commit/d87bf87b2d0ac3298c00698b7f40ef8f4fec4530
# expect: stale-closure at line 171
# runtime: COMPILES 1 CALLS 2
# why: energy_fn reads self._static_args (lattice images from the current box) while e_and_f_and_s is traced once; calculate() updates self._static_args when the cell changes, but the jitted function keeps the first box's images, so the energy after the cell shrinks is stale (0.393 vs 0.689 from a fresh calculator).
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


from typing import List, Optional
import sys

# import jax_md  # scaffolding: jax_md is not installed; the one function used (quantity.stress) is stood in below
import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn
import gc
from time import time
# from ase import io, Atoms  # scaffolding: ase is not installed; stand-ins below
from jax.sharding import PartitionSpec as PSpec
# from ase.calculators.calculator import Calculator, all_changes  # scaffolding: stand-ins below
from jax import vmap  # deepmd_jax/data.py's import
from types import SimpleNamespace  # scaffolding


# ---- scaffolding: minimal stand-ins for ase and jax_md ----
all_changes = ["positions", "numbers", "cell", "pbc"]  # scaffolding


class Calculator:  # scaffolding: ase.calculators.calculator.Calculator, only what DPJaxCalculator uses
    def __init__(self, *args, **kwargs):  # scaffolding
        self.results = {}  # scaffolding

    def get_potential_energy(self, atoms):  # scaffolding
        if not hasattr(self, "results"):  # scaffolding: ASE keeps a results dict on the calculator
            self.results = {}  # scaffolding
        self.calculate(atoms)  # scaffolding
        return self.results["energy"]  # scaffolding


class _Cell:  # scaffolding
    def __init__(self, c):  # scaffolding
        self.c = np.array(c, dtype=float)  # scaffolding


class Atoms:  # scaffolding: ase.Atoms with positions and an upper-triangular cell
    def __init__(self, positions, cell):  # scaffolding
        self.positions = np.array(positions, dtype=float)  # scaffolding
        self.cell = _Cell(cell)  # scaffolding

    def copy(self):  # scaffolding
        return Atoms(self.positions.copy(), self.cell.c.copy())  # scaffolding

    def get_cell(self, complete=True):  # scaffolding
        return self.cell.c  # scaffolding

    def get_positions(self):  # scaffolding
        return self.positions  # scaffolding

    def set_cell(self, cell, scale_atoms=True):  # scaffolding: scales positions with the cell, as ASE does
        frac = self.positions @ np.linalg.inv(self.cell.c)  # scaffolding
        self.cell = _Cell(cell)  # scaffolding
        self.positions = frac @ self.cell.c  # scaffolding


def _stress(energy_fn, R, box, velocity=None, **kwargs):  # scaffolding: jax_md.quantity.stress without kinetic term
    I = jnp.eye(3, dtype=R.dtype)  # scaffolding
    dUdH = jax.grad(lambda p: energy_fn(R, box, perturbation=p, **kwargs))(I)  # scaffolding
    return -dUdH / jnp.abs(jnp.linalg.det(box))  # scaffolding


jax_md = SimpleNamespace(quantity=SimpleNamespace(stress=_stress))  # scaffolding


class _PairModel:  # scaffolding: stands in for the trained DP model; a pair energy summed over the lattice images listed in static_args
    params = {'ntypes': 1, 'rcut': 3.0, 'type': 'energy'}  # scaffolding

    def apply(self, variables, coord, box, static_args, nbrs_nm=None):  # scaffolding
        shifts = jnp.array(static_args['lattice']['lattice_cand'], dtype=coord.dtype) @ box  # scaffolding: (L,3) image shifts
        d = coord[None, None, :, :] + shifts[:, None, None, :] - coord[None, :, None, :]  # scaffolding: (L,N,N,3)
        r = jnp.sqrt(jnp.sum(d * d, axis=-1) + 1e-12)  # scaffolding
        w = jnp.where((r < self.params['rcut']) & (r > 1e-3), (1 - r / self.params['rcut']) ** 2, 0.0)  # scaffolding
        return (variables['eps'] * 0.5 * jnp.sum(w),)  # scaffolding


def load_model(model_path):  # scaffolding: deepmd_jax.utils.load_model stand-in
    return _PairModel(), {'eps': 1.0}  # scaffolding


# ---- deepmd_jax/data.py ----
def compute_lattice_candidate(boxes, rcut): # boxes (nframes,3,3)
    N = 2  # This algorithm is heuristic and subject to change. Increase N in case of missing neighbors.
    ortho = not vmap(lambda box: box - jnp.diag(jnp.diag(box)))(boxes).any()
    recp_norm = jnp.linalg.norm((jnp.linalg.inv(boxes)), axis=-1)    # (nframes,3)
    n = np.ceil(rcut * recp_norm - 0.5).astype(int).max(0)           # (3,)
    lattice_cand = jnp.stack(np.meshgrid(range(-n[0],n[0]+1),range(-n[1],n[1]+1),range(-n[2],n[2]+1),indexing='ij'),axis=-1).reshape(-1,3)
    trial_points = jnp.stack(np.meshgrid(np.arange(-N,N+1),np.arange(-N,N+1),np.arange(-N,N+1)),axis=-1).reshape(-1,3) / (2*N)
    is_neighbor = jnp.linalg.norm((lattice_cand[:,None]-trial_points)[None] @ boxes[:,None], axis=-1) < rcut  # (nframes,l,t)
    lattice_cand = np.array(lattice_cand[is_neighbor.any((0,2))])
    lattice_max = is_neighbor.sum(1).max().item()
    print('# Lattice vectors for neighbor images: Max %d out of %d candidates.' % (lattice_max, len(lattice_cand)))
    return {'lattice_cand': tuple(map(tuple, lattice_cand)), 'lattice_max': lattice_max, 'ortho': ortho}


# ---- deepmd_jax/md.py ----
class DPJaxCalculator(Calculator):
    implemented_properties = ["energy", "forces", "stress"]

    def __init__(self, 
            model_path,
            type_idx = None, 
            dtype=jnp.float32,
            **kwargs):

        self.atoms = None
        self.use_cache = False
        self._dtype = dtype

        self._model, self._variables = load_model(model_path)

        self._type_idx = type_idx.astype(int)
        type_count = np.bincount(self._type_idx)
        self._type_count = np.pad(type_count, (0, self._model.params['ntypes'] - len(type_count)))

        self._energy_and_forces_fn = self._get_energy_and_forces_fn()
        print("Initializing the DPJaxCalculator")

    def _get_energy_and_forces_fn(self, model_and_variables=None):
        if model_and_variables is None:
            model_and_variables = (self._model, self._variables)
        model, variables = model_and_variables

        def energy_fn(coord, box, nbrs_nm=None, perturbation=None, **kwargs):
            '''
                Energy function that can be used in jax_md.simulate routines.
                You can customize the energy function here, i.e. if you want to add perturbations.
            '''
            # Atoms are reordered and grouped by type in neural network inputs
            coord = coord[self._type_idx.argsort(kind='stable')]
            # perturbation = 1, required by jax-md stress calculation
            if perturbation is not None:
                coord = coord @ perturbation
                box = box @ perturbation
            # Ensure coord and box is replicated on all devices
            if len(jax.devices()) > 1:
                coord = jax.lax.with_sharding_constraint(coord, PSpec())
                box = jax.lax.with_sharding_constraint(box, PSpec())

            # Energy calculation
            E = model.apply(variables,
                            coord,
                            box,
                            self._static_args,
                            nbrs_nm)[0]
            return E

        def stress_fn(coord, box, **kwargs):
            return jax_md.quantity.stress(
                        energy_fn,
                        coord,
                        box,
                        velocity=None,
                        nbrs_nm=None,
                    ) 

        def e_and_f_and_s(coords, box, **kwargs):
            e, grad = jax.value_and_grad(energy_fn)(coords, box, **kwargs)
            stress = stress_fn(coords, box, **kwargs)
            stress_voigt = jnp.array([
                stress[0, 0],
                stress[1, 1],
                stress[2, 2],
                stress[1, 2],  
                stress[0, 2], 
                stress[0, 1], 
                ], dtype=self._dtype)
            # Note the minus sign in the stress below, to match ASE's convention
            # Also, the off-diagonal components have not been tested
            return e, -grad, -stress_voigt

        return jax.jit(e_and_f_and_s, static_argnames=())


    def _get_static_args(self, position):
        '''
            Returns a FrozenDict of the complete set of static arguments for jit compilation.
        '''
        box = self._current_box
        lattice_args = compute_lattice_candidate(box[None], self._model.params['rcut'])
        static_args = nn.FrozenDict({'type_count':self._type_count, 'lattice':lattice_args, 'use_neighbor_list':False})
        return static_args

    def calculate(self, atoms=None, properties=None, system_changes=all_changes):

        if atoms is not None:
            self.atoms = atoms.copy()

        cell = np.asarray(self.atoms.get_cell(complete=True))  # Use complete=True for (3,3)
        ## Check if cell is upper triangular and write an warning message, if it is not
        is_upper = np.allclose(cell[np.tril_indices(3, k=-1)], 0, atol=1e-8)
        if not is_upper:
            self.atoms.set_cell(self.atoms.cell.standard_form(form="upper")[0], scale_atoms=True)
            cell = np.asarray(self.atoms.get_cell(complete=True))  # Use complete=True for (3,3)
            print("# Warning: Box is not upper triangular - code behavior needs further testing")
        box = jnp.array(cell, dtype=self._dtype)
        self._current_box = box

        # Get positions and cell from ASE
        pos = self.atoms.get_positions()  # (N,3), in Å
        self._natoms = pos.shape[0]
        coords = jnp.array(pos, dtype=self._dtype)

        self._static_args = self._get_static_args(coords)

        E, F, S = self._energy_and_forces_fn(
            coords,
            box,
            )

        # Convert JAX arrays to numpy
        self.results["energy"] = float(E)
        self.results["forces"] = np.asarray(F)
        self.results["stress"] = np.asarray(S)


# scaffolding: an ASE-style run where the cell shrinks between two calls (as in a cell relaxation or NPT run)
pos = np.array([[0.5, 0.5, 0.5], [2.0, 0.7, 0.6], [1.0, 2.6, 0.9], [3.1, 3.2, 3.4]])  # scaffolding
atoms = Atoms(pos * 2.5, np.eye(3) * 10.0)  # scaffolding: a 10 A box, no periodic image within rcut
calc = DPJaxCalculator("model.pkl", type_idx=np.zeros(4, dtype=int))  # scaffolding
try:  # scaffolding
    e_big = calc.get_potential_energy(atoms)  # scaffolding
    atoms.set_cell(np.eye(3) * 4.0, scale_atoms=True)  # scaffolding: the box shrinks to 4 A, images now within rcut
    e_small = calc.get_potential_energy(atoms)  # scaffolding
    with jax.disable_jit():  # scaffolding: reference value from a fresh calculator, not jitted (no compile counted)
        e_ref = DPJaxCalculator("model.pkl", type_idx=np.zeros(4, dtype=int)).get_potential_energy(atoms)  # scaffolding
    print(f"energy after the cell change: {e_small:.6f}, fresh calculator: {e_ref:.6f}, stale: {not np.isclose(e_small, e_ref)}")  # scaffolding
    _report({"jit(e_and_f_and_s)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
