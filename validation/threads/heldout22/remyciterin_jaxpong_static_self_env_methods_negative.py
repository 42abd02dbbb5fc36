# source: https://github.com/RemyCiterin/jax-experiments/blob/51996ec37bec8280eae2b5478919a7cbe0f9faed/Anakin_Pong.py
# expect: none
# runtime: COMPILES 3 CALLS 41
# why: reset, step and get_obs are jitted methods with the (default identity-hashed) env object static, plus static n, m; the 20-step demo loop compiles each once and the nested reset/_step inside step are inlined.
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
import os 

os.environ['XLA_PYTHON_CLIENT_PREALLOCATE']='false'
os.environ['XLA_PYTHON_CLIENT_MEM_FRACTION']='.30'

import jax 
jax.tree_map = jax.tree.map  # scaffolding: jax.tree_map was removed from jax
# import haiku as hk  # scaffolding: not needed by the environment part
# import optax  # scaffolding: not needed by the environment part
import numpy as np 
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed
from jax.random import PRNGKey, split

import functools

from typing import NamedTuple, Tuple, Callable, Any

import jax.random

class PongState(NamedTuple):
    leftPos   : jnp.ndarray
    rightPos  : jnp.ndarray
    ballPos   : jnp.ndarray
    ballSpeed : jnp.ndarray

"""
Pong environement  : all pos is between 0 and 1
"""

def is_in_rectangle(a, b, c, d, x, y):
    return jnp.less(a, x) * jnp.less_equal(x, c) * jnp.less(b, y) * jnp.less_equal(y, d)

def test_colision(rec1, rec2):
    (a, b, c, d) = rec1
    (x, y, z, t) = rec2 

    test = is_in_rectangle(a, b, c, d, x, y) + \
        is_in_rectangle(a, b, c, d, x, t) + \
        is_in_rectangle(a, b, c, d, z, t) + \
        is_in_rectangle(a, b, c, d, z, y) + \
        is_in_rectangle(x, y, z, t, a, b) + \
        is_in_rectangle(x, y, z, t, a, d) + \
        is_in_rectangle(x, y, z, t, c, b) + \
        is_in_rectangle(x, y, z, t, c, d)
    
    return jnp.not_equal(test, 0).astype(float)


