# source: https://github.com/SparkyTruck/deepmd-jax/blob/735b8625364c3e442c4feb390a1c1799fe5fb83c/deepmd_jax/train.py
# expect: shape-churn at line 144
# runtime: COMPILES 2 CALLS 3
# why: test() evaluates the data in batches of bs = min(batch_size, remaining), so with 10 frames and batch_size=4 the last batch has 2 frames and the jitted, vmapped evaluate_fn compiles again for the new leading dimension (2 compiles for 3 batches).
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


# deepmd_jax/train.py (imports and test())
import jax
import optax
import numpy as np
import jax.numpy as jnp
import time, datetime
import flax.linen as nn
from functools import partial
# from .utils import get_p3mlr_fn, get_p3mlr_grid_size, load_model, save_model, compress_model, save_dataset  # scaffolding: stand-ins below
# from .data import DPDataset, EXTXYZDataset  # scaffolding: stand-ins below
# from .dpmodel import DPModel  # scaffolding: not needed by test()
from typing import Union, List
import tempfile
import os


# ---- scaffolding: stand-ins for the trained model and the DeePMD-format dataset ----
class _Model:  # scaffolding: a pair-potential model with DPModel's energy_and_force signature
    params = {'type': 'energy', 'rcut': 3.0}  # scaffolding

    def energy_and_force(self, variables, coord, box, static_args):  # scaffolding
        def energy(c):  # scaffolding
            d = c[:, None, :] - c[None, :, :]  # scaffolding
            r2 = jnp.sum(d * d, -1) + jnp.eye(c.shape[0])  # scaffolding
            return variables['eps'] * jnp.sum(jnp.triu(1.0 / r2, 1))  # scaffolding
        e, g = jax.value_and_grad(energy)(coord)  # scaffolding
        return e, -g  # scaffolding


def load_model(model_path, replicate=False):  # scaffolding: deepmd_jax.utils.load_model stand-in
    return _Model(), {'eps': 0.1}  # scaffolding


class DPDataset:  # scaffolding: one system of 10 frames of 4 atoms, with the methods test() uses
    def __init__(self, paths, labels, params):  # scaffolding
        rs = np.random.RandomState(0)  # scaffolding
        self.nframes = 10  # scaffolding
        self.type = np.zeros(4, dtype=int)  # scaffolding
        self.data = {'coord': rs.rand(10, 4, 3).astype(np.float32) * 3, 'box': np.tile(np.eye(3, dtype=np.float32) * 5, (10, 1, 1)),  # scaffolding
                     'energy': rs.rand(10).astype(np.float32), 'force': rs.rand(10, 4, 3).astype(np.float32)}  # scaffolding
        self.pointer = 0  # scaffolding

    def compute_lattice_candidate(self, rcut):  # scaffolding
        self.lattice_args = {'lattice_cand': ((0, 0, 0),), 'lattice_max': 1, 'ortho': True}  # scaffolding

    def get_batch(self, batch_size, type='frame'):  # scaffolding: sequential frames, as DPDataset does after pointer = 0
        sl = slice(self.pointer, self.pointer + batch_size)  # scaffolding
        self.pointer += batch_size  # scaffolding
        return {k: v[sl] for k, v in self.data.items()}, (4,), self.lattice_args  # scaffolding


EXTXYZDataset = DPDataset  # scaffolding


