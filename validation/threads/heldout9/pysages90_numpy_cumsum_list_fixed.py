# source: https://github.com/SSAGESLabs/PySAGES/pull/90
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR computes the split points with numpy's cumsum and stores them as a Python list, so they are trace-time constants and pack traces under jit; the jitted lambda compiles once.

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
from typing import NamedTuple

import jax
from jax import numpy as np, jit
from numpy import cumsum


class ParametersLayout(NamedTuple):
    structure:  object
    shapes:     list
    separators: list


def prod(xs):
    y = 1
    for x in xs:
        y *= x
    return y


def unpack(params):
    data, structure = jax.tree_util.tree_flatten(params)
    ps = np.hstack([values.flatten() for values in data])
    shapes = [values.shape for values in data]
    separators = cumsum([prod(s) for s in shapes[:-1]])
    return ps, ParametersLayout(structure, shapes, list(separators))


def pack(params, layout):
    structure, shapes, separators = layout
    partition = np.split(params, separators)
    ps = [p.reshape(s) for (p, s) in zip(partition, shapes)]
    return structure.unflatten(ps)


model_parameters = [(np.ones((1, 4)), np.zeros(4)), (np.ones((4, 1)), np.zeros(1))]  # scaffolding: stax MLP parameters
ps, layout = unpack(model_parameters)
packed = jit(lambda ps: pack(ps, layout))  # scaffolding: one wrapper, called twice
params = packed(ps)
params = packed(ps * 2)  # scaffolding
_report({"jit(<lambda>)"}, 2)  # scaffolding
