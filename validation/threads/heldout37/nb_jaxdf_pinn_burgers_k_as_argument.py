# source: https://github.com/ucl-bug/jaxdf/blob/969c35a6ac9446e6288feba3aba5d24fdad32582/docs/notebooks/pinn_burgers.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 30
# why: In the PINN notebook of the same repository the jitted update takes the step k as an argument (update(opt_state, seed, k)); the changing Python int is traced as a weak int32 scalar, so one compile serves every step and Adam sees the real step count, and the batchsize static_argnums of the inner jitted losses stays constant.
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
from jax import numpy as jnp
from functools import partial


def domain_sampler(seed, n):  # scaffolding: stand-in for jaxdf Domain.domain_sampler
    return jax.random.uniform(seed, (n, 2), minval=-1.0, maxval=1.0)


# %% cell 4
from jax.example_libraries import stax
from jax import random

seed = random.PRNGKey(0)

# Make a neural network for the field discretization
Tanh = stax.elementwise(jnp.tanh)
Layers = [stax.Dense(20), Tanh]*9
init_random_params, predict_p = stax.serial(*Layers, stax.Dense(1))

def init_params(seed, domain):
    return init_random_params(seed, (2,))[1]  # scaffolding: len(domain.N) == 2

def get_fun(params, x):
    return predict_p(params, x)

u = init_params(seed, None)  # scaffolding: Continuous.from_function(domain, init_params, get_fun, seed)
# %% cell 10
batchsize = 256

@partial(jax.jit, static_argnums=2)
def boundary_loss(u, seed, batchsize):
    x = domain_sampler(seed, batchsize)
    y = x.at[:,1].set(-0.5)
    field_val = jax.vmap(lambda p: get_fun(u, p))(y)  # scaffolding: u.get_field
    target_val = jnp.expand_dims(-jnp.sin(jnp.pi*x[:,0]), -1)
    return jnp.mean(jnp.abs(target_val - field_val)**2)


@partial(jax.jit, static_argnums=2)
def domain_loss(u, seed, batchsize):
    x = domain_sampler(seed, batchsize)
    residual = jax.vmap(jax.grad(lambda p: get_fun(u, p)[0]))(x)  # scaffolding: burgers(u) residual
    return jnp.mean(jnp.abs(residual)**2)
# %% cell 11
@jax.jit
def update(opt_state, seed, k):
    seeds = random.split(seed, 2)
    
    def tot_loss(u):
        l1 = domain_loss(u, seeds[0], batchsize)
        l2 = boundary_loss(u, seeds[1], batchsize)
        return l1+l2
    
    lossval, grads = jax.value_and_grad(tot_loss)(get_params(opt_state))
    
    return lossval, update_fun(k, grads, opt_state)
# %% cell 12
from jax.example_libraries import optimizers

#Initial field
u = init_params(seed, None)  # scaffolding

init_fun, update_fun, get_params = optimizers.adam(.0001)
opt_state = init_fun(u)
# %% cell 13
pbar = range(30)  # scaffolding: tqdm(range(100000))
rng = seed

for k in pbar:
    rng, seed = random.split(rng,2)
    lossval, opt_state = update(opt_state, seed, k)
    
    if k % 500 == 99:
        print(f"Loss: {lossval}")  # scaffolding: pbar.set_description
_report({"jit(update)"}, 30)  # scaffolding
