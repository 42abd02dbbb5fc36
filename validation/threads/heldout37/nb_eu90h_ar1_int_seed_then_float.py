# source: https://github.com/eu90h/python-notebooks/blob/206993a12975760fbb5a74fed74518483d64fcd6/Fitting%20an%20AR(1)%20model%20with%20JAX.ipynb
# expect: shape-churn at line 49
# runtime: COMPILES 2 CALLS 1000
# why: The simulated series starts from x_1 = random.randint(...), an int32 scalar, so the first predict call is compiled for an int32 x; every later call gets the float32 prediction and predict is traced and compiled a second time (int-then-float).
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
# %% cell 0
import jax
import jax.numpy as jnp
from jax import random
from collections import namedtuple
randkey = random.PRNGKey(0)
AR1Params = namedtuple('AR1Params', 'w b')
# %% cell 1
w = random.normal(randkey)
b = jnp.array(1.0)
randkey, _ = random.split(randkey)
x_1 = random.randint(randkey, (), 1, 100)
true_params = AR1Params(w, b)
# %% cell 2
@jax.jit
def predict(params: AR1Params, x: jnp.array) -> jnp.array:
    return params.w * x + params.b
vpredict = jax.vmap(predict,(None, 0))
# %% cell 3
data = [x_1]
for _ in range(1_000):
    data.append(predict(true_params, data[-1]))
data = jnp.array(data)
test_data = data[-100:]
train_data = data[:-100]
# %% cell 4
@jax.jit
def loss(params: AR1Params, xs: jnp.array):
    return jnp.square(xs[1:] - vpredict(params, xs)[:-1]).mean()
print("dtypes:", x_1.dtype, data.dtype)  # scaffolding
_report({"jit(predict)"}, 1_000)  # scaffolding
