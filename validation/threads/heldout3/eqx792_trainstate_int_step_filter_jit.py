# source: https://github.com/patrick-kidger/equinox/issues/792
# expect: changing-static at line 44
# runtime: COMPILES 5 CALLS 5
# why: step is a Python int leaf of the TrainState, and eqx.filter_jit treats non-array leaves as static, so every step=self.step+1 hands train_step a new static value and it recompiles on each of the 5 calls (the reporter's 'MUCH slower').

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


import optax
import jax
import jax.numpy as jnp  # scaffolding
import equinox as eqx
from flax.struct import dataclass

@dataclass
class TrainState:
    model: eqx.Module
    tx: optax.GradientTransformation
    opt_state: optax.OptState
    step: int

    def apply_gradients(self, grads):
        updates, new_opt_state = self.tx.update(grads, self.opt_state, self.model)
        new_model = eqx.apply_updates(self.model, updates)
        return self.replace(model=new_model, opt_state=new_opt_state, step=self.step+1)

    @classmethod
    def create(cls, *, model, tx, **kwargs):
        opt_state = tx.init(model)
        return cls(model=model, tx=tx, opt_state=opt_state, step=0, **kwargs)  # scaffolding: cut off in the thread


class MLP(eqx.Module):  # scaffolding: a small model for the TrainState
    layers: list

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.layers = [eqx.nn.Linear(1, 8, key=k1), eqx.nn.Linear(8, 1, key=k2)]

    def __call__(self, x):
        return self.layers[1](jax.nn.relu(self.layers[0](x)))


@eqx.filter_jit  # scaffolding: the thread says the example needs filtered transforms
def train_step(state, x, y):
    def loss_fn(model):
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)
    grads = eqx.filter_grad(loss_fn)(state.model)
    return state.apply_gradients(grads)


model = MLP(jax.random.PRNGKey(0))  # scaffolding
x = jnp.linspace(-1, 1, 16)[:, None]  # scaffolding
y = x ** 2  # scaffolding

state = TrainState.create(model=model, tx=optax.sgd(1e-2))  # scaffolding
for _ in range(5):  # scaffolding
    state = train_step(state, x, y)
_report({"jit(train_step)"}, 5)  # scaffolding
