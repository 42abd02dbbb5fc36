# source: https://github.com/lululxvi/deepxde/pull/1594
# expect: jit-in-loop-or-body at line 62
# runtime: COMPILES 3 CALLS 3
# why: Model.predict wraps a fresh nested op in @jax.jit on every call, so each predict(x, operator=...) traces and compiles op again even for the same inputs (3 compiles for 3 calls).
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
import inspect  # scaffolding
import numpy as np  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

backend_name = "jax"  # scaffolding


class utils:  # scaffolding: stand-ins for deepxde.utils
    @staticmethod
    def get_num_args(func):  # scaffolding
        return len(inspect.signature(func).parameters)  # scaffolding

    @staticmethod
    def to_numpy(x):  # scaffolding
        return np.asarray(x)  # scaffolding


class Net:  # scaffolding: stand-in for a deepxde JAX network
    def __init__(self):  # scaffolding
        self.params = {"w": jnp.ones((2, 1))}  # scaffolding

    def apply(self, params, x):  # scaffolding
        return jnp.tanh(x @ params["w"])  # scaffolding


class Model:  # scaffolding: only the jax branch of Model.predict
    def __init__(self, net):  # scaffolding
        self.net = net  # scaffolding

    def predict(self, x, operator=None, callbacks=None):  # scaffolding: signature as in deepxde
        if backend_name == "jax":  # scaffolding: the other backends are left out
            if utils.get_num_args(operator) == 2:

                @jax.jit
                def op(inputs):
                    y_fn = lambda _x: self.net.apply(self.net.params, _x)
                    return operator(inputs, (y_fn(inputs), y_fn))

            elif utils.get_num_args(operator) == 3:
                # TODO: JAX backend Implementation of Auxiliary variables.
                raise NotImplementedError(
                    "Model.predict() with auxiliary variable hasn't been implemented "
                    "for backend jax."
                )
            y = op(x)
            y = utils.to_numpy(y)
        return y  # scaffolding


def pde_residual(x, y):  # scaffolding: an operator of (inputs, outputs)
    return y[0] ** 2  # scaffolding


model = Model(Net())  # scaffolding
x = np.linspace(0, 1, 16, dtype=np.float32).reshape(8, 2)  # scaffolding
calls = 0  # scaffolding
for _ in range(3):  # scaffolding: predict called repeatedly, e.g. by a callback
    model.predict(x, operator=pde_residual)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(op)"}, calls)  # scaffolding
