# source: https://github.com/andrinr/IC-prediction/blob/4804a1320a754f7a947f686825f202dc37dcb1a3/src/field/fit_field.py
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: fit_field defines `@jax.jit def step` inside its body, closing over mass, field and the optax optimizer, but builds it once per call and then reuses it for every iteration of its own loop, and the project calls fit_field once per run, so step compiles once.

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
# ---- src/field/mass_assigment.py at 4804a13 (MSc-thesis experiment repo) ----
import jax
import jax.numpy as jnp
from functools import partial

@partial(jax.jit, static_argnums=(2))
def nn_ma(
        pos : jax.Array, 
        weight : jax.Array, 
        grid_size : int) -> jax.Array:

    """
    Nearest Neighbour (NN) mass assignment.
    Position are assumed to be normalized between 0 and 1.
    """

    coords = jnp.linspace(start=0, stop=1, num=grid_size+1)

    grid = jnp.zeros((grid_size, grid_size, grid_size))

    # find position on the grid
    x_idx = jnp.digitize(pos[0] % 1.0, coords, right=False) - 1
    y_idx = jnp.digitize(pos[1] % 1.0, coords, right=False) - 1
    z_idx = jnp.digitize(pos[2] % 1.0, coords, right=False) - 1

    # assign the mass
    grid = grid.at[x_idx, y_idx, z_idx].add(weight)

    return grid

@partial(jax.jit, static_argnums=(2))
def cic_ma(
        pos : jax.Array, 
        weight : jax.Array, 
        grid_size : int) -> jax.Array:

    """
    Periodic cloud in a cell mass (CIC) mass assignment. 
    Position are assumed to be normalized between 0 and 1.
    """
    
    dx = 1 / grid_size
    coords = jnp.linspace(start=0, stop=1, num=grid_size+1)

    field = jnp.zeros((grid_size, grid_size, grid_size))

    # find position on the grid
    x = jnp.digitize(pos[0] % 1.0, coords, right=False) - 1
    y = jnp.digitize(pos[1] % 1.0, coords, right=False) - 1
    z = jnp.digitize(pos[2] % 1.0, coords, right=False) - 1

    # find the weights
    xw = (pos[0] % 1.0 - coords[x]) / dx
    yw = (pos[1] % 1.0 - coords[y]) / dx
    zw = (pos[2] % 1.0 - coords[z]) / dx

    # assign the mass
    field = field.at[x, y, z].add(weight * (1 - xw) * (1 - yw) * (1 - zw))
    field = field.at[(x + 1) % grid_size, y, z].add(weight * xw * (1 - yw) * (1 - zw))
    field = field.at[x, (y + 1) % grid_size, z].add(weight * (1 - xw) * yw * (1 - zw))
    field = field.at[(x + 1) % grid_size, (y + 1) % grid_size, z].add(weight * xw * yw * (1 - zw))
    field = field.at[x, y, (z + 1) % grid_size].add(weight * (1 - xw) * (1 - yw) * zw)
    field = field.at[(x + 1) % grid_size, y, (z + 1) % grid_size].add(weight * xw * (1 - yw) * zw)
    field = field.at[x, (y + 1) % grid_size, (z + 1) % grid_size].add(weight * (1 - xw) * yw * zw)
    field = field.at[(x + 1) % grid_size, (y + 1) % grid_size, (z + 1) % grid_size].add(weight * xw * yw * zw)

    return field
# ---- src/field/fit_field.py at 4804a13 ----
import jax  # (from .mass_assigment import cic_ma: defined above)
import jax.numpy as jnp
import optax
from typing import Tuple, NamedTuple

class Particles(NamedTuple):
    pos : jax.Array
    mass : jax.Array

def loss(
        pos : jax.Array,
        mass : jax.Array,
        field_truth : jax.Array):
    
    field_pred = cic_ma(
        pos,
        mass,
        field_truth.shape[0])
    
    return jnp.mean((field_pred - field_truth) ** 2)

def fit_field(
        key : jax.Array,
        num_particles : int,
        field : jax.Array,
        total_mass : float,
        iterations : float = 400,
        learning_rate : float = 0.005,
        ) -> Tuple[jax.Array, jax.Array]:

    # start random
    pos = jax.random.uniform(key, (3, num_particles))
    mass = jnp.ones(num_particles) * total_mass / num_particles

    optimizer = optax.adam(learning_rate)
    opt_state = optimizer.init(pos)

    grad_f = jax.grad(loss)

    @jax.jit
    def step(pos, opt_state):
        grad = grad_f(pos, mass, field)
        updates, opt_state = optimizer.update(grad, opt_state)
        pos = optax.apply_updates(pos, updates)
        return pos, opt_state
    
    for i in range(iterations):
        pos, opt_state = step(pos, opt_state)
        if i % 10 == 0:
            print(f"Loss: {loss(pos, mass, field)}")

    return pos, mass

# ---- src/field/test_fit_field.py at 4804a13, called as a script; sizes cut down ----
_step_calls = 0  # scaffolding (the step loop runs `iterations` times per fit_field call)
def test_fit_field():
    key = jax.random.PRNGKey(0)
    key_field, key_opt = jax.random.split(key)
    N = 8  # scaffolding: was 32
    field = jax.random.uniform(key_field, (N, N, N))
    print(f"field: {jnp.sum(field)}")   
    print(N**3*0.5)
    pos, mass = fit_field(
        key=key_opt,
        num_particles=N**3,
        field=field, 
        total_mass=jnp.sum(field),
        iterations=20,  # scaffolding: was 1000
        learning_rate=0.001)
    
    field_pred = cic_ma(pos, mass, field.shape[0])

    print(jnp.mean((field - field_pred) ** 2) < 0.0001)  # scaffolding: was an assert on the fit quality
    assert pos.shape == (3, N**3)
    assert mass.shape == (N**3,)

test_fit_field()  # scaffolding
_report({"jit(step)"}, 20)  # scaffolding: 20 step calls in one fit_field call
