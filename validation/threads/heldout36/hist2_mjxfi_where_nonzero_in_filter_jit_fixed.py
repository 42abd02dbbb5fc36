# source: https://github.com/mistry-lab/mjx_fitted_iteration/commit/1c943c68260cc2e424f341d310bd4e53849d47d1
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit's fix masks costs with jnp.logical_not(terminated) instead of locating the first termination with nonzero, so the rollout traces and compiles once for four calls.

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

from dataclasses import dataclass
from functools import partial
from types import SimpleNamespace
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util


# --- scaffolding: a tiny stand-in for mujoco.mjx (a 1-D point mass), mujoco is not installed ---
@partial(jax.tree_util.register_dataclass, data_fields=["qpos", "qvel", "ctrl", "time"], meta_fields=[])
@dataclass(frozen=True)
class _Data:
    qpos: jnp.ndarray
    qvel: jnp.ndarray
    ctrl: jnp.ndarray
    time: jnp.ndarray

    def replace(self, **kw):
        return _Data(**{**self.__dict__, **kw})


@partial(jax.tree_util.register_dataclass, data_fields=["timestep"], meta_fields=["nq", "nu"])
@dataclass(frozen=True)
class _Model:
    timestep: jnp.ndarray
    nq: int = 1
    nu: int = 1


def _make_data(mx):
    return _Data(jnp.zeros(mx.nq), jnp.zeros(mx.nq), jnp.zeros(mx.nu), jnp.zeros(()))


def _step(mx, dx):
    qvel = dx.qvel + mx.timestep * dx.ctrl
    return dx.replace(qpos=dx.qpos + mx.timestep * qvel, qvel=qvel, time=dx.time + mx.timestep)


mjx = SimpleNamespace(Model=_Model, Data=_Data, make_data=_make_data, step=_step)


# diff_sim/context/meta_context.py, trimmed (type checks of the callbacks dropped)
@partial(jax.tree_util.register_dataclass,
         data_fields=['mx'],
         meta_fields=['lr', 'nsteps', 'batch', 'dt'])
@dataclass(frozen=True)
class Config:
    lr: float     # learning rate
    nsteps: int   # simulation steps
    batch: int    # batch size (number simulations)
    dt: float     # simulation time step
    mx: mjx.Model # MJX model


class Callbacks:  # scaffolding: only the callbacks controlled_simulate uses
    def __init__(self, run_cost, terminal_cost, control_cost, state_encoder, controller, is_terminal):
        self.run_cost = run_cost
        self.terminal_cost = terminal_cost
        self.control_cost = control_cost
        self.state_encoder = state_encoder
        self.controller = controller
        self.is_terminal = is_terminal


class Context:
    def __init__(self, cfg: Config, cbs: Callbacks):
        self.cfg = cfg
        self.cbs = cbs


class Network(eqx.Module):  # scaffolding: a small policy net
    layer: eqx.nn.Linear

    def __init__(self, key):
        self.layer = eqx.nn.Linear(2, 1, key=key)

    def __call__(self, x):
        return self.layer(x)


def controller(net, mx, dx, key):  # scaffolding: config callbacks, in the style of config/di.py
    x = jnp.concatenate([dx.qpos, dx.qvel])
    u = net(x)
    return dx.replace(ctrl=u), u


ctx = Context(
    Config(lr=1e-3, nsteps=50, batch=4, dt=0.01, mx=mjx.Model(timestep=jnp.array(0.01))),
    Callbacks(
        run_cost=lambda mx, dx: jnp.sum(dx.qpos ** 2),
        terminal_cost=lambda mx, dx: jnp.sum(dx.qpos ** 2),
        control_cost=lambda mx, dx: jnp.sum(dx.ctrl ** 2),
        state_encoder=lambda mx, dx: jnp.concatenate([dx.qpos, dx.qvel]),
        controller=controller,
        is_terminal=lambda mx, dx: jnp.array([jnp.abs(dx.qpos[0]) > 2.0]),
    ),
)
# --- end scaffolding ---


@eqx.filter_jit
def controlled_simulate(x_inits:jnp.ndarray, ctx: Context, net: Network, key: jnp.ndarray):
    mx = ctx.cfg.mx

    def cost_fn(mx:mjx.Model , dx:mjx.Data):
        ucost = ctx.cbs.control_cost(mx,dx) * ctx.cfg.dt
        xcst = ctx.cbs.run_cost(mx,dx) * ctx.cfg.dt
        return jnp.array([ucost + xcst])

    def set_init(x):
        dx = mjx.make_data(mx)
        # TODO: Decode x_init here.
        qpos = dx.qpos.at[:].set(x[:mx.nq])
        qvel = dx.qvel.at[:].set(x[mx.nq:])
        dx = dx.replace(qpos=qpos, qvel=qvel)
        return mjx.step(mx, dx)

    # TODO: append a flag with x that signifies wether you should terminate or not
    def step(carry, _):
        dx, key = carry
        key, subkey = jax.random.split(key)
        dx, u = ctx.cbs.controller(net, mx, dx, subkey)
        cost = cost_fn(mx, dx)
        dx = mjx.step(mx, dx) # Dynamics function
        terminated = ctx.cbs.is_terminal(mx, dx)
        x = ctx.cbs.state_encoder(mx,dx)
        t = jnp.expand_dims(dx.time, axis=0)
        return (dx, key), jnp.concatenate([x, dx.ctrl, cost, t, terminated], axis=0)

    @jax.vmap
    def rollout(x_init):
        dx = set_init(x_init)
        (dx,_), res = jax.lax.scan(step, (dx, key), None, length=ctx.cfg.nsteps-1)
        x, u, costs, ts, terminated = res[...,:-mx.nu-3], res[...,-mx.nu-3:-3], res[...,-3], res[...,-2], res[...,-1]
        x = jnp.concatenate([x_init.reshape(1,-1), x], axis=0)
        t = jnp.concatenate([jnp.array([ctx.cfg.dt]), ts], axis=0)
        tcost = ctx.cbs.terminal_cost(mx,dx) # Terminal cost
        costs = jnp.concatenate([costs, tcost.reshape(-1)], axis=0)
        terminated = jnp.concatenate([terminated, jnp.array([False])])
        # From the first terminated index, set the following costs to 0 (included index)
        costs = costs * jnp.logical_not(terminated)        
        return x, u, costs, t #return dx as well return termination indicies as well

    return rollout(x_inits)


# scaffolding: the loss functions call controlled_simulate once per training step (diff_sim/loss_funcs.py)
net = Network(jax.random.PRNGKey(0))
key = jax.random.PRNGKey(1)
n_calls = 0
try:  # scaffolding
    for epoch in range(4):
        key, xkey, user_key = jax.random.split(key, 3)
        x_init = jax.random.uniform(xkey, (ctx.cfg.batch, 2), minval=-3.0, maxval=3.0)
        _, _, costs, _ = controlled_simulate(x_init, ctx, net, user_key)
        n_calls += 1
    _report({"jit(controlled_simulate)"}, n_calls)
except jax.errors.ConcretizationTypeError as e:  # scaffolding
    print("ERROR", type(e).__name__)
