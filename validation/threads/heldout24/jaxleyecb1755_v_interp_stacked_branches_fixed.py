# source: https://github.com/jaxleyverse/jaxley/commit/ecb1755dae17def6138a007be687246eff547a12
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the commit all branches are stacked and interpolated by one module-level v_interp = jit(vmap(jnp.interp)) call, whose shapes only depend on the cell, so it compiles once for the 3 moves.

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


from abc import ABC

import jax.numpy as jnp
import numpy as np
from jax import jit, vmap


class _Column(np.ndarray):  # scaffolding: pandas is not installed; a Series stand-in
    def to_numpy(self):  # scaffolding
        return np.asarray(self)  # scaffolding


class _Loc:  # scaffolding: DataFrame.loc[rows, cols] = values
    def __init__(self, df):  # scaffolding
        self.df = df  # scaffolding

    def __setitem__(self, key, values):  # scaffolding
        rows, cols = key  # scaffolding
        for j, c in enumerate(cols):  # scaffolding
            self.df.cols[c][np.asarray(rows)] = np.asarray(values)[:, j]  # scaffolding


class _DataFrame:  # scaffolding: stand-in for pandas.DataFrame
    def __init__(self, cols):  # scaffolding
        n = len(cols["comp_index"])  # scaffolding
        self.cols = {k: np.broadcast_to(np.asarray(v, dtype=float if k in "xyz" else int), (n,)).copy() for k, v in cols.items()}  # scaffolding
        self.loc = _Loc(self)  # scaffolding

    def __getitem__(self, k):  # scaffolding
        if isinstance(k, list):  # scaffolding
            return np.stack([self.cols[c] for c in k], axis=1)  # scaffolding
        return self.cols[k].view(_Column)  # scaffolding



# --- jaxley/utils/cell_utils.py (after the commit) ---
v_interp = jit(vmap(jnp.interp, in_axes=(None, None, 1)))


# --- jaxley/modules/base.py (after the commit) ---
class Module(ABC):
    def __init__(self, nseg, xyzr):  # scaffolding: the real Module builds these from branches/SWC
        self.nseg = nseg  # scaffolding
        self.xyzr = xyzr  # scaffolding
        n = len(xyzr) * nseg  # scaffolding
        self.nodes = _DataFrame({"comp_index": np.arange(n), "branch_index": np.arange(n) // nseg,  # scaffolding
                                   "x": np.nan, "y": np.nan, "z": np.nan})  # scaffolding

    def _update_nodes_with_xyz(self):
        """Add xyz coordinates to nodes."""
        num_branches = len(self.xyzr)
        x = np.linspace(
            0.5 / self.nseg,
            (num_branches * 1 - 0.5 / self.nseg),
            num_branches * self.nseg,
        )
        x += np.arange(num_branches).repeat(
            self.nseg
        )  # add offset to prevent branch loc overlap
        xp = np.hstack(
            [np.linspace(0, 1, x.shape[0]) + 2 * i for i, x in enumerate(self.xyzr)]
        )
        xyz = v_interp(x, xp, np.vstack(self.xyzr)[:, :3])
        idcs = self.nodes["comp_index"]
        self.nodes.loc[idcs, ["x", "y", "z"]] = xyz.T
        return xyz.T

    def move(
        self, x: float = 0.0, y: float = 0.0, z: float = 0.0, update_nodes: bool = True
    ):
        """Move cells or networks by adding to their (x, y, z) coordinates.

        This function is used only for visualization. It does not affect the simulation.
        """
        self._move(x, y, z, self.nodes, update_nodes)

    def _move(self, x: float, y: float, z: float, view, update_nodes: bool):
        # Need to cast to set because this will return one columnn per compartment,
        # not one column per branch.
        indizes = set(view["branch_index"].to_numpy().tolist())
        for i in indizes:
            self.xyzr[i][:, 0] += x
            self.xyzr[i][:, 1] += y
            self.xyzr[i][:, 2] += z
        if update_nodes:
            self._update_nodes_with_xyz()


# --- driver: a traced morphology whose branches have different numbers of SWC points --- scaffolding
_rng = np.random.default_rng(0)  # scaffolding
_xyzr = [np.cumsum(_rng.random((n, 4)), axis=0) for n in (2, 5, 9, 4, 7, 3)]  # scaffolding: 6 branches
cell = Module(nseg=4, xyzr=_xyzr)  # scaffolding
for _step in range(3):  # scaffolding: e.g. cell.move(...) while laying out a network
    cell.move(10.0 * _step, 0.0, 0.0)  # scaffolding
print(cell.nodes[["x", "y", "z"]][:2])  # scaffolding
_report({"jit(interp)"}, 3)  # scaffolding: 3 moves, one v_interp call each
