# source: https://github.com/theislab/moscot/commit/42601e2ee855dd74a7b90270c94fbcb26944bef7
# expect: none
# runtime: COMPILES 0 CALLS 4
# why: After the commit _apply calls self._output.apply directly, so pushes build no jitted apply.
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



from typing import Any, Optional, Tuple, Union

import jax
import jax.numpy as jnp
import numpy as np

ArrayLike = Any  # scaffolding: moscot._types


class SinkhornOutput:  # scaffolding: stand-in for ott.solvers.linear.sinkhorn.SinkhornOutput (dual potentials on a point cloud)
    def __init__(self, f, g, cost):  # scaffolding
        self.f, self.g, self.cost, self.epsilon = f, g, cost, 0.1  # scaffolding

    @property
    def matrix(self):  # scaffolding
        return jnp.exp((self.f[:, None] + self.g[None, :] - self.cost) / self.epsilon)  # scaffolding

    def apply(self, inputs, axis=0):  # scaffolding: as in ott, the axis picks the contraction in Python
        if axis == 0:  # scaffolding
            return inputs @ self.matrix if inputs.ndim == 2 else self.matrix.T @ inputs  # scaffolding
        return inputs @ self.matrix.T if inputs.ndim == 2 else self.matrix @ inputs  # scaffolding


class BaseSolverOutput:  # scaffolding: moscot.base.output.BaseSolverOutput, push/pull only
    def push(self, x: ArrayLike) -> ArrayLike:  # scaffolding
        return self._apply(x, forward=True)  # scaffolding

    def pull(self, x: ArrayLike) -> ArrayLike:  # scaffolding
        return self._apply(x, forward=False)  # scaffolding


class OTTOutput(BaseSolverOutput):
    def __init__(self, output):  # scaffolding: __init__ and the plotting/to() methods cut
        self._output = output  # scaffolding

    def _apply(self, x: ArrayLike, *, forward: bool) -> ArrayLike:
        if x.ndim == 1:
            return self._output.apply(x, axis=1 - forward)
        return self._output.apply(x.T, axis=1 - forward).T  # convert to batch first


rng = np.random.default_rng(0)  # scaffolding: a solved problem between two small cell populations
xs, ys = rng.normal(size=(30, 2)), rng.normal(size=(25, 2))  # scaffolding
cost = jnp.asarray(((xs[:, None] - ys[None]) ** 2).sum(-1))  # scaffolding
out = OTTOutput(SinkhornOutput(jnp.zeros(30), jnp.zeros(25), cost))  # scaffolding
calls = 0  # scaffolding
for day in range(4):  # scaffolding: push a cell-type indicator through the coupling, as problem.push does per query
    x = jnp.asarray((rng.random(30) < 0.3).astype(np.float32))  # scaffolding
    out.push(x).block_until_ready()  # scaffolding
    calls += 1  # scaffolding
_report({"jit(apply)"}, calls)  # scaffolding