def test(
    model_path: str,
    data_path: str,
    batch_size: int = 1,
):
    '''
        Testing a trained model on a **single** dataset.
        Input arguments:
            model_path: path to the trained model.
            data_path: path to the data for evaluation.
            batch_size: Increase for potentially faster evaluation, but requires more memory.
    '''
    if type(data_path) == list:
        raise ValueError('Data_path should be a single string path for now.')

    if jax.device_count() > 1:
        print('# Note: Currently only one device will be used for evaluation.')
    
    model, variables = load_model(model_path, replicate=False)
    if model.params['type'] == 'energy' or model.params['type'] == 'dplr':
        labels = ['coord', 'box', 'force', 'energy']
        atomic_sel = None
    elif 'atomic' in model.params['type']:
        labels = ['coord', 'box', model.params['atomic_data_prefix']]
        atomic_sel = model.params['nsel']
    else:
        raise ValueError('Model type should be "energy", "atomic", "atomic_t2", or "dplr".')
    if isinstance(data_path, str) and data_path.lower().endswith(('.xyz', '.extxyz')):
        test_data = EXTXYZDataset([data_path],
                                   labels,
                                   {'atomic_sel':atomic_sel})
    else:
        test_data = DPDataset([data_path],
                               labels,
                               {'atomic_sel':atomic_sel})
    test_data.compute_lattice_candidate(model.params['rcut'])
    if 'dplr' in model.params['type']:
        subsets = test_data.get_flattened_data()
        for subset in subsets:
            process_long_range_subset(subset,
                                      model.params['dplr_q_atoms'],
                                      model.params['dplr_q_wc'],
                                      model.params['dplr_beta'],
                                      model.params['dplr_resolution'],
                                      *model.params['dplr_wannier_model_and_variables'])
    test_data.pointer = 0
    remaining = test_data.nframes
    if model.params['type'] == 'energy' or model.params['type'] == 'dplr':
        evaluate_fn = model.energy_and_force
        predictions = {'energy': [], 'force': []}
        ground_truth = {'energy': [], 'force': []}
    else:
        evaluate_fn = lambda variables, coord, box, static_args: model.apply(variables, coord, box, static_args)
        predictions = {model.params['atomic_data_prefix']: []}
        ground_truth = {model.params['atomic_data_prefix']: []}
    evaluate_fn = jax.jit(jax.vmap(evaluate_fn,
                                   in_axes=(None,0,0,None)),
                                   static_argnames=('static_args',))
    while remaining > 0:
        bs = min(batch_size, remaining)
        batch, type_count, lattice_args = test_data.get_batch(bs)
        remaining -= bs
        static_args = nn.FrozenDict({'type_count': type_count, 'lattice': lattice_args})
        pred = evaluate_fn(variables, batch['coord'], batch['box'], static_args)
        if model.params['type'] == 'energy' or model.params['type'] == 'dplr':
            predictions['energy'].append(pred[0])
            predictions['force'].append(pred[1])
            ground_truth['energy'].append(batch['energy'])
            ground_truth['force'].append(batch['force'])
        else:
            predictions[model.params['atomic_data_prefix']].append(pred[0])
            ground_truth[model.params['atomic_data_prefix']].append(batch['atomic'])
    rmse = {}
    mae = {}
    l1_mixed = {}
    for key in predictions.keys():
        predictions[key] = np.concatenate(predictions[key], axis=0)
        ground_truth[key] = np.concatenate(ground_truth[key], axis=0)
        rmse[key] = (((predictions[key] - ground_truth[key]) ** 2).mean() ** 0.5).item()
        mae[key] = np.abs(predictions[key] - ground_truth[key]).mean().item()
    # reorder force back; will delete in future when reordering is moved into dpmodel.py
    if model.params['type'] == 'energy' or model.params['type'] == 'dplr':
        ground_truth['force'] = ground_truth['force'][:, test_data.type.argsort(kind='stable').argsort(kind='stable')]
        predictions['force'] = predictions['force'][:, test_data.type.argsort(kind='stable').argsort(kind='stable')]
        natoms = predictions['force'].shape[1]
        rmse['energy'] /= natoms
        mae['energy'] /= natoms
        l1_mixed['energy'] = (np.abs(predictions['energy'] - ground_truth['energy']).mean() / natoms).item()
        l1_mixed['force'] = (((predictions['force'] - ground_truth['force'])**2).mean(-1)**0.5).mean().item()
    else:
        key = model.params['atomic_data_prefix']
        l1_mixed[key] = (((predictions[key] - ground_truth[key])**2).mean(-1)**0.5).mean().item()
    return rmse, mae, l1_mixed, predictions, ground_truth
        

try:  # scaffolding
    rmse, mae, l1_mixed, predictions, ground_truth = test("model.pkl", "data/", batch_size=4)  # scaffolding: 10 frames in batches of 4
    print(rmse)  # scaffolding
    _report({"jit(energy_and_force)"}, 3)  # scaffolding: batches of 4, 4 and 2 frames
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
