# source: https://github.com/ucl-bug/jaxdf/blob/969c35a6ac9446e6288feba3aba5d24fdad32582/docs/notebooks/simulate_helmholtz_equation.ipynb
# expect: stale-closure at line 91
# runtime: COMPILES 1 CALLS 20
# why: The jitted update passes the global loop counter k to the Adam update_fun, but k is read only when update is traced (k = 0 on the first call), so every later step reuses step 0's bias correction and the optimisation silently differs from the intended one (one compile, stale results).
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
from jax import random


@jax.tree_util.register_pytree_node_class
class Field:  # scaffolding: stand-in for jaxdf's FourierSeries
    def __init__(self, on_grid):
        self.on_grid = on_grid

    def tree_flatten(self):
        return (self.on_grid,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


N = (256, 256)  # scaffolding
src = Field(jnp.zeros(N + (1,)).at[32, 128, 0].set(1.0))  # scaffolding


def total_variation(u):  # scaffolding: stand-in for the jaxdf laplacian-based TV
    g = u.on_grid
    return jnp.mean(jnp.abs(jnp.diff(g, axis=0))) + jnp.mean(jnp.abs(jnp.diff(g, axis=1)))


# %% cell 16
seed = random.PRNGKey(32)

# Those are the parameters we want to optimize
lens_params = random.uniform(seed, (168,40))-4

def get_sos(T):
    lens = jnp.zeros(N)  # scaffolding: domain.N
    lens = lens.at[44:212,108:148].set(jax.nn.sigmoid(T)) + 1
    return Field(jnp.expand_dims(lens, -1))  # scaffolding: FourierSeries(..., domain)

def find_field(c, x0):  # scaffolding: the GMRES Helmholtz solve replaced by a cheap smooth map
    g = 0.5 * x0.on_grid + src.on_grid
    for _ in range(3):
        g = g + 0.25 * (jnp.roll(g, 1, 0) + jnp.roll(g, -1, 0) + jnp.roll(g, 1, 1) + jnp.roll(g, -1, 1) - 4 * g) / c.on_grid
    return Field(g)

def loss(p, guess):
    sos = get_sos(p)
    tv_term = total_variation(sos)
    field = find_field(sos, x0=guess)
    target_val = field.on_grid[70,210,0]
    return (-jnp.abs(target_val)) + tv_term, field
# %% cell 17
from jax.example_libraries import optimizers
from jax import jit
from tqdm import tqdm

losshistory = []

init_fun, update_fun, get_params = optimizers.adam(.1, b1=0.9, b2=0.9)
opt_state = init_fun(lens_params)

@jit
def update(opt_state, field):
    loss_and_field, gradient = jax.value_and_grad(loss, has_aux=True)(get_params(opt_state), field)
    return loss_and_field[0], loss_and_field[1], update_fun(k, gradient, opt_state)

pbar = tqdm(range(20), disable=True)  # scaffolding: 100 steps, no progress bar
field = Field(-src.on_grid)  # scaffolding: -src on a FourierSeries
for k in pbar:
    lossval, field, opt_state = update(opt_state, field)
    # For logging
    pbar.set_description("Ampl: {:01.4f}".format(-lossval))
    losshistory.append(lossval)
    
transmit_phase = get_params(opt_state)

# scaffolding: the same loop without jit reads k afresh at every step
opt_state2 = init_fun(lens_params)
field2 = Field(-src.on_grid)
with jax.disable_jit():
    for k in range(20):
        _, field2, opt_state2 = update(opt_state2, field2)
print("STALE max|diff| =", float(jnp.max(jnp.abs(get_params(opt_state2) - transmit_phase))))  # scaffolding
_report({"jit(update)"}, 20)  # scaffolding
