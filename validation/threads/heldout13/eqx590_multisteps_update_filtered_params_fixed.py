# source: https://github.com/patrick-kidger/equinox/issues/590
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: With the maintainer's fix only the array leaves of the model reach optim.update, so MultiSteps traces cleanly and the filter_jit step compiles once for four gradient-accumulation steps.

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
import jax
import jax.numpy as jnp
import optax
import equinox as eqx

key = jax.random.PRNGKey(0xff)
model = eqx.nn.MLP(2, 2, 2, 2, key=key)

def dummy_loss(model, x):
    return jax.vmap(model)(x).mean()

optim = optax.adamw(1e-2)
optim = optax.MultiSteps(optim, 2) # <--- remove this line and code will execute successfully 

opt_state = optim.init(eqx.filter(model, eqx.is_array))

@eqx.filter_jit
def train_step(model, opt_state, x):
    grad = eqx.filter_grad(dummy_loss)(model, x)
    updates, opt_state = optim.update(grad, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)

    return model, opt_state

x = jnp.zeros((4, 2))

for _ in range(4):  # scaffolding
    model, opt_state = train_step(model, opt_state, x)  # scaffolding
_report({"jit(train_step)"}, 4)  # scaffolding