class JaxPong:
    def __init__(self, speedL, speedR, max_ball_speed, delta_t, paddleW, paddleH, ballD, lossL):
        self.max_ball_speed = max_ball_speed
        self.delta_t = delta_t
        self.paddleW = paddleW
        self.paddleH = paddleH
        self.speedL = speedL
        self.speedR = speedR
        self.ballD = ballD
        self.lossL = lossL
        
    @functools.partial(jax.jit, static_argnums=0)
    def reset(self, rng) -> Tuple[Any, PongState]:
        rng1, rng2, rng3, rng4, rng5 = split(rng, 5)
        
        leftPos   = jax.random.uniform(rng1)
        rightPos  = jax.random.uniform(rng2)
        ballSpeed = jax.random.uniform(rng3, shape=(2,))
        ballPos   = jnp.zeros((2,)) + 0.5

        ballSpeed = jnp.sign(ballSpeed * 2 - 1) * self.max_ball_speed * jax.random.uniform(rng4)

        return rng5, PongState(leftPos, rightPos, ballPos, ballSpeed)
    
    @functools.partial(jax.jit, static_argnums=(0, 2, 3))
    def get_obs(self, state:PongState, n, m):
        
        def get_pixel(i, j):
            p1 = is_in_rectangle(
                self.lossL - self.paddleW / 2.0, state.leftPos - self.paddleH / 2.0, 
                self.lossL + self.paddleW / 2.0, state.leftPos + self.paddleH / 2.0, 
                i / n, j / m
            )

            p2 = is_in_rectangle(
                1 - self.lossL - self.paddleW / 2.0, state.rightPos - self.paddleH / 2.0, 
                1 - self.lossL + self.paddleW / 2.0, state.rightPos + self.paddleH / 2.0, 
                i / n, j / m
            )

            p3 = is_in_rectangle(
                state.ballPos[0] - self.ballD / 2.0, state.ballPos[1] - self.ballD / 2.0, 
                state.ballPos[0] + self.ballD / 2.0, state.ballPos[1] + self.ballD / 2.0, 
                i / n, j / m
            )

            return jnp.array((p1, p2, p3))

        return jnp.transpose(jax.vmap(lambda i : jax.vmap(lambda j : get_pixel(j, i)
        )(jnp.arange(n)))(jnp.arange(m)), (2, 0, 1))


    
    @functools.partial(jax.jit, static_argnums=0)
    def _step(self, state:PongState, action):
        # action is a real between -1 and 1

        rightPos = jnp.clip(
            state.rightPos + self.delta_t * jnp.clip(action, -1, 1) * self.speedR, 0, 1
        )

        leftPos = jnp.clip(
            state.leftPos + self.speedL * self.delta_t * jnp.sign(state.ballPos.at[1].get() - state.leftPos), 0, 1
        )

        speedR = (rightPos - state.rightPos) / self.delta_t 
        speedL = (leftPos - state.leftPos) / self.delta_t 

        ballPos = state.ballPos + state.ballSpeed * self.delta_t

        reward = jnp.less(ballPos.at[0].get(), 0.0).astype(float) - jnp.greater(ballPos.at[0].get(), 1.0).astype(float)

        invSpeedY = jnp.less(ballPos.at[1].get(), 0.0).astype(float) + jnp.less(1.0, ballPos.at[1].get()).astype(float)

        ballSpeedY = state.ballSpeed.at[1].get() * (1 - 2 * invSpeedY)

        invSpeedXL = test_colision(
            (
                ballPos.at[0].get() - self.ballD / 2.0, ballPos.at[1].get() - self.ballD / 2.0, 
                ballPos.at[0].get() + self.ballD / 2.0, ballPos.at[1].get() + self.ballD / 2.0
            ), (
                self.lossL - self.paddleW / 2.0, state.leftPos - self.paddleH / 2.0,
                self.lossL + self.paddleW / 2.0, state.leftPos + self.paddleH / 2.0
            )
        )
        invSpeedXR = test_colision(
            (
                ballPos.at[0].get() - self.ballD / 2.0, ballPos.at[1].get() - self.ballD / 2.0, 
                ballPos.at[0].get() + self.ballD / 2.0, ballPos.at[1].get() + self.ballD / 2.0
            ), (
                1 - self.lossL - self.paddleW / 2.0, state.rightPos - self.paddleH / 2.0, 
                1 - self.lossL + self.paddleW / 2.0, state.rightPos + self.paddleH / 2.0
            )
        )

        invSpeedX = invSpeedXL + invSpeedXR

        ballSpeedX = state.ballSpeed.at[0].get() * (1 - 2 * invSpeedX)

        ballSpeedY = ballSpeedY + (1 - invSpeedY) * 0.5 * speedL * invSpeedXL
        ballSpeedY = ballSpeedY + (1 - invSpeedY) * 0.5 * speedR * invSpeedXR

        ballSpeed = jnp.array((ballSpeedX, ballSpeedY))

        ballSpeed = jnp.clip(ballSpeed, -self.max_ball_speed, self.max_ball_speed)

        return PongState(leftPos, rightPos, ballPos, ballSpeed), jnp.squeeze(reward), jnp.squeeze(jnp.not_equal(reward, 0))

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, state, action, rng):
        rng, state_if_done = self.reset(rng)
        state, reward, done = self._step(state, action)
        state = jax.tree_map(lambda s, s_ : (1 - done) * s + done * s_, state, state_if_done)
        return jax.tree_map(jax.lax.stop_gradient, (state, reward, done, rng))
@jax.jit
def frameStack(last_obs, obs):
    return last_obs.at[3:].set(last_obs[:-3]).at[:3].set(obs)

size = 256
n, m = 50, 50

pong = JaxPong(speedL=1.0, speedR=1.25, max_ball_speed=1.5, delta_t=0.05, paddleW=0.05, paddleH=0.2, ballD=0.05, lossL=0.1)


rng, state = pong.reset(PRNGKey(42))
# """  # scaffolding: the demo loop kept in a string is un-quoted
for _ in range(20):
    state, reward, done, rng = pong.step(state, 0.1, rng)
    img = pong.get_obs(state, n, m)
    # plt.imshow(np.transpose(img, (1, 2, 0)).astype(float))  # scaffolding: plotting off
    # plt.show()  # scaffolding
    print(reward)
# """  # scaffolding
_report({"jit(reset)", "jit(step)", "jit(get_obs)", "jit(_step)"}, 41)  # scaffolding
