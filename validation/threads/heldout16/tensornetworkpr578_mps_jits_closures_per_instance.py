# source: https://github.com/google/TensorNetwork/pull/578
# expect: jit-in-loop-or-body at line 92
# runtime: COMPILES 3 CALLS 9
# why: BaseMPS.__init__ defines qr_decomposition (and the other helpers) as closures and jits them per instance, so every new MPS gets a fresh jitted function: three MPS of identical shapes compile qr_decomposition three times for 9 calls.
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
from typing import Any, List, Optional, Text, Union
import types  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np

Tensor = Any


class BaseBackend:  # scaffolding: the JAX backend methods BaseMPS uses
  name = "jax"  # scaffolding
  def jit(self, fun, *args, **kwargs): return jax.jit(fun, *args, **kwargs)  # scaffolding
  def convert_to_tensor(self, t): return jnp.asarray(t)  # scaffolding
  def norm(self, t): return jnp.linalg.norm(t)  # scaffolding
  def qr_decomposition(self, t, split_axis):  # scaffolding
    l, r = t.shape[:split_axis], t.shape[split_axis:]  # scaffolding
    q, rr = jnp.linalg.qr(jnp.reshape(t, (int(np.prod(l)), int(np.prod(r)))))  # scaffolding
    return jnp.reshape(q, l + (q.shape[1],)), jnp.reshape(rr, (rr.shape[0],) + r)  # scaffolding
  def rq_decomposition(self, t, split_axis):  # scaffolding
    q, r = self.qr_decomposition(jnp.transpose(t), t.ndim - split_axis)  # scaffolding
    return jnp.transpose(r), jnp.transpose(q)  # scaffolding


_CONTRACTIONS = {((-1, 1), (1, -2, -3)): "ab,bcd->acd", ((-1, -2, 1), (1, -3)): "abc,cd->abd"}  # scaffolding


def ncon(tensors, network_structure, backend=None):  # scaffolding: ncon for the two contractions used
  return jnp.einsum(_CONTRACTIONS[tuple(tuple(l) for l in network_structure)], *tensors)  # scaffolding


get_default_backend = lambda: "jax"  # scaffolding
backend_factory = types.SimpleNamespace(get_backend=lambda b: BaseBackend())  # scaffolding


# tensornetwork/matrixproductstates/base_mps.py as changed by PR #578 (9b6995bd; docstrings cut)
class BaseMPS:
  def __init__(self,
               tensors: List[Tensor],
               center_position: Optional[int] = 0,
               connector_matrix: Optional[Tensor] = None,
               backend: Optional[Union[Text, BaseBackend]] = None) -> None:
    if center_position < 0 or center_position >= len(tensors):
      raise ValueError(
          'center_position = {} not between 0 <= center_position < {}'.format(
              center_position, len(tensors)))
    if backend is None:
      backend = get_default_backend()
    if isinstance(backend, BaseBackend):
      self.backend = backend
    else:
      self.backend = backend_factory.get_backend(backend)

    # the dtype is deduced from the tensor object.
    self.tensors = [self.backend.convert_to_tensor(t) for t in tensors]
    self.connector_matrix = connector_matrix
    self.center_position = center_position

    ########################################################################
    ##########       define functions for jitted operations       ##########
    ########################################################################
    def qr_decomposition(tensor):
      return self.backend.qr_decomposition(tensor, 2)

    self.qr_decomposition = self.backend.jit(qr_decomposition)

    def rq_decomposition(tensor):
      return self.backend.rq_decomposition(tensor, 1)

    self.rq_decomposition = self.backend.jit(rq_decomposition)

    def left_transfer_operator(A, l, Abar):
      return ncon([A, l, Abar], [[1, 2, -1], [1, 3], [3, 2, -2]],
                  backend=self.backend.name)

    self.left_transfer_operator = self.backend.jit(left_transfer_operator)

    def right_transfer_operator(B, r, Bbar):
      return ncon([B, r, Bbar], [[-1, 2, 1], [1, 3], [-2, 2, 3]],
                  backend=self.backend.name)

    self.right_transfer_operator = self.backend.jit(right_transfer_operator)

    def lcontract(R, tensor):
      return ncon([R, tensor], [[-1, 1], [1, -2, -3]],
                  backend=self.backend.name)

    self.lcontract = self.backend.jit(lcontract)

    def rcontract(tensor, R):
      return ncon([tensor, R], [[-1, -2, 1], [1, -3]],
                  backend=self.backend.name)

    self.rcontract = self.backend.jit(rcontract)
    self.norm = self.backend.jit(self.backend.norm)
    ########################################################################
    ########################################################################
    ########################################################################

  def __len__(self):
    return len(self.tensors)

  def position(self, site: int, normalize: Optional[bool] = True) -> np.number:
    #`site` has to be between 0 and len(mps) - 1
    if site >= len(self.tensors) or site < 0:
      raise ValueError('site = {} not between values'
                       ' 0 < site < N = {}'.format(site, len(self)))
    #nothing to do
    if site == self.center_position:
      Z = self.norm(self.tensors[self.center_position])
      if normalize:
        self.tensors[self.center_position] /= Z
      return Z

    #shift center_position to the right using QR decomposition
    if site > self.center_position:
      n = self.center_position
      for n in range(self.center_position, site):
        Q, R = self.qr_decomposition(self.tensors[n])
        self.tensors[n] = Q
        self.tensors[n + 1] = self.lcontract(R, self.tensors[n + 1])
        Z = self.norm(self.tensors[n + 1])
        # for an mps with > O(10) sites one needs to normalize to avoid
        # over or underflow errors; this takes care of the normalization
        if normalize:
          self.tensors[n + 1] /= Z

      self.center_position = site

    #shift center_position to the left using RQ decomposition
    else:
      for n in reversed(range(site + 1, self.center_position + 1)):

        R, Q = self.rq_decomposition(self.tensors[n])
        # for an mps with > O(10) sites one needs to normalize to avoid
        # over or underflow errors; this takes care of the normalization
        self.tensors[n] = Q  #Q is a right-isometric tensor of rank 3
        self.tensors[n - 1] = self.rcontract(self.tensors[n - 1], R)
        Z = self.norm(self.tensors[n - 1])
        if normalize:
          self.tensors[n - 1] /= Z

      self.center_position = site
    #return the norm of the last R tensor (useful for checks)
    return Z


# scaffolding: three MPS of the same shapes (4 sites, bond dimension 2), each moved to the last site
calls = 0  # scaffolding
for seed in range(3):  # scaffolding
  rng = np.random.RandomState(seed)  # scaffolding
  mps = BaseMPS([rng.randn(2, 2, 2).astype(np.float32) for _ in range(4)], center_position=0, backend="jax")  # scaffolding
  mps.position(3)  # scaffolding
  calls += 3  # scaffolding: three QR steps per MPS
_report({"jit(qr_decomposition)"}, calls)  # scaffolding
