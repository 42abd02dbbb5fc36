# source: https://github.com/NickDST/Simple-RL-Jax/blob/210335c2f975709742d67d448fc17af1e71f8ba2/REINFORCE-Jax-Cartpole.py
# expect: shape-churn at line 299
# runtime: COMPILES 4 CALLS 4
# why: every 5 episodes the variable-length episodes are pooled and passed to the jitted policy_update, so the pooled length differs at every update and policy_update compiles 4 times for 4 calls.
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



#!/usr/bin/env python
'''
##
# REINFORCE Algorithm in Jax / Flax
##
##############################################################
# Author:               Nicholas Ho
# Email:                
# Affiliation:        
# Date Created:               
##############################################################
# Usage:
##############################################################
# Notes: 
##############################################################
# References:
# https://github.com/pytorch/examples/blob/main/reinforcement_learning/reinforce.py 
##############################################################
'''

import argparse
# import gym  # scaffolding: not installed; stand-in below
import numpy as np
from itertools import count

from typing import Any, Callable, Sequence, Optional
import jax
import jax.numpy as jnp                # JAX NumPy
from jax import random 
from flax import linen as nn           # The Linen API
from flax.training import train_state  # Useful dataclass to keep train state

import numpy as np                     # Ordinary NumPy
import optax                           # Optimizers


import jax.numpy as jnp
import jax
from jax import jit
from jax import grad
from jax import vmap
from jax import value_and_grad



#NOTE ONLY FOR NICKS MAC CUZ IT KINDA SUCKS
import os
os.environ['KMP_DUPLICATE_LIB_OK']='True'

# ---- scaffolding: gym is not installed; a minimal gym 0.21 CartPole-v0 (old API: seed/reset/step -> 4-tuple, 200-step limit) ----
import math  # scaffolding
import numpy  # scaffolding
from types import SimpleNamespace  # scaffolding


class _CartPoleV0:  # scaffolding: gym.envs.classic_control.CartPoleEnv (gym 0.21) inside TimeLimit(200)
    def __init__(self):  # scaffolding
        self.action_space = SimpleNamespace(n=2)  # scaffolding
        self.np_random = numpy.random.default_rng(0)  # scaffolding
        self.state = None  # scaffolding
        self.steps_beyond_done = None  # scaffolding
        self._elapsed = 0  # scaffolding

    def seed(self, seed=None):  # scaffolding
        self.np_random = numpy.random.default_rng(seed)  # scaffolding
        return [seed]  # scaffolding

    def reset(self):  # scaffolding
        self.state = self.np_random.uniform(low=-0.05, high=0.05, size=(4,))  # scaffolding
        self.steps_beyond_done = None  # scaffolding
        self._elapsed = 0  # scaffolding
        return numpy.array(self.state, dtype=numpy.float32)  # scaffolding

    def step(self, action):  # scaffolding
        x, x_dot, theta, theta_dot = self.state  # scaffolding
        force = 10.0 if action == 1 else -10.0  # scaffolding
        costheta, sintheta = math.cos(theta), math.sin(theta)  # scaffolding
        temp = (force + 0.05 * theta_dot**2 * sintheta) / 1.1  # scaffolding
        thetaacc = (9.8 * sintheta - costheta * temp) / (0.5 * (4.0 / 3.0 - 0.1 * costheta**2 / 1.1))  # scaffolding
        xacc = temp - 0.05 * thetaacc * costheta / 1.1  # scaffolding
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * xacc  # scaffolding
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc  # scaffolding
        self.state = (x, x_dot, theta, theta_dot)  # scaffolding
        done = bool(x < -2.4 or x > 2.4 or theta < -12 * 2 * math.pi / 360 or theta > 12 * 2 * math.pi / 360)  # scaffolding
        if not done:  # scaffolding
            reward = 1.0  # scaffolding
        elif self.steps_beyond_done is None:  # scaffolding
            self.steps_beyond_done = 0  # scaffolding
            reward = 1.0  # scaffolding
        else:  # scaffolding
            self.steps_beyond_done += 1  # scaffolding
            reward = 0.0  # scaffolding
        self._elapsed += 1  # scaffolding
        if self._elapsed >= 200:  # scaffolding: TimeLimit(max_episode_steps=200)
            done = True  # scaffolding
        return numpy.array(self.state, dtype=numpy.float32), reward, done, {}  # scaffolding

    def render(self):  # scaffolding: no window
        pass  # scaffolding

    def close(self):  # scaffolding
        pass  # scaffolding


gym = SimpleNamespace(make=lambda name: _CartPoleV0())  # scaffolding: gym.make("CartPole-v0")


gamma = 0.99
seed = 543
render = False
log_interval = 10
eps = np.finfo(np.float32).eps.item() ## epsilon value


env = gym.make('CartPole-v0')
state = env.reset()



