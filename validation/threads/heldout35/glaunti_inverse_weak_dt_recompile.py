# source: https://github.com/konstantin-a-maslov/glaunti/blob/764da514d6ecbb82736ee7048c814c23eccfd9b4/inverse_modelling.ipynb
# expect: shape-churn at line 89
# runtime: COMPILES 2 CALLS 6
# why: the notebook starts the optimised scalar as jnp.array(0.0), which is weakly typed, while make_step returns a strongly typed float32 dt (and Adam moments), so the jitted make_step compiles a second time on the second epoch.

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
import numpy as np
import optax
from functools import partial
from tqdm import tqdm  # scaffolding: tqdm import kept from the notebook


class constants:  # scaffolding: stands in for the repo's constants.py
    learning_rate = 1e-3
    grad_norm_clip = 5


# --- core/training.py ---
def get_optimiser(lr=constants.learning_rate):
    opt_chain = [
        optax.clip_by_global_norm(constants.grad_norm_clip), 
        optax.scale_by_adam(),
        optax.scale(-lr),
    ]
    optimiser = optax.chain(*opt_chain)
    return optimiser


@partial(jax.jit, static_argnums=0, donate_argnums=3)
def make_step(optimiser, grads, params, opt_state):
    updates, opt_state = optimiser.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state


# --- inverse_modelling.ipynb, cell 11 ---
def loss_inv(dt, params, model_callable, glacier, device_to_prefetch=None):  # scaffolding: the glacier model run is replaced by a quadratic
    average_glacier_smb = (dt - 1.5) * params["ddf"]
    return average_glacier_smb ** 2, {"average_glacier_smb": average_glacier_smb}


model_callable = None  # scaffolding: the jitted remat'd glacier model is not needed by the stand-in loss
glacier = {"name": "Grosser Aletsch"}  # scaffolding
params = {"ddf": jnp.array(2.0)}  # scaffolding: was {**trainable_params, **static_params}
n_epochs = 6  # scaffolding: the notebook runs 200 epochs

dt = jnp.array(0.0)
best_dt, best_avg_smb = None, np.inf 
loss_grad = jax.value_and_grad(loss_inv, argnums=0, has_aux=True)
optimiser = get_optimiser(5e-2)
opt_state = optimiser.init(dt)
device = jax.devices()[0]

with tqdm(total=n_epochs, desc="", disable=True) as pbar:  # scaffolding: was total=200, progress bar off
    for epoch in range(n_epochs):  # scaffolding: was range(200)
        (loss_value, aux), grads = loss_grad(
            dt, params, model_callable, glacier, device_to_prefetch=device,
        )            

        avg_smb = aux["average_glacier_smb"]
        if abs(avg_smb) < best_avg_smb:
            best_avg_smb = abs(avg_smb)
            best_dt = dt
        
        dt, opt_state = make_step(optimiser, grads, dt, opt_state)
        pbar_desc = f"loss={loss_value:.3f}, dt={dt:.3f} deg C, avg_smb={avg_smb:.3f} m w.e."

        pbar.set_description(f"{pbar_desc}")
        pbar.update(1)
_report({"jit(make_step)"}, n_epochs)
