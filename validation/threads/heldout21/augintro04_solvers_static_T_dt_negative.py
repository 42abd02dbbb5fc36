# source: https://github.com/augustfe/jax-intro/blob/main/jax_intro/notebooks/04_efficient_loops.ipynb
# expect: none
# runtime: COMPILES 7 CALLS 15
# why: the four jitted ODE solvers take T and dt as static arguments and are timed at T*2 and T; each compiles once per distinct static T (7 compiles / 15 calls), which the notebook intends.
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
import numpy as np  # scaffolding: from cell 1
import jax.numpy as jnp  # scaffolding: from cell 11

I = 1  # scaffolding: the parameters of cell 3 (its plotting left out)
a = 2  # scaffolding
T = 5  # scaffolding
dt = 0.05  # scaffolding
theta = 0.5  # scaffolding

# --- cell 18 ---  # scaffolding
from jax import Array


def solver_jax(
    I: float, a: float, T: float, dt: float, theta: float
) -> tuple[Array, Array]:
    num_steps = int(T // dt)
    u = jnp.zeros(num_steps + 1)
    t = jnp.linspace(0, num_steps * dt, num_steps + 1)

    u = u.at[0].set(I)
    for n in range(num_steps):
        new_value = (1 - (1 - theta) * a * dt) / (1 + theta * a * dt) * u[n]
        u = u.at[n + 1].set(new_value)
    return u, t

# --- cell 20 ---  # scaffolding
for _ in range(3):  # scaffolding: was %timeit
    solver_jax(I, a, T, dt, theta)  # scaffolding

# --- cell 22 ---  # scaffolding
from jax import jit

solver_jax_jitted = jit(solver_jax, static_argnums=(2, 3))

for _ in range(3):  # scaffolding: was %timeit
    solver_jax_jitted(I, a, T, dt, theta)  # scaffolding

# --- cell 24 ---  # scaffolding
def loop(I: float) -> float:
    for n in range(1, 6):
        I = n * I
    return I

# --- cell 26 ---  # scaffolding
import jax

jax.make_jaxpr(loop)(5)

# --- cell 28 ---  # scaffolding
jit(solver_jax, static_argnums=(2, 3))(I, a, T*2, dt, theta)  # scaffolding: was %timeit -n 1 -r 1

# --- cell 30 ---  # scaffolding
def solver_jax_cumprod(
    I: float, a: float, T: float, dt: float, theta: float
) -> tuple[Array, Array]:
    num_steps = int(T // dt)
    u = jnp.zeros(num_steps + 1)
    t = jnp.linspace(0, num_steps * dt, num_steps + 1)

    u = u.at[0].set(I)
    A = (1 - (1 - theta) * a * dt) / (1 + theta * a * dt)
    u = u.at[1:].set(A)

    u = jnp.cumprod(u)
    return u, t

# --- cell 31 ---  # scaffolding
solver_jax_cumprod_jitted = jit(solver_jax_cumprod, static_argnums=(2, 3))

for _ in range(3):  # scaffolding: was %timeit
    solver_jax_cumprod_jitted(I, a, T, dt, theta)  # scaffolding

# --- cell 34 ---  # scaffolding
from jax import lax
from functools import partial


@partial(jit, static_argnums=(2, 3))
def solver_jax_fori(
    I: float, a: float, T: float, dt: float, theta: float
) -> tuple[Array, Array]:
    num_steps = int(T // dt)
    t = jnp.linspace(0, num_steps * dt, num_steps + 1)

    u = jnp.zeros(num_steps + 1)
    u = u.at[0].set(I)

    def body_fun(n: int, u: Array) -> Array:
        u_next = (1 - (1 - theta) * a * dt) / (1 + theta * a * dt) * u[n]
        u = u.at[n + 1].set(u_next)
        return u

    u = lax.fori_loop(0, num_steps, body_fun, u)
    return u, t

# --- cell 36 ---  # scaffolding
solver_jax_fori(I, a, T*2, dt, theta)  # scaffolding: was %timeit -n 1 -r 1

# --- cell 38 ---  # scaffolding
for _ in range(3):  # scaffolding: was %timeit
    solver_jax_fori(I, a, T, dt, theta)  # scaffolding

# --- cell 40 ---  # scaffolding
@partial(jit, static_argnames=("T", "dt"))
def solver_jax_scan(
    I: float, a: float, T: float, dt: float, theta: float
) -> tuple[Array, Array]:
    num_steps = int(T // dt)
    t = jnp.linspace(0, num_steps * dt, num_steps + 1)
    A = (1 - (1 - theta) * a * dt) / (1 + theta * a * dt)

    def body_fun(u_prev: Array, _: Array) -> tuple[Array, Array]:
        u_next = A * u_prev
        return u_next, u_next

    u, _ = lax.scan(body_fun, I, xs=None, length=num_steps)

    return u, t

# --- cell 41 ---  # scaffolding
solver_jax_scan(I, a, T*2, dt, theta)  # scaffolding: was %timeit -n 1 -r 1

# --- cell 42 ---  # scaffolding
for _ in range(3):  # scaffolding: was %timeit
    solver_jax_scan(I, a, T, dt, theta)  # scaffolding

_report({"jit(solver_jax)", "jit(solver_jax_cumprod)", "jit(solver_jax_fori)", "jit(solver_jax_scan)"}, 15)  # scaffolding