class Policy(nn.Module):
    def setup(self):
        self.affine1 = nn.Dense(128)
        self.affine2 = nn.Dense(64)
        self.affine3 = nn.Dense(1)
    
    def __call__(self, inputs):
        
        x = inputs
        x = self.affine1(x)
        x = nn.relu(x)
        x = self.affine2(x)
        x = nn.relu(x)
        x = self.affine3(x)
        p = nn.sigmoid(x)
        return p
    
    


"""
Select Action
"""

@jax.jit
def select_action(state, params, key):
    state = jnp.array(state)
    p = Policy().apply(params, state) ## feeds it into the policy

    ##sampling action
    # action = jax.random.normal(key, (2,)) * std + mu ## no sigma for now
    action = jnp.array(jax.random.bernoulli(key, p), dtype = int)
    
    key1, key2 = random.split(key, 2)
    return action.reshape(1,), key1 ## returns the action

"""
sample trajectory

Code is based off of Pytorch's REINFORCE.py example:
https://github.com/pytorch/examples/blob/main/reinforcement_learning/reinforce.py 
"""

def sample_and_process(params, key):
    
    rewards_mem = []
    actions_mem = []
    states_mem = []
    
    
    ## sampling a trajectory
    state, ep_reward = env.reset(), 0 ## restatarting the states
    for t in range(0, 1000):  # Don't infinite loop while learning 10000

        states_mem.append(state)
        action, key = select_action(state, params, key)
        state, reward, done, _ = env.step(np.array(action[0]))
        
        rewards_mem.append(reward)
        actions_mem.append(action)
        
        ep_reward += reward

        if done:
            break
    
    actions_mem = jnp.array(actions_mem)
    states_mem = jnp.array(states_mem)

    ## Process the rewards into returns
    R = 0
    returns = [] ## initialize the array of returns
    
    ## this is creating the R(s) = R + \gamma * R(s')
    for r in rewards_mem[::-1]: ## iterate backward through the rewards
        R = r + gamma * R ## 
        returns.insert(0, R)
        
    returns = jnp.array(returns)
    
    ## normalizes the returns ## NOTE I should do this too
    returns = (returns - returns.mean()) / (returns.std() + eps)
    
    return states_mem, actions_mem, returns, ep_reward, key


"""
initialize NN
"""
def create_train_state(rng, learning_rate):
    """Creates initial `TrainState`."""
    model = Policy()
    x = jnp.ones([1,4])
    params = model.init(rng, x)
    tx = optax.adam(learning_rate)
    return train_state.TrainState.create(
      apply_fn=model.apply, params=params, tx=tx)


"""
Apply the update based on the sampled values
"""


@jax.jit
def policy_update(model_state, states, actions, returns):

    ### returns the log probs
    def policy_loss(params, states, actions, returns):
        p = Policy().apply(params, states) ## feeds it into the policy
        log_probs = jax.scipy.stats.bernoulli.logpmf(actions, p)
        return (-1 * log_probs * returns.reshape(-1, 1)).sum()

    grad_fn = jax.value_and_grad(policy_loss)
    loss, grads = grad_fn(model_state.params, states, actions, returns)
    model_state = model_state.apply_gradients(grads = grads)
    
    return model_state, loss
    
    
"""
Training Loop
"""


key = random.PRNGKey(0)
env.seed(seed)
model_state = create_train_state(key, 1e-2)

batch_update = 5

reward_hist = []
state_pool = []
action_pool = []
return_pool = []


print("Starting...")
for i in range(1,21):  # scaffolding: 20 episodes (4 updates) instead of 499

    more_states, more_actions, more_returns, ep_reward, key = sample_and_process(model_state.params, key)
    reward_hist.append(ep_reward)

    state_pool += list(more_states)  # scaffolding: was `state_pool += more_states`; list += jax.Array now raises TypeError (it extended the list by rows in 2022)
    action_pool += list(more_actions)  # scaffolding: was `action_pool += more_actions`; list += jax.Array now raises TypeError (it extended the list by rows in 2022)
    return_pool += list(more_returns)  # scaffolding: was `return_pool += more_returns`; list += jax.Array now raises TypeError (it extended the list by rows in 2022)

    if i % batch_update == 0:
        state_pool = jnp.array(state_pool)
        action_pool = jnp.array(action_pool)
        return_pool = jnp.array(return_pool)

        model_state, loss = policy_update(model_state, state_pool, action_pool, return_pool)

        state_pool = []
        action_pool = []
        return_pool = []

        avg_reward = np.mean(reward_hist[-100:])
        print("episode: ", i , " last ep: ", ep_reward, " avg: ", avg_reward)




"""
Rendering 10 Episodes
"""

for i in range(10):
    state = env.reset()
    for _ in range(1000):
        env.render()
        action, key = select_action(state, model_state.params, key)
        state, reward, done, _ = env.step(np.array(action[0]))
        if done:
            break

env.close()

_report({"jit(policy_update)"}, 4)  # scaffolding: policy_update runs every batch_update=5 episodes
