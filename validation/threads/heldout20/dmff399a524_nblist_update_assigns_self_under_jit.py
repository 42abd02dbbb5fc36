# source: https://github.com/deepmodeling/DMFF/commit/399a524735df6bf2e74af245c98cdb81ba38de84
# expect: stale-closure at line 129
# runtime: ERROR UnexpectedTracerError
# why: With the overflow check commented out the jitted update traces, but it assigns the traced list to self.nblist, so the wrapper keeps a leaked tracer and reading nbl.pairs afterwards raises UnexpectedTracerError.

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


import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit

DO_JIT = True  # scaffolding: dmff.settings


# dmff/utils.py
def jit_condition(*args, **kwargs):
    def jit_deco(func):
        if DO_JIT:
            return jit(func, *args, **kwargs)
        else:
            return func

    return jit_deco


@jit_condition()
@jax.vmap
def regularize_pairs(p):
    dp = p[1] - p[0]
    dp = jnp.piecewise(dp, (dp<=0, dp>0), (lambda x: jnp.array(1), lambda x: jnp.array(0)))
    dp_vec = jnp.array([dp, 2*dp])
    p = p - dp_vec
    return p


# --- scaffolding: a small stand-in for jax_md.space / jax_md.partition (not installed) ---
class space:
    @staticmethod
    def periodic_general(box, fractional_coordinates=False):
        def displacement(Ra, Rb):
            d = Ra - Rb
            return d - jnp.diag(box) * jnp.round(d / jnp.diag(box))
        return displacement, None


@partial(jax.tree_util.register_dataclass, data_fields=["idx", "reference_position", "did_buffer_overflow"], meta_fields=["update_fn"])
@dataclasses.dataclass
class _NeighborList:
    idx: jax.Array
    reference_position: jax.Array
    did_buffer_overflow: jax.Array
    update_fn: object

    def update(self, position):
        return self.update_fn(position, self)


class partition:
    OrderedSparse = "OrderedSparse"

    @staticmethod
    def neighbor_list(displacement, box, rc, dr_threshold, format=None):
        def pairs_within(position, capacity):
            n = position.shape[0]
            d = jax.vmap(jax.vmap(displacement, (None, 0)), (0, None))(position, position)
            close = (jnp.sum(d**2, -1) < rc**2) & (jnp.arange(n)[:, None] < jnp.arange(n)[None, :])
            i, j = jnp.nonzero(close, size=capacity, fill_value=n)
            return jnp.stack([i, j]), jnp.sum(close) > capacity

        def update_fn(position, nbrs):
            idx, overflow = pairs_within(position, nbrs.idx.shape[1])
            return _NeighborList(idx, position, overflow, nbrs.update_fn)

        class fns:
            @staticmethod
            def allocate(position):
                n = position.shape[0]
                cap = int(np.ceil(1.25 * int(jnp.sum(jnp.triu(jnp.sum(jax.vmap(jax.vmap(displacement, (None, 0)), (0, None))(position, position) ** 2, -1) < rc**2, 1)))))
                idx, overflow = pairs_within(position, cap)
                return _NeighborList(idx, position, overflow, update_fn)

        return fns


# dmff/common/nblist.py (docstrings left out)
class NeighborList:

    def __init__(self, box, rc) -> None:
        self.box = box
        self.rc = rc
        self.displacement_fn, self.shift_fn = space.periodic_general(box, fractional_coordinates=False)
        self.neighborlist_fn = partition.neighbor_list(self.displacement_fn, box, rc, 0, format=partition.OrderedSparse)
        self.nblist = None

    def allocate(self, positions: jnp.ndarray):
        if self.nblist is None:
            self.nblist = self.neighborlist_fn.allocate(positions)
        else:
            self.update(positions)
        return self.nblist

    def update(self, positions: jnp.ndarray):
        # jit_deco = jit_condition()
        # jit_deco(self.nblist.update)(positions)
        self.nblist = self.nblist.update(positions)
        # if self.nblist.did_buffer_overflow:
        #     self.nblist = self.neighborlist_fn.allocate(positions)
        return self.nblist

    @property
    def pairs(self):
        return self.nblist.idx.T

    @property
    def pair_mask(self):

        mask = jnp.sum(self.pairs == len(self.positions), axis=1)
        mask = jnp.logical_not(mask)
        pair = regularize_pairs(self.pairs)

        return pair, mask

    @property
    def positions(self):
        return self.nblist.reference_position

    @property
    def dr(self):
        pair, _ = self.pair_mask
        return self.positions[pair[:, 0]] - self.positions[pair[:, 1]]

    @property
    def distance(self):
        return jnp.linalg.norm(self.dr, axis=1)


box = jnp.eye(3) * 2.0  # scaffolding: 32 particles in a periodic box, 4 MD-like updates
positions = jax.random.uniform(jax.random.PRNGKey(0), (32, 3), maxval=2.0)
nbl = NeighborList(box, 0.6)
nbl.allocate(positions)
update = jax.jit(nbl.update)  # scaffolding: the jitted update the commit title asks for
calls = 0
try:  # scaffolding
    for step in range(4):
        positions = positions + 0.01 * jax.random.normal(jax.random.PRNGKey(step + 1), positions.shape)
        nblist = update(positions)
        calls += 1
    pairs = nbl.pairs + 0  # scaffolding: read the wrapper's pairs afterwards, as the force code does
    _report({"jit(update)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
