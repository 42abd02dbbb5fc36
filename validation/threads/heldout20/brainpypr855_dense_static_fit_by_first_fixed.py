# source: https://github.com/brainpy/BrainPy/pull/855
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with the PR's reordering the static online_fit_by/offline_fit_by (None) is tested first, so `and` short-circuits before the traced fit flag is forced and the jitted training step compiles once for three steps.
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
# brainpy/BrainPy PR #855: Dense.update the fix, static *_fit_by checked first so `and` short-circuits
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class _Share:  # scaffolding: stand-in for brainpy.share (a global store of shared arguments)
    def __init__(self):  # scaffolding
        self._data = {}  # scaffolding

    def save(self, **kwargs):  # scaffolding
        self._data.update(kwargs)  # scaffolding

    def load(self, key, value=None):  # scaffolding
        return self._data.get(key, value)  # scaffolding


share = _Share()  # scaffolding


class Dense:  # scaffolding: cut-down brainpy.dnn.Dense (no Layer base, no initializers)
    def __init__(self, num_in, num_out):  # scaffolding
        self.num_in = num_in  # scaffolding
        self.num_out = num_out  # scaffolding
        self.W = jnp.ones((num_in, num_out)) * 0.1  # scaffolding
        self.b = jnp.zeros((num_out,))  # scaffolding
        # fitting parameters
        self.online_fit_by = None  # support online training
        self.offline_fit_by = None  # support offline training
        self.fit_record = dict()

    def update(self, x):
        x = jnp.asarray(x)  # scaffolding: bm.as_jax(x)
        res = x @ self.W
        if self.b is not None:
            res += self.b

        # online fitting data
        if self.online_fit_by is not None and share.load('fit', False):
            self.fit_record['input'] = x
            self.fit_record['output'] = res

        # offline fitting data
        if self.offline_fit_by is not None and share.load('fit', False):
            self.fit_record['input'] = x
            self.fit_record['output'] = res
        return res


layer = Dense(3, 2)  # scaffolding


def loss_fn(W, b, x, y):  # scaffolding: BPFF's loss over the Dense output
    layer.W, layer.b = W, b  # scaffolding: brainpy swaps TrainVar values in
    return jnp.mean((layer.update(x) - y) ** 2)  # scaffolding


@jax.jit  # scaffolding: BPFF.fit's jitted train step, shared args passed as a traced dict
def train_step(W, b, x, y, shared_args):  # scaffolding
    share.save(**shared_args)  # scaffolding
    loss, (gW, gb) = jax.value_and_grad(loss_fn, argnums=(0, 1))(W, b, x, y)  # scaffolding
    return W - 0.1 * gW, b - 0.1 * gb, loss  # scaffolding


W, b = layer.W, layer.b  # scaffolding
try:  # scaffolding
    for i in range(3):  # scaffolding
        W, b, loss = train_step(W, b, jnp.ones((4, 3)) * i, jnp.zeros((4, 2)), {"fit": True})  # scaffolding
    _report({"jit(train_step)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
