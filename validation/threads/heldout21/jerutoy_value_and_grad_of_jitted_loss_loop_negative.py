# source: https://github.com/jeru/learn-jax/blob/main/src/proj_0_toy_model/whole.py
# expect: none
# runtime: COMPILES 2 CALLS 20
# why: jax.value_and_grad of the jitted loss is called on every batch of a Python loop with fixed-shape float32 batches; loss compiles twice on the first step (forward/JVP and transposed) and never again.
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
# Copyright 2026 Cheng Sheng
# SPDX-License-Identifier: Apache-2.0
#
# Toy model to test out the whole training flow.

import os
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["JAX_ENABLE_X64"] = "1"

# import grain  # scaffolding: grain is not installed; stand-in below
# import grain.transforms  # scaffolding
import jax.nn.initializers
jax.config.update("jax_enable_x64", True)  # scaffolding: the harness imported jax before the JAX_ENABLE_X64 line above
from jax import numpy as jnp
import jax.random
from jaxtyping import Array, Float
import numpy as np
import optax
import types  # scaffolding
class _RandomMap:  # scaffolding: stand-in for grain.transforms.RandomMap (grain is not installed)
    pass  # scaffolding
class _MapDataset:  # scaffolding: stand-in for grain.MapDataset (range / random_map / batch / iteration)
    def __init__(self, items):  # scaffolding
        self.items = items  # scaffolding
    @staticmethod  # scaffolding
    def range(n):  # scaffolding
        return _MapDataset(list(range(n)))  # scaffolding
    def random_map(self, t, seed):  # scaffolding
        rng = np.random.default_rng(seed)  # scaffolding
        return _MapDataset([t.random_map(e, rng) for e in self.items])  # scaffolding
    def batch(self, k):  # scaffolding: grain stacks a batch into one numpy array
        return _MapDataset([np.stack([np.asarray(e) for e in self.items[i:i + k]]) for i in range(0, len(self.items), k)])  # scaffolding
    def __iter__(self):  # scaffolding
        return iter(self.items)  # scaffolding
grain = types.SimpleNamespace(MapDataset=_MapDataset, transforms=types.SimpleNamespace(RandomMap=_RandomMap))  # scaffolding


def linear(x: Float[Array, "B D"], *, w: Float[Array, "D R"],
           b: Float[Array, " R"]) -> Float[Array, "B R"]:
    return x @ w + b


def model(x: Float[Array, "B D"], params: dict) -> Float[Array, "B R"]:
    w: Float[Array, "D R"] = params["w"]
    b: Float[Array, " R"] = params["b"]
    return linear(x, w=w, b=b)


def ground_truth(x: Float[Array, " D"]) -> Float[Array, " R"]:
    return x * 3 + 5


@jax.jit
def loss(x: Float[Array, "B D"], params: dict) -> float:
    value = model(x, params)
    expected = ground_truth(x)
    diff = value - expected
    # Square L2 norm as loss function; average over batch.
    return jnp.mean(jnp.sum(diff * diff, axis=1), axis=0)


def main():
    rng_key = jax.random.key(42)
    initer = jax.nn.initializers.uniform(2)
    params = {
        "w": initer(rng_key, (2, 2), jnp.float32),
        "b": initer(rng_key, (2,), jnp.float32),
    }
    # Compute the gradient against the params, not `x`.
    value_and_grad_fn = jax.value_and_grad(loss, argnums=1)
    lr = 1e-2

    # Optimizer
    optimizer = optax.adam(lr)
    opt_state = optimizer.init(params)

    class VecGen(grain.transforms.RandomMap):
        def random_map(self, element, rng: np.random.Generator):
            return jnp.array(rng.random((2,)) * 10, dtype=jnp.float32)
    ds = grain.MapDataset.range(200)  # scaffolding: 10000 in the file (1000 steps -> 20)
    ds = ds.random_map(VecGen(), seed=42)
    ds = ds.batch(10)

    # Feed in random "training" data.
    for step, x in enumerate(ds):
        vg = value_and_grad_fn(x, params)
        print(f'Step {step}: x={x}, loss={vg[0]}, grad={vg[1]}')
        # Optax-based desecent.
        updates, opt_state = optimizer.update(vg[1], opt_state)
        params = optax.apply_updates(params, updates)
    print(f'Final: w={params["w"]}, b={params["b"]}')


if __name__ == "__main__":
    main()
_report({"jit(loss)"}, 20)  # scaffolding
